"""Reads of an event's bracket stage: the stage as the core's bracket, a match game's
finish, what the services check before a change, and the page (``bracket_for(event=)``
-> ``BracketPage``, the layout with names, totals and table links). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.utils.translation import gettext

from common.phrases import Phrase
from scoring.engines.base import N_, Problem
from scoring.engines.registry import ENGINES
from scoring.models import Game, Round
from scoring.selectors import GameOutcome
from scoring.wording import said
from tournaments.brackets.core import (
    Bracket,
    BracketLayout,
    BracketState,
    DrawRule,
    EliminationBracket,
    Format,
    GrandFinal,
    MatchView,
    Override,
    Result,
    Status,
    TableBracket,
    TableRules,
    bracket_layout,
)
from tournaments.brackets.core.layout import (
    LayoutColumn,
    LayoutMatch,
    LayoutSeat,
    LayoutSection,
    ordinal,
)
from tournaments.errors import TournamentError
from tournaments.models import BracketGame, BracketStage, Entrant, Event, TableSeat, TournamentRound
from tournaments.seating import adapter as seating
from tournaments.standings import adapter as results
from tournaments.standings.core import InvalidResults
from tournaments.standings.core.results import places_from_totals

Finish = tuple[tuple[str, ...], ...]


# --------------------------------------------------------------------------- what a change checks


def qualifying_waiting(event: Event) -> list[Phrase]:
    """Tables of the qualifying rounds not done yet (and drafts), in words said in the
    reader's language."""
    waiting = [
        Phrase(
            N_("round {round} table {table}"),
            {"round": row.round_number, "table": row.table_number},
        )
        for row in results.table_rows(event)
        if not row.finished or row.pending
    ]
    if event.rounds.filter(status=TournamentRound.Status.DRAFT).exists():
        waiting.append(Phrase(N_("a draft round")))
    return waiting


def standings_order(event: Event) -> list[int]:
    try:
        return [row.entrant for row in results.event_standings(event).rows]
    except InvalidResults as invalid:
        raise TournamentError(invalid.problems) from None


# --------------------------------------------------------------------------- stored <-> core


def _finish_from_json(groups: Sequence[Sequence[Any]]) -> Finish:
    return tuple(tuple(str(name) for name in group) for group in groups)


def core_bracket(stage: BracketStage) -> Bracket:
    """The core's bracket from a stage's stored inputs."""
    options = stage.options
    stored_results = tuple(
        Result(match=item["match"], finish=_finish_from_json(item["finish"]))
        for item in stage.results
    )
    stored_overrides = tuple(
        Override(
            match=item["match"], finish=_finish_from_json(item["finish"]), reason=item["reason"]
        )
        for item in stage.overrides
    )
    seeds = tuple(str(name) for name in stage.seeds)
    if stage.kind == BracketStage.Kind.TABLES:
        return TableBracket(
            seeds=seeds,
            rules=stage_table_rules(options),
            placement_tables=bool(options.get("placement_tables")),
            draw_rule=DrawRule(stage.draw_rule),
            seed=stage.seed,
            history=tuple((str(a), str(b)) for a, b in stage.history),
            results=stored_results,
            overrides=stored_overrides,
        )
    return EliminationBracket(
        format=Format(stage.kind),
        seeds=seeds,
        third_place=bool(options.get("third_place")),
        grand_final=GrandFinal(options.get("grand_final", GrandFinal.RESET)),
        draw_rule=DrawRule(stage.draw_rule),
        seed=stage.seed,
        results=stored_results,
        overrides=stored_overrides,
    )


def stage_table_rules(options: Mapping[str, Any]) -> TableRules:
    return TableRules(
        table_size=int(options["table_size"]),
        advance=int(options["advance"]),
        legal_sizes=tuple(int(size) for size in options["legal_sizes"]),
        final_table_size=options.get("final_table_size"),
    )


# --------------------------------------------------------------------------- creating a stage


def stage_settings_problems(
    *, kind: str, seeding: str, draw_rule: str, grand_final: str
) -> list[Problem]:
    """What is wrong with a new stage's settings, each problem naming its field."""
    problems: list[Problem] = []
    if kind not in BracketStage.Kind.values:
        problems.append(
            Problem(
                N_("kind must be one of {allowed}"),
                None,
                "kind",
                {"allowed": ", ".join(BracketStage.Kind.values)},
            )
        )
    if seeding not in BracketStage.Seeding.values:
        problems.append(
            Problem(
                N_("seeding must be one of {allowed}"),
                None,
                "seeding",
                {"allowed": ", ".join(BracketStage.Seeding.values)},
            )
        )
    if draw_rule not in BracketStage.DrawRule.values:
        problems.append(
            Problem(
                N_("the draw rule must be one of {allowed}"),
                None,
                "draw_rule",
                {"allowed": ", ".join(BracketStage.DrawRule.values)},
            )
        )
    if grand_final not in GrandFinal.__members__.values():
        problems.append(
            Problem(N_("the grand final is none, single or reset"), None, "grand_final")
        )
    return problems


