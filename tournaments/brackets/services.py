"""An event's bracket stage: every change (one service each, atomic, audited) and its reads.

The pure core (``tournaments.brackets.core``) holds the rules; this module loads a
stage's stored inputs into a core bracket, asks it what happened, and saves the new inputs,
the scoring games of the matches that are ready, and an ``EventLog`` row.

Changes:

- ``stage_create``: an elimination of the event's entrants (or of those given): two-team
  single or double elimination, or table elimination; seeded from the standings, at
  random or by hand; the draw rule for level tables chosen now, before any play.
- ``stage_cut``: a two-stage event's cut: the top N of the qualifying standings go on.
- ``bracket_game_changed``: called by the tournament hook after any change to a
  tournament game; a finished (and confirmed) match game reports its finish, the
  winners advance, and the next matches' games are created with their table links.
- ``bracket_override``: the director decides a match's finish, with a reason (audited).

Reads: ``bracket_for(event=)`` -> ``BracketPage``, the layout with names and table links.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.db import transaction

from scoring.engines.base import Problem
from scoring.engines.registry import ENGINES
from scoring.models import Game, Round
from scoring.services import Actor, GameChangeError, game_create
from tournaments.brackets.core import (
    Bracket,
    BracketLayout,
    BracketState,
    BracketUserError,
    DrawRule,
    EliminationBracket,
    Format,
    GrandFinal,
    MatchView,
    Override,
    Result,
    Seeding,
    Status,
    TableBracket,
    TableRules,
    bracket_layout,
    cut_to_top,
    double_elimination,
    override_advancement,
    report_result,
    seed_field,
    single_elimination,
    table_elimination,
)
from tournaments.brackets.core.layout import LayoutColumn, LayoutMatch, LayoutSeat, LayoutSection
from tournaments.errors import TournamentError
from tournaments.models import (
    BracketGame,
    BracketStage,
    Entrant,
    Event,
    TableSeat,
    TournamentRound,
)
from tournaments.seasons.core.balance import seed_order
from tournaments.seasons.rated_seating import entrant_strength
from tournaments.seating import adapter as seating
from tournaments.services.change import bump, event_locked_open, event_log, options_at
from tournaments.standings import adapter as results
from tournaments.standings.core import InvalidResults
from tournaments.standings.core.results import places_from_totals

Finish = tuple[tuple[str, ...], ...]


# --------------------------------------------------------------------------- small helpers


def _refused(error: BracketUserError, names: Mapping[str, str] | None = None) -> TournamentError:
    """The core's refusal as the director reads it: the match it is about, then why;
    entrant ids listed after its last colon (the core knows only ids) as the players'
    names."""
    where = f"{error.match}: " if error.match else ""
    message = error.message
    head, colon, listed = message.rpartition(": ")
    if names and colon:
        ids = [part.strip() for part in listed.split(",")]
        if ids and all(i in names for i in ids):
            named = sorted((names[i] for i in ids), key=str.casefold)
            message = head + colon + ", ".join(named)
    return TournamentError([Problem(where + message, None, error.field)])


def _qualifying_waiting(event: Event) -> list[str]:
    """Tables of the qualifying rounds not done yet (and drafts), in words."""
    waiting = [
        f"round {row.round_number} table {row.table_number}"
        for row in results.table_rows(event)
        if not row.finished or row.pending
    ]
    if event.rounds.filter(status=TournamentRound.Status.DRAFT).exists():
        waiting.append("a draft round")
    return waiting


def _standings_ids(event: Event) -> list[int]:
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
            rules=_table_rules(options),
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


def _table_rules(options: Mapping[str, Any]) -> TableRules:
    return TableRules(
        table_size=int(options["table_size"]),
        advance=int(options["advance"]),
        legal_sizes=tuple(int(size) for size in options["legal_sizes"]),
        final_table_size=options.get("final_table_size"),
    )


def _store(stage: BracketStage, bracket: Bracket) -> None:
    stage.results = [
        {"match": r.match, "finish": [list(group) for group in r.finish]} for r in bracket.results
    ]
    stage.overrides = [
        {"match": o.match, "finish": [list(group) for group in o.finish], "reason": o.reason}
        for o in bracket.overrides
    ]
    stage.save(update_fields=["results", "overrides"])


# --------------------------------------------------------------------------- creating a stage


def _playing_entrants(event: Event) -> list[Entrant]:
    entrants = list(event.entrants.filter(dropped=False).order_by("pk"))
    if any(e.checked_in for e in entrants):
        entrants = [e for e in entrants if e.checked_in]
    return entrants


def _two_team_seats(event: Event, members: int) -> list[Problem]:
    """Problems when two entrants of ``members`` each cannot sit as the two sides of a table."""
    size = 2 * max(1, members)
    policy = seating.table_policy(event.game, options=event.options)
    title = ENGINES[event.game].title
    if size not in policy.legal_sizes:
        return [Problem(f"{title} is not played by {size} at a table", None, "kind")]
    sides = policy.sides.get(size)
    wanted = {tuple(range(t, size, 2)) for t in range(2)}
    if members <= 1:
        if sides:
            return [
                Problem(f"{title} at {size} is played in teams: enter fixed teams", None, "kind")
            ]
        return []
    if not sides or {tuple(sorted(s)) for s in sides} != wanted:
        return [Problem(f"{title} at {size} is not played as two sides of {members}", None, "kind")]
    return []


def _history(event: Event, ids: set[int]) -> list[list[str]]:
    """Pairs of these entrants who shared a table in the published rounds."""
    tables: dict[int, set[int]] = {}
    for table_id, entrant_id in TableSeat.objects.filter(
        table__round__event=event, table__round__status=TournamentRound.Status.PUBLISHED
    ).values_list("table_id", "entrant_id"):
        if entrant_id in ids:
            tables.setdefault(table_id, set()).add(entrant_id)
    pairs = {pair for seated in tables.values() for pair in combinations(sorted(seated), 2)}
    return [[str(a), str(b)] for a, b in sorted(pairs)]


def stage_create(
    *,
    event: Event,
    kind: str,
    seeding: str = BracketStage.Seeding.STANDINGS,
    draw_rule: str = BracketStage.DrawRule.HIGHER_SEED,
    order: Sequence[int] | None = None,
    entrants: Sequence[int] | None = None,
    third_place: bool = False,
    grand_final: str = GrandFinal.RESET,
    table_size: int | None = None,
    advance: int = 1,
    final_table_size: int | None = None,
    placement_tables: bool = False,
    seed: int | None = None,
    user: Any = None,
    cut: Mapping[str, Any] | None = None,
) -> BracketStage:
    """The event's bracket, its first matches' games created, ready to play.

    ``entrants`` (ids) defaults to everyone still playing; ``order`` is the director's seed
    order (ids, best first) for seeding by hand. The standings seeding takes the
    qualifying standings when there were rounds, else the order of registration.
    """
    with transaction.atomic():
        event = event_locked_open(event)
        if BracketStage.objects.filter(event=event).exists():
            raise TournamentError.single("this event already has its bracket", field="kind")
        problems: list[Problem] = []
        if kind not in BracketStage.Kind.values:
            problems.append(
                Problem(f"kind must be one of {', '.join(BracketStage.Kind.values)}", None, "kind")
            )
        if seeding not in BracketStage.Seeding.values:
            problems.append(
                Problem(
                    f"seeding must be one of {', '.join(BracketStage.Seeding.values)}",
                    None,
                    "seeding",
                )
            )
        if draw_rule not in BracketStage.DrawRule.values:
            problems.append(
                Problem(
                    f"the draw rule must be one of {', '.join(BracketStage.DrawRule.values)}",
                    None,
                    "draw_rule",
                )
            )
        if grand_final not in GrandFinal.__members__.values():
            problems.append(
                Problem("the grand final is none, single or reset", None, "grand_final")
            )
        if problems:
            raise TournamentError(problems)
        pool = _playing_entrants(event)
        by_id = {e.pk: e for e in event.entrants.all()}
        if entrants is not None:
            unknown = [i for i in entrants if i not in by_id]
            if unknown:
                raise TournamentError.single(
                    f"not entered in this event: {', '.join(map(str, unknown))}", field="entrants"
                )
            pool = [by_id[i] for i in entrants]
        if len(pool) < 2:
            raise TournamentError.single("a bracket needs at least two entrants", field="entrants")
        ids = [e.pk for e in pool]
        if seeding == BracketStage.Seeding.STANDINGS and event.rounds.exists():
            standing = {entrant_id: place for place, entrant_id in enumerate(_standings_ids(event))}
            ids.sort(key=lambda i: standing.get(i, len(standing)))
        if seeding == BracketStage.Seeding.RATING:  # by rating: the order as given
            ids = seed_order(ids, entrant_strength(event))
        stage_seed = event.seed if seed is None else seed
        try:
            seeds = seed_field(
                [str(i) for i in ids],
                Seeding(seeding) if seeding != BracketStage.Seeding.RATING else Seeding.STANDINGS,
                seed=stage_seed,
                order=[str(i) for i in order] if order is not None else None,
            )
        except BracketUserError as error:
            raise _refused(error) from None
        members = {len(e.members) for e in pool}
        options: dict[str, Any]
        history: list[list[str]] = []
        if kind == BracketStage.Kind.TABLES:
            if any(members - {0}):
                raise TournamentError.single(
                    "table elimination is for players on their own, not fixed teams", field="kind"
                )
            policy = seating.table_policy(event.game, options=event.options)
            options = {
                "table_size": table_size or policy.preferred,
                "advance": advance,
                "final_table_size": final_table_size,
                "placement_tables": placement_tables,
                "legal_sizes": list(policy.legal_sizes),
            }
            history = _history(event, set(ids))
            try:
                bracket: Bracket = table_elimination(
                    seeds,
                    _table_rules(options),
                    placement_tables=placement_tables,
                    draw_rule=DrawRule(draw_rule),
                    seed=stage_seed,
                    history=[(a, b) for a, b in history],
                )
            except BracketUserError as error:
                raise _refused(error) from None
        else:
            if len(members) != 1:
                raise TournamentError.single(
                    "every entrant of a two-team bracket must be a team of as many players",
                    field="entrants",
                )
            if problems := _two_team_seats(event, members.pop()):
                raise TournamentError(problems)
            options = {"third_place": third_place, "grand_final": grand_final}
            try:
                if kind == BracketStage.Kind.SINGLE:
                    bracket = single_elimination(
                        seeds,
                        third_place=third_place,
                        draw_rule=DrawRule(draw_rule),
                        seed=stage_seed,
                    )
                else:
                    bracket = double_elimination(
                        seeds,
                        grand_final=GrandFinal(grand_final),
                        draw_rule=DrawRule(draw_rule),
                        seed=stage_seed,
                    )
            except BracketUserError as error:
                raise _refused(error) from None
        stage = BracketStage.objects.create(
            event=event,
            kind=kind,
            seeding=seeding,
            draw_rule=draw_rule,
            seeds=list(bracket.seeds),
            options=options,
            seed=stage_seed,
            history=history,
            cut=dict(cut or {}),
        )
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status", "updated_at"])
        event_log(
            event,
            "bracket_create",
            user,
            after={
                "kind": kind,
                "seeding": seeding,
                "draw_rule": draw_rule,
                "seeds": list(bracket.seeds),
                "options": options,
                "cut": stage.cut,
            },
        )
        _advance(stage, user=user)
        bump(event)
    return stage


def stage_cut(
    *, event: Event, size: int, kind: str, user: Any = None, **settings: Any
) -> BracketStage:
    """A two-stage event's cut: the top ``size`` of the qualifying standings go on to the
    bracket, seeded in standings order (``settings`` as ``stage_create`` takes them)."""
    if not event.rounds.filter(status=TournamentRound.Status.PUBLISHED).exists():
        raise TournamentError.single("a cut follows qualifying rounds: play one first", field="cut")
    waiting = _qualifying_waiting(event)
    if waiting:
        raise TournamentError.single(
            "the cut waits for every qualifying table: " + ", ".join(waiting), field="cut"
        )
    order = [i for i in _standings_ids(event) if i in {e.pk for e in _playing_entrants(event)}]
    try:
        chosen = cut_to_top([str(i) for i in order], int(size))
    except BracketUserError as error:
        raise _refused(error) from None
    except (TypeError, ValueError):
        raise TournamentError.single("the cut is a number of entrants", field="cut") from None
    settings.setdefault("seeding", BracketStage.Seeding.STANDINGS)
    return stage_create(
        event=event,
        kind=kind,
        entrants=[int(i) for i in chosen.qualified],
        user=user,
        cut={"size": int(size), "out": [int(i) for i in chosen.out]},
        **settings,
    )


# --------------------------------------------------------------------------- advancing


def _current_games(stage: BracketStage) -> dict[str, BracketGame]:
    latest: dict[str, BracketGame] = {}
    for row in stage.games.select_related("game").order_by("match", "attempt"):
        latest[row.match] = row
    return latest


def game_finish(row: BracketGame) -> Finish | None:
    """The finish a match's game reports (entrant ids grouped by place), or None while the
    game is not finished or a round still waits for its confirmation."""
    game = row.game
    if game.status != Game.Status.FINISHED:
        return None
    if Round.objects.filter(game=game, status=Round.Status.PENDING).exists():
        return None
    score = game.score_cache or {}
    totals = score.get("totals") or []
    if len(totals) != len(row.seats):
        return None
    places = places_from_totals(totals, score.get("winners") or (), score.get("teams") or {})
    best: dict[str, int] = {}
    for entrant_id, place in zip(row.seats, places, strict=True):
        key = str(entrant_id)
        best[key] = min(place, best.get(key, place))
    groups: dict[int, list[str]] = {}
    for key, place in best.items():
        groups.setdefault(place, []).append(key)
    return tuple(tuple(groups[place]) for place in sorted(groups))


def _seat_order(entrants: Sequence[Entrant]) -> list[tuple[Entrant, int]]:
    """Who sits in which seat: sides alternate round the table (team A on seats 1, 3 ...)."""
    most = max(max(1, len(e.members)) for e in entrants)
    if len(entrants) == 2 and most > 1:
        return [(entrants[seat % 2], seat // 2) for seat in range(2 * most)]
    return [(e, 0) for e in entrants]


def _create_game(
    stage: BracketStage, event: Event, match: str, entrants: list[Entrant], attempt: int, user: Any
) -> BracketGame:
    seated = _seat_order(entrants)
    names = [e.members[m] if e.members else e.name for e, m in seated]
    record = {
        "game": event.game,
        "players": names,
        "options": options_at(event.game, event.options, len(names)),
        "first_dealer": 0,
        "rounds": [],
    }
    try:
        created = game_create(
            record=record,
            actor=Actor(user=user, device="bracket"),
            confirmation=event.confirmation,
            is_tournament_game=True,
        )
    except GameChangeError as error:
        raise TournamentError(
            [Problem(f"{match}: {p.message}", p.round, p.field) for p in error.problems]
        ) from None
    return BracketGame.objects.create(
        stage=stage,
        match=match,
        attempt=attempt,
        game=created.game,
        seats=[e.pk for e, _ in seated],
    )


def _advance(stage: BracketStage, *, user: Any = None) -> BracketState:
    """Report every finished match game, then create the games of the matches now ready.

    Runs inside the caller's transaction, with the event locked.
    """
    event = stage.event
    bracket = core_bracket(stage)
    current = _current_games(stage)
    changed = False
    replays: list[str] = []
    for _ in range(len(bracket.seeds) * 2 + 4):  # a round's results can make the next ready
        state = bracket.state()
        reported_any = False
        for view in state.matches:
            row = current.get(view.id)
            if row is None or view.status not in (Status.READY, Status.DONE):
                continue
            if view.override is not None:
                continue  # the director decided this match: its game no longer counts
            if sorted(map(str, set(row.seats))) != sorted(view.entrants):
                continue  # a game seated before a correction: recreated below
            finish = game_finish(row)
            if finish is None:
                continue
            if view.reported is not None and _same_finish(view.reported, finish):
                continue
            correction = view.reported is not None
            try:
                bracket = report_result(bracket, Result(view.id, finish), correction=correction)
            except BracketUserError as error:
                if "plays again" in error.message and view.reported is None:
                    replays.append(view.id)
                    continue
                event_log(
                    event,
                    "bracket_result_refused",
                    user,
                    after={
                        "match": view.id,
                        "finish": [list(g) for g in finish],
                        "why": str(error),
                    },
                )
                continue
            event_log(
                event,
                "bracket_result_corrected" if correction else "bracket_result",
                user,
                before={"match": view.id, "finish": [list(g) for g in view.reported]}
                if view.reported
                else None,
                after={"match": view.id, "game": row.game_id, "finish": [list(g) for g in finish]},
            )
            changed = reported_any = True
        if not reported_any:
            break
    if changed:
        _store(stage, bracket)
    state = bracket.state()
    entrants = {str(e.pk): e for e in event.entrants.all()}
    for view in state.matches:
        if view.status is not Status.READY or view.override is not None:
            continue
        row = current.get(view.id)
        if view.id in replays and row is not None:
            new = _create_game(
                stage, event, view.id, [entrants[n] for n in view.entrants], row.attempt + 1, user
            )
            event_log(
                event,
                "bracket_replay",
                user,
                after={"match": view.id, "game": new.game_id, "attempt": new.attempt},
            )
            continue
        if row is not None:
            if sorted(map(str, set(row.seats))) == sorted(view.entrants):
                continue
            if row.game.rounds.exists():
                continue  # played already: the director settles it with an override
            old = row.game
            row.delete()
            old.delete()
        new = _create_game(stage, event, view.id, [entrants[n] for n in view.entrants], 1, user)
        event_log(event, "bracket_game_create", user, after={"match": view.id, "game": new.game_id})
        changed = True
    if changed or replays:
        bump(event)
    return state


def _same_finish(a: Finish, b: Finish) -> bool:
    return [sorted(group) for group in a] == [sorted(group) for group in b]


def bracket_game_changed(*, game_id: int) -> None:
    """A tournament game changed: when it is a bracket match's game, advance the bracket."""
    stage_id = (
        BracketGame.objects.filter(game_id=game_id).values_list("stage_id", flat=True).first()
    )
    if stage_id is None:
        return
    with transaction.atomic():
        stage = BracketStage.objects.select_related("event").get(pk=stage_id)
        event = Event.objects.select_for_update().get(pk=stage.event_id)
        stage = BracketStage.objects.select_for_update().select_related("event").get(pk=stage_id)
        if event.status == Event.Status.CLOSED:
            return
        bump(event)
        _advance(stage)