def playing_entrants(event: Event) -> list[Entrant]:
    entrants = list(event.entrants.filter(dropped=False).order_by("pk"))
    if any(e.checked_in for e in entrants):
        entrants = [e for e in entrants if e.checked_in]
    return entrants


def two_team_problems(event: Event, members: int) -> list[Problem]:
    """Problems when two entrants of ``members`` each cannot sit as the two sides of a table."""
    size = 2 * max(1, members)
    policy = seating.table_policy(event.game, options=event.options)
    title = ENGINES[event.game].title
    if size not in policy.legal_sizes:
        return [
            Problem(
                N_("{game} is not played by {size} at a table"),
                None,
                "kind",
                {"game": title, "size": size},
            )
        ]
    sides = policy.sides.get(size)
    wanted = {tuple(range(t, size, 2)) for t in range(2)}
    if members <= 1:
        if sides:
            return [
                Problem(
                    N_("{game} at {size} is played in teams: enter fixed teams"),
                    None,
                    "kind",
                    {"game": title, "size": size},
                )
            ]
        return []
    if not sides or {tuple(sorted(s)) for s in sides} != wanted:
        return [
            Problem(
                N_("{game} at {size} is not played as two sides of {members}"),
                None,
                "kind",
                {"game": title, "size": size, "members": members},
            )
        ]
    return []


def shared_tables(event: Event, ids: set[int]) -> list[list[str]]:
    """Pairs of these entrants who shared a table in the published rounds."""
    tables: dict[int, set[int]] = {}
    for table_id, entrant_id in TableSeat.objects.filter(
        table__round__event=event, table__round__status=TournamentRound.Status.PUBLISHED
    ).values_list("table_id", "entrant_id"):
        if entrant_id in ids:
            tables.setdefault(table_id, set()).add(entrant_id)
    pairs = {pair for seated in tables.values() for pair in combinations(sorted(seated), 2)}
    return [[str(a), str(b)] for a, b in sorted(pairs)]


# --------------------------------------------------------------------------- the matches' games


def current_games(stage: BracketStage) -> dict[str, BracketGame]:
    latest: dict[str, BracketGame] = {}
    for row in stage.games.select_related("game").order_by("match", "attempt"):
        latest[row.match] = row
    return latest


def finish_of_game(row: BracketGame) -> Finish | None:
    """The finish a match's game reports (entrant ids grouped by place), or None while the
    game is not finished or a round still waits for its confirmation."""
    game = row.game
    if game.status != Game.Status.FINISHED:
        return None
    if Round.objects.filter(game=game, status=Round.Status.PENDING).exists():
        return None
    outcome = GameOutcome.of(game)
    if len(outcome.totals) != len(row.seats):
        return None
    places = places_from_totals(outcome.totals, outcome.winners, outcome.teams)
    best: dict[str, int] = {}
    for entrant_id, place in zip(row.seats, places, strict=True):
        key = str(entrant_id)
        best[key] = min(place, best.get(key, place))
    groups: dict[int, list[str]] = {}
    for key, place in best.items():
        groups.setdefault(place, []).append(key)
    return tuple(tuple(groups[place]) for place in sorted(groups))


# --------------------------------------------------------------------------- pages


@dataclass(frozen=True)
class PageSeat(LayoutSeat):
    """The core's seat as a page shows it: the label is the entrant's name, with its row;
    what the match's game says of the entrant: its total once a deal is recorded, its
    place in the finish once the match is decided (a table's finishing order)."""

    entrant_id: int | None = None
    total: int | float | None = None
    place: int | None = None

    @property
    def known(self) -> bool:
        """An entrant sits here (not a bye, nor a seat still to be decided)."""
        return self.entrant is not None

    @property
    def total_text(self) -> str:
        if self.total is None:
            return ""
        return str(int(self.total)) if float(self.total).is_integer() else f"{self.total:g}"

    @property
    def place_text(self) -> str:
        if self.place is None:
            return ""
        return said(ordinal(self.place))


@dataclass(frozen=True)
class PageMatch(LayoutMatch):
    """The core's match as a page shows it: its seats named, its game's links, the reason
    of an override."""

    seats: tuple[PageSeat, ...]
    title: str  # "Table 3" / "Match 2"
    table_token: str  # the game's entry link (the desk's alone), empty while no game
    view_token: str  # the game's view link (the public bracket page), empty while no game
    game_id: int | None
    reason: str  # the director's reason, when overridden


@dataclass(frozen=True)
class PagePlace:
    places: str  # "1", "5-8"
    name: str


@dataclass(frozen=True)
class BracketPage:
    event_name: str
    kind: str
    kind_title: str
    draw_rule: str
    sections: tuple[LayoutSection[PageMatch], ...]  # the core's layout, dressed for a page
    placements: tuple[PagePlace, ...]
    complete: bool
    champion: str
    cut: str  # "Top 8 of 16 after the qualifying rounds", or ""
    revision: int
    widest_column: int
    rounds: int


def _page_seat(
    seat: LayoutSeat,
    names: Mapping[str, str],
    totals: Mapping[str, int | float] | None = None,
    places: Mapping[str, int] | None = None,
) -> PageSeat:
    if seat.entrant is None:
        return PageSeat(entrant=None, seed=None, label=said(seat.label), advanced=False)
    return PageSeat(
        entrant=seat.entrant,
        seed=seat.seed,
        label=names.get(seat.entrant, seat.entrant),
        advanced=seat.advanced,
        entrant_id=int(seat.entrant) if seat.entrant.isdigit() else None,
        total=(totals or {}).get(seat.entrant),
        place=(places or {}).get(seat.entrant),
    )


def _game_totals(row: BracketGame | None, played: set[int]) -> dict[str, int | float]:
    """Each entrant's total in its match's game (a team's, read at its first seat), once
    the game has a deal recorded; the game's engine computed them (the score cache)."""
    if row is None or row.game_id not in played:
        return {}
    totals = GameOutcome.of(row.game).totals
    if len(totals) != len(row.seats):
        return {}
    found: dict[str, int | float] = {}
    for entrant_id, total in zip(row.seats, totals, strict=True):
        if isinstance(total, int | float):
            found.setdefault(str(entrant_id), total)
    return found


def _finish_places(view: MatchView | None) -> dict[str, int]:
    """Each entrant's place in a decided match: the director's finish when overridden,
    else the game's (entrants level share a place), else the order used for advancing."""
    if view is None or view.status != Status.DONE:
        return {}
    groups: tuple[tuple[str, ...], ...] = ()
    if view.override is not None:
        groups = view.override.finish
    elif view.reported:
        groups = view.reported
    if not groups:
        groups = tuple((entrant,) for entrant in view.finish)
    places: dict[str, int] = {}
    place = 1
    for group in groups:
        for entrant in group:
            places.setdefault(entrant, place)
        place += len(group)
    return places


def _in_finishing_order(seats: tuple[PageSeat, ...]) -> tuple[PageSeat, ...]:
    """A decided table lists its seats in finishing order (seat order while it plays)."""
    if all(seat.place is None for seat in seats):
        return seats
    last = len(seats) + 1
    return tuple(sorted(seats, key=lambda seat: seat.place if seat.place is not None else last))


def _page_match(
    match: LayoutMatch,
    names: Mapping[str, str],
    games: Mapping[str, BracketGame],
    reasons: Mapping[str, str],
    two_team: bool,
    state: BracketState | None = None,
    played: set[int] | None = None,
) -> PageMatch:
    row = games.get(match.id)
    totals = _game_totals(row, played or set())
    view = next((m for m in state.matches if m.id == match.id), None) if state else None
    places = {} if two_team else _finish_places(view)
    return PageMatch(
        id=match.id,
        number=match.number,
        status=match.status,
        seats=_in_finishing_order(
            tuple(_page_seat(seat, names, totals, places) for seat in match.seats)
        ),
        feeders=match.feeders,
        advance=match.advance,
        overridden=match.overridden,
        title=(gettext("Match {id}") if two_team else gettext("Table {id}")).format(id=match.id),
        table_token=row.game.table_token if row is not None else "",
        view_token=row.game.view_token if row is not None else "",
        game_id=row.game_id if row is not None else None,
        reason=reasons.get(match.id, ""),
    )


def bracket_layout_for(stage: BracketStage) -> tuple[BracketLayout, BracketState]:
    bracket = core_bracket(stage)
    state = bracket.state()
    return bracket_layout(state, bracket.seeds), state