def stage_advance(*, event: Event, user: Any = None) -> BracketState:
    """Read every match game again and advance (the desk's "check the tables" button)."""
    with transaction.atomic():
        event = event_locked_open(event)
        stage = _stage_of(event, lock=True)
        return _advance(stage, user=user)


def _stage_of(event: Event, *, lock: bool = False) -> BracketStage:
    rows = BracketStage.objects.select_related("event")
    if lock:
        rows = rows.select_for_update()
    stage = rows.filter(event=event).first()
    if stage is None:
        raise TournamentError.single("this event has no bracket yet", field="kind")
    return stage


def bracket_override(
    *, event: Event, match: str, finish: Sequence[int | str], reason: str, user: Any = None
) -> BracketStage:
    """The director decides who goes on from ``match``: ``finish`` ranks every entrant at
    the table (ids, best first); the reason is required and kept, and the change is
    logged with the finish it replaced."""
    with transaction.atomic():
        event = event_locked_open(event)
        stage = _stage_of(event, lock=True)
        bracket = core_bracket(stage)
        try:
            before = bracket.state().match(match)
            changed = override_advancement(
                bracket,
                Override(
                    match=match,
                    finish=tuple((str(name),) for name in finish),
                    reason=reason,
                ),
            )
        except BracketUserError as error:
            names = {str(pk): name for pk, name in event.entrants.values_list("pk", "name")}
            raise _refused(error, names) from None
        _store(stage, changed)
        # The match's games are the desk's now: the table can no longer change them itself.
        Game.objects.filter(bracket_game__stage=stage, bracket_game__match=match).update(
            closed_by_desk=True
        )
        event_log(
            event,
            "bracket_override",
            user,
            before={
                "match": match,
                "finish": list(before.finish),
                "reported": [list(g) for g in before.reported] if before.reported else None,
                "override": before.override.reason if before.override else None,
            },
            after={
                "match": match,
                "finish": [str(name) for name in finish],
                "reason": reason.strip(),
            },
        )
        _advance(stage, user=user)
        bump(event)
    return stage