def bracket_for(*, event: Event) -> BracketPage | None:
    """The event's bracket as a page (and a sheet) shows it; None before there is one."""
    stage = BracketStage.objects.filter(event=event).first()
    if stage is None:
        return None
    layout, state = bracket_layout_for(stage)
    names = {str(pk): name for pk, name in event.entrants.values_list("pk", "name")}
    games = current_games(stage)
    reasons = {item["match"]: item["reason"] for item in stage.overrides}
    two_team = stage.kind != BracketStage.Kind.TABLES
    played = set(
        Round.objects.filter(game_id__in=[row.game_id for row in games.values()]).values_list(
            "game_id", flat=True
        )
    )
    sections = tuple(
        LayoutSection(
            section.key,
            said(section.title),
            tuple(
                LayoutColumn(
                    column.round,
                    said(column.title),
                    tuple(
                        _page_match(m, names, games, reasons, two_team, state, played)
                        for m in column.matches
                    ),
                )
                for column in section.columns
            ),
        )
        for section in layout.sections
    )
    placements = tuple(
        PagePlace(
            str(p.first) if p.first == p.last else f"{p.first}-{p.last}",
            names.get(p.entrant, p.entrant),
        )
        for p in layout.placements
    )
    champion = names.get(state.champion or "", "") if state.champion else ""
    cut = ""
    if stage.cut:
        total = stage.cut["size"] + len(stage.cut.get("out", []))
        cut = gettext("Top {size} of {total} after the qualifying rounds").format(
            size=stage.cut["size"], total=total
        )
    return BracketPage(
        event_name=event.name,
        kind=stage.kind,
        kind_title=gettext(stage.get_kind_display()).split(":")[0].strip(),
        draw_rule=gettext(stage.get_draw_rule_display()),
        sections=sections,
        placements=placements,
        complete=layout.complete,
        champion=champion,
        cut=cut,
        revision=Event.objects.filter(pk=event.pk).values_list("revision", flat=True).first() or 0,
        widest_column=layout.widest_column,
        rounds=max((len(s.columns) for s in layout.sections), default=0),
    )


# --------------------------------------------------------------------------- the desk's form

SEEDING_MANUAL = BracketStage.Seeding.MANUAL
SETTINGS_DEFAULTS = {
    "seeding": BracketStage.Seeding.STANDINGS,
    "draw_rule": BracketStage.DrawRule.HIGHER_SEED,
}


def entrant_ids_named(*, event: Event, text: str) -> list[int]:
    """Entrants named one per line (or by id), in the order given; unknown names refused."""
    by_name = {name.casefold(): pk for pk, name in event.entrants.values_list("pk", "name")}
    ids = []
    for line in text.splitlines():
        wanted = line.strip()
        if not wanted:
            continue
        if wanted.isdigit():
            ids.append(int(wanted))
        elif wanted.casefold() in by_name:
            ids.append(by_name[wanted.casefold()])
        else:
            raise TournamentError.single(N_("{name} is not entered"), field="order", name=wanted)
    return ids


def bracket_desk_choices(*, event: Event) -> dict[str, Any]:
    """What the desk's bracket form offers: the kinds, seedings and draw rules, the entrants
    still playing (for a manual order) and whether qualifying rounds were played."""
    return {
        "kinds": BracketStage.Kind.choices,
        "seedings": BracketStage.Seeding.choices,
        "draw_rules": BracketStage.DrawRule.choices,
        "entrants": list(event.entrants.filter(dropped=False).order_by("name")),
        "has_rounds": event.rounds.exists(),
    }


# --------------------------------------------------------------------------- the wall
# The bracket on a projector: slides of at most WALL_COLUMNS columns, each column as many
# matches as one screen's height holds in type read from the back of the hall; a round
# longer than that is split over several columns. The sizes are in the wall's unit (a
# hundredth of a 16:9 screen's height, static/css/bracket_wall.css) and kept in step with
# the stylesheet: a match is its head, its seats and the gap below it.

WALL_COLUMNS = 3
WALL_COLUMN_HEIGHT = 82.0  # what a column's matches have under the column's title
WALL_MATCH_HEAD = 2.8
WALL_SEAT = 3.6
WALL_MATCH_GAP = 1.4  # the gap below a match, its border included
WALL_PLACES_BESIDE = 18  # places the panel beside the bracket holds
WALL_PLACES_COLUMN = 21  # places a column of a places slide holds
WALL_REST_BETWEEN_NOW = 3  # slides of the whole bracket shown between two "now playing"


@dataclass(frozen=True)
class WallColumn:
    section: str  # "Winners' bracket"
    title: str  # "Semifinals", "Round 2"
    part: str  # "1-7 of 32" (its matches) when the round is split over columns, else ""
    matches: tuple[PageMatch, ...]

    @property
    def playing(self) -> bool:
        return any(match.status == Status.READY for match in self.matches)


@dataclass(frozen=True)
class WallSlide:
    key: str  # the same slide keeps its key across the live updates: "now-1", "bracket-3"
    label: str  # "Now playing", "Winners' bracket", "Places 22-64"
    now: bool
    columns: tuple[WallColumn, ...] = ()
    places: tuple[tuple[PagePlace, ...], ...] = ()  # a places slide's columns


@dataclass(frozen=True)
class BracketWall:
    page: BracketPage
    slides: tuple[WallSlide, ...]
    places: tuple[PagePlace, ...]  # beside the bracket on every slide
    more_places: int  # the places shown on slides of their own
    playing: int  # matches being played
    rest_between_now: int = WALL_REST_BETWEEN_NOW


def wall_match_height(match: LayoutMatch) -> float:
    return WALL_MATCH_HEAD + WALL_SEAT * len(match.seats) + WALL_MATCH_GAP


def _wall_chunks(section: str, title: str, matches: Sequence[PageMatch]) -> list[WallColumn]:
    """A round as columns that each fit the screen's height, split as evenly as it goes."""
    if not matches:
        return []
    tallest = max(wall_match_height(match) for match in matches)
    per_column = max(1, int(WALL_COLUMN_HEIGHT // tallest))
    count = -(-len(matches) // per_column)
    size = -(-len(matches) // count)
    columns = []
    for start in range(0, len(matches), size):
        part = matches[start : start + size]
        label = ""
        if count > 1:
            label = f"{start + 1}\N{EN DASH}{start + len(part)} of {len(matches)}"
        columns.append(WallColumn(section, title, label, tuple(part)))
    return columns


def _wall_slides(prefix: str, label: str | None, columns: Sequence[WallColumn]) -> list[WallSlide]:
    slides = []
    for index, start in enumerate(range(0, len(columns), WALL_COLUMNS), start=1):
        shown = tuple(columns[start : start + WALL_COLUMNS])
        sections = list(dict.fromkeys(column.section for column in shown))
        slides.append(
            WallSlide(
                key=f"{prefix}-{index}",
                label=label or " \N{MIDDLE DOT} ".join(sections),
                now=prefix == "now",
                columns=shown,
            )
        )
    return slides


def bracket_wall(page: BracketPage) -> BracketWall:
    """The bracket as slides for a projector: first the matches being played ("now
    playing"), then every round of every section in reading order, then the places that
    do not fit beside the bracket. Every match is on a slide of the whole bracket."""
    now: list[WallColumn] = []
    every: list[WallColumn] = []
    for section in page.sections:
        for column in section.columns:
            every += _wall_chunks(section.title, column.title, column.matches)
            playing = [m for m in column.matches if m.status == Status.READY]
            now += _wall_chunks(section.title, column.title, playing)
    slides = _wall_slides("now", gettext("Now playing"), now) + _wall_slides("bracket", None, every)
    beside = page.placements
    more: tuple[PagePlace, ...] = ()
    if len(beside) > WALL_PLACES_BESIDE:
        beside, more = beside[: WALL_PLACES_BESIDE - 1], beside[WALL_PLACES_BESIDE - 1 :]
    per_slide = WALL_PLACES_COLUMN * WALL_COLUMNS
    for index, start in enumerate(range(0, len(more), per_slide), start=1):
        shown = more[start : start + per_slide]
        slides.append(
            WallSlide(
                key=f"places-{index}",
                label=gettext("Places {first}–{last}").format(  # noqa: RUF001 (a range)
                    first=shown[0].places.split("-")[0], last=shown[-1].places.split("-")[-1]
                ),
                now=False,
                places=tuple(
                    shown[i : i + WALL_PLACES_COLUMN]
                    for i in range(0, len(shown), WALL_PLACES_COLUMN)
                ),
            )
        )
    return BracketWall(
        page=page,
        slides=tuple(slides),
        places=beside,
        more_places=len(more),
        playing=sum(1 for column in now for _ in column.matches),
    )


def bracket_wall_for(*, event: Event) -> BracketWall | None:
    """The event's bracket as the wall shows it; None before there is one."""
    page = bracket_for(event=event)
    return None if page is None else bracket_wall(page)