# --------------------------------------------------------------------------- reads


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
        suffix = (
            "th"
            if 10 <= self.place % 100 <= 20
            else {1: "st", 2: "nd", 3: "rd"}.get(self.place % 10, "th")
        )
        return f"{self.place}{suffix}"


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
        return PageSeat(entrant=None, seed=None, label=seat.label, advanced=False)
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
    totals = (row.game.score_cache or {}).get("totals") or []
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
        title=f"{'Match' if two_team else 'Table'} {match.id}",
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
    games = _current_games(stage)
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
            section.title,
            tuple(
                LayoutColumn(
                    column.round,
                    column.title,
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
        cut = f"Top {stage.cut['size']} of {total} after the qualifying rounds"
    return BracketPage(
        event_name=event.name,
        kind=stage.kind,
        kind_title=stage.get_kind_display().split(":")[0],
        draw_rule=stage.get_draw_rule_display(),
        sections=sections,
        placements=placements,
        complete=layout.complete,
        champion=champion,
        cut=cut,
        revision=Event.objects.filter(pk=event.pk).values_list("revision", flat=True).first() or 0,
        widest_column=layout.widest_column,
        rounds=max((len(s.columns) for s in layout.sections), default=0),
    )


__all__ = [
    "BracketPage",
    "TournamentError",
    "bracket_for",
    "bracket_game_changed",
    "bracket_override",
    "core_bracket",
    "game_finish",
    "stage_advance",
    "stage_create",
    "stage_cut",
]
