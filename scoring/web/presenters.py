"""What the table pages show, built from a game and the engine's typed score (reads only).

The engine's output speaks in seats; people read teams, names, "Ann deals",
"Team B wins". These presenters turn one into the other for the templates:
scoreboard rows, the rounds with their inputs and deltas, a preview of a round
before it is saved, the audit trail. Whatever is odd to one game comes from its kit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.engines.base import (
    AT_TOTALS,
    Engine,
    GameRecord,
    InvalidRecord,
    Problem,
    RoundResult,
    ScoredGame,
    Table,
    is_int,
)
from scoring.entry.fields import (
    KINDS,
    PerSide,
    SeatInfo,
    and_list,
    humanize,
    input_text,
)
from scoring.games import kit_for
from scoring.games.kit import Board, Kit, option_words
from scoring.models import Game, Round, RoundEvent
from scoring.selectors import game_record, game_score
from scoring.web.scores import ShownRound
from scoring.wording import problem_text, said, said_word, said_words, words


def seat_infos(game: Game) -> list[SeatInfo]:
    """The seats in order with their names and teams.

    Read from the kept standing when it has them (its players and teams are written from
    the seats, as the seats' teams were written from the engine's teams when the game was
    made); from the seats otherwise."""
    standing = game.score_cache
    players = standing.get("players") if isinstance(standing, dict) else None
    teams = standing.get("teams") if isinstance(standing, dict) else None
    if isinstance(players, list) and isinstance(teams, dict):
        team_of: dict[int, str] = {}
        for label, members in teams.items():
            for seat in members:
                team_of.setdefault(seat, label)
        return [SeatInfo(n, name, team_of.get(n, "")) for n, name in enumerate(players)]
    return [SeatInfo(s.number, s.name, s.team) for s in game.seats.order_by("number")]


def names_of(seats: Sequence[SeatInfo]) -> dict[int, str]:
    return {s.number: s.name for s in seats}


def _seat_name(names: Mapping[int, str], seat: int | None) -> str:
    """The name of the seat that did something, "" when none is recorded."""
    return "" if seat is None else names.get(seat, "")


def signed(number: int) -> str:
    if number > 0:
        return f"+{number}"
    return "\N{PLUS-MINUS SIGN}0" if number == 0 else f"\N{MINUS SIGN}{-number}"


def number_text(number: int) -> str:
    """A total as printed: a negative one with a true minus sign, as the changes have."""
    return f"\N{MINUS SIGN}{-number}" if number < 0 else str(number)


@dataclass(frozen=True)
class Group:
    """A team, or a player where scores are kept individually."""

    key: str
    title: str
    seats: list[int]
    names: list[str]

    @property
    def members(self) -> str:
        return and_list(self.names)


@dataclass(frozen=True)
class ScoreCell:
    """One team's or player's change and total, as shown."""

    title: str
    delta: int
    total: int
    members: str = ""

    @property
    def signed(self) -> str:
        return signed(self.delta)

    @property
    def total_text(self) -> str:
        return number_text(self.total)


def score_cells(
    groups: Sequence[Group], deltas: Sequence[int], totals: Sequence[int]
) -> list[ScoreCell]:
    return [ScoreCell(g.title, deltas[g.seats[0]], totals[g.seats[0]], g.members) for g in groups]


def groups_of(score: ScoredGame, seats: Sequence[SeatInfo]) -> list[Group]:
    if score.teams:
        return [
            Group(
                label,
                gettext("Team %(team)s") % {"team": label},
                list(members),
                [seats[s].name for s in members],
            )
            for label, members in score.teams.items()
        ]
    return [Group(str(s.number), s.name, [s.number], [s.name]) for s in seats]


# --------------------------------------------------------------------------- the scoreboard


@dataclass(frozen=True)
class Person:
    seat: int
    name: str
    markers: list[str]


@dataclass
class Standing:
    group: Group
    total: int
    last: int | None
    leader: bool = False
    winner: bool = False
    out: bool = False
    markers: dict[int, list[str]] = field(default_factory=dict)

    @property
    def last_signed(self) -> str:
        return "" if self.last is None else signed(self.last)

    @property
    def total_text(self) -> str:
        return number_text(self.total)

    @property
    def people(self) -> list[Person]:
        return [
            Person(seat, name, self.markers.get(seat, []))
            for seat, name in zip(self.group.seats, self.group.names, strict=True)
        ]


@dataclass
class Scoreboard:
    standings: list[Standing]
    facts: list[str]
    dealer: int | None
    finished: bool
    result: str
    number: int  # the number of the next round
    word: str
    board: Board | None = None
    can_end_early: bool = False
    gap: int = 0
    # Rounds still waiting for confirmation once the game is over: the result waits for them.
    waiting: list[int] = field(default_factory=list)


def scoreboard(game: Game, score: ScoredGame, seats: Sequence[SeatInfo]) -> Scoreboard:
    kit = kit_for(game.kind)
    groups = groups_of(score, seats)
    totals = score.totals or [0] * len(seats)
    rounds = score.rounds
    # After an ending (early finish, leftovers) the last round's change is not the last change.
    last = rounds[-1].deltas if rounds and not game.ending else None
    finished = score.finished
    waiting = (
        list(
            game.rounds.filter(status=Round.Status.PENDING)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if finished and game.pk
        else []
    )
    winners = set(score.winners)
    out = kit.out(score)
    dealer = score.upcoming.get("dealer") if not finished else None
    marked = kit.markers(score.upcoming) if not finished else {}
    standings: list[Standing] = []
    for group in groups:
        markers: dict[int, list[str]] = {}
        for seat in group.seats:
            marks = []
            if seat == dealer:
                marks.append(gettext("deals"))
            if seat in marked:
                marks.append(marked[seat])
            if seat in out:
                marks.append(gettext("out"))
            markers[seat] = marks
        standings.append(
            Standing(
                group=group,
                total=totals[group.seats[0]],
                last=last[group.seats[0]] if last else None,
                winner=finished and not waiting and set(group.seats) <= winners,
                out=all(seat in out for seat in group.seats),
                markers=markers,
            )
        )
    if standings and rounds and (waiting or not finished):
        best = max(s.total for s in standings)
        if sum(1 for s in standings if s.total == best) < len(standings):
            for standing in standings:
                standing.leader = standing.total == best
    result = result_text(score, groups) if finished else ""
    if waiting:
        result = result_waiting(score, groups, kit.word, waiting)
    board = Scoreboard(
        standings=standings,
        facts=[] if finished else kit.facts(score, names_of(seats)),
        dealer=dealer,
        finished=finished,
        result=result,
        number=len(rounds) + 1,
        word=kit.word,
        board=kit.board_of(score),
        waiting=waiting,
    )
    if kit.can_end_early(score) and not finished:
        board.can_end_early = True
        team_totals = [s.total for s in standings]
        board.gap = max(team_totals) - min(team_totals) if team_totals else 0
    return board


def winners_text(score: ScoredGame, groups: Sequence[Group]) -> str:
    """Who won, without a full stop ("Team A wins (Ann & Cy)", "A draw: Ann and Ben");
    "" when nobody is named."""
    winners = set(score.winners)
    won = [g for g in groups if set(g.seats) <= winners]
    if not won:
        return ""
    if len(won) > 1:
        titles = [g.title for g in won]
        return gettext("A draw: %(some)s and %(last)s") % {
            "some": ", ".join(titles[:-1]),
            "last": titles[-1],
        }
    group = won[0]
    if len(group.seats) > 1:
        return gettext("%(winner)s wins (%(members)s)") % {
            "winner": group.title,
            "members": group.members,
        }
    return gettext("%(winner)s wins") % {"winner": group.title}


def result_text(score: ScoredGame, groups: Sequence[Group]) -> str:
    winners = winners_text(score, groups)
    if not winners:
        return gettext("The game is over.")
    return gettext("%(winners)s.") % {"winners": winners}


def result_waiting(
    score: ScoredGame, groups: Sequence[Group], word: str, numbers: Sequence[int]
) -> str:
    """ "Eve wins once round 3 is confirmed.": the result while rounds wait for confirmation."""
    count = len(numbers)
    values = {
        "w": said_words(word, count),
        "numbers": and_list([str(n) for n in numbers]),
        "winners": winners_text(score, groups),
    }
    if not values["winners"]:
        return (
            ngettext(
                "The game ends once %(w)s %(numbers)s is confirmed.",
                "The game ends once %(w)s %(numbers)s are confirmed.",
                count,
            )
            % values
        )
    return (
        ngettext(
            "%(winners)s once %(w)s %(numbers)s is confirmed.",
            "%(winners)s once %(w)s %(numbers)s are confirmed.",
            count,
        )
        % values
    )


# --------------------------------------------------------------------------- rounds


@dataclass(frozen=True)
class InputLine:
    label: str
    text: str


@dataclass
class RoundRow:
    number: int
    dealer: str
    summary: str
    cells: list[ScoreCell]
    status: str
    entered_by: str
    confirmed_by: str
    corrected: bool
    entry: dict[str, Any]
    details: list[str]
    warnings: list[str]
    inputs: list[InputLine] = field(default_factory=list)

    @property
    def pending(self) -> bool:
        return self.status == Round.Status.PENDING

    @property
    def entry_json(self) -> str:
        """The entry as shown, sent back with a confirmation so a changed round is not confirmed."""
        return json.dumps(self.entry, sort_keys=True, ensure_ascii=False)


def table_for(game: Game) -> Table:
    """The engine's Table for this game (names, options, teams), for round summaries."""
    return game.engine.table_for(game_record(game, []).with_extras({}))


def table_from_seats(game: Game, seats: Sequence[SeatInfo]) -> Table:
    """The engine's Table for this game from seats already read (no second read of them)."""
    record = GameRecord(
        game=game.kind,
        players=tuple(seat.name for seat in seats),
        options=dict(game.options),
        rounds=(),
        first_dealer=game.first_dealer,
        extras={},
    )
    return game.engine.table_for(record)


def round_rows(
    game: Game,
    score: ScoredGame,
    seats: Sequence[SeatInfo],
    rounds: Sequence[Round | ShownRound],
    *,
    last: int | None = None,
    with_inputs: bool = False,
    table: Table | None = None,
) -> list[RoundRow]:
    """What a page shows of each of ``rounds`` (the last ``last`` of them, when given):
    its summary, score cells, status and who entered it. The rounds as plain data, for
    the API, are ``scoring.selectors.rounds_data``."""
    kit = kit_for(game.kind)
    groups = groups_of(score, seats)
    if table is None:
        table = table_for(game)
    name = names_of(seats)
    empty = [0] * len(seats)
    rows: list[RoundRow] = []
    chosen = list(rounds)[-last:] if last else list(rounds)
    for round_ in chosen:
        index = round_.number - 1
        result = score.rounds[index] if index < len(score.rounds) else None
        rows.append(
            RoundRow(
                number=round_.number,
                dealer=name.get(result.dealer, "") if result else "",
                summary=said(game.engine.round_summary(table, round_.entry) or ""),
                cells=score_cells(
                    groups, result.deltas if result else empty, result.totals if result else empty
                ),
                status=round_.status,
                entered_by=_seat_name(name, round_.entered_by_seat),
                confirmed_by=_seat_name(name, round_.confirmed_by_seat),
                corrected=round_.corrected,
                entry=round_.entry,
                details=kit.round_details(result, name) if result else [],
                warnings=[said(warning) for warning in result.warnings] if result else [],
                inputs=entry_inputs(game, round_.entry, seats) if with_inputs else [],
            )
        )
    return rows


@dataclass(frozen=True)
class EndRow:
    """How a game was ended (the leftovers given out, an early finish) and the final totals."""

    text: str
    cells: list[ScoreCell]


def end_row(game: Game, score: ScoredGame, seats: Sequence[SeatInfo]) -> EndRow | None:
    if not game.ending:
        return None
    totals = score.totals or [0] * len(seats)
    before = score.rounds[-1].totals if score.rounds else totals
    deltas = [after - earlier for after, earlier in zip(totals, before, strict=True)]
    end = game.ending.get("end")
    if isinstance(end, Mapping) and is_int(end.get("leftovers_to")):
        seat = end["leftovers_to"]
        name = seats[seat].name if 0 <= seat < len(seats) else "?"
        chips = deltas[seat] if 0 <= seat < len(deltas) else 0
        text = ngettext("%(count)s chip to %(name)s", "%(count)s chips to %(name)s", chips) % {
            "count": chips,
            "name": name,
        }
    elif game.ending.get("ended_early"):
        text = gettext("ended early, before the final deal")
    elif game.ending.get(AT_TOTALS):
        text = gettext("ended by the event's director at the totals standing")
    else:
        text = gettext("the game was ended")
    return EndRow(text=text, cells=score_cells(groups_of(score, seats), deltas, totals))


def context_before(game: Game, number: int, score: ScoredGame | None = None) -> dict[str, Any]:
    """The engine's view of the table right before round ``number``: dealer, roller, chips."""
    score = score if score is not None else game_score(game)
    if number == len(score.rounds) + 1 and not game.ending:
        return dict(score.upcoming)
    record = game_record(game).with_extras({})
    earlier = record.with_rounds(record.rounds[: number - 1])
    return dict(game.engine.score(earlier).upcoming)


def entry_heading(kit: Kit, upcoming: Mapping[str, Any], seats: Sequence[SeatInfo]) -> str:
    """The line above a round form: who deals, and what the game adds (who rolls, tricks)."""
    name = names_of(seats)
    parts: list[str] = []
    dealer = upcoming.get("dealer")
    if dealer in name:
        parts.append(gettext("%(name)s deals") % {"name": name[dealer]})
    parts += kit.heading(upcoming, name)
    return " · ".join(parts)


# --------------------------------------------------------------------------- preview


@dataclass
class Preview:
    ok: bool
    number: int
    summary: str = ""
    problems: list[str] = field(default_factory=list)
    changes: list[ScoreCell] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    result: str = ""
    board: Board | None = None


def round_preview(
    game: Game, entry: Mapping[str, Any], *, number: int, correcting: bool = False
) -> tuple[Preview, list[Problem]]:
    """Score ``entry`` as round ``number`` (appended, or replacing it in a correction)."""
    kit = kit_for(game.kind)
    record = game_record(game)
    if not correcting:
        number = len(record.rounds) + 1  # a new round always goes at the end
    preview = Preview(ok=False, number=number)
    try:
        if correcting:
            entries = list(record.rounds)
            entries[number - 1] = entry
            scored = game.engine.score(record.with_rounds(entries))
        else:
            scored = game.engine.check_round(record, entry)
    except InvalidRecord as invalid:
        problems = invalid.problems
        for problem in problems:
            if problem.round and problem.round > number:
                preview.problems.append(
                    gettext("This would make %(w)s %(number)s invalid: %(problem)s")
                    % {
                        "w": said_word(kit.word),
                        "number": problem.round,
                        "problem": problem_text(problem, seats_from=1),
                    }
                )
            else:
                preview.problems.append(problem_text(problem, seats_from=1))
        return preview, problems
    seats = seat_infos(game)
    result: RoundResult = scored.rounds[number - 1]
    groups = groups_of(scored, seats)
    preview.ok = True
    preview.summary = said(game.engine.round_summary(table_for(game), entry))
    preview.changes = score_cells(groups, result.deltas, result.totals)
    preview.warnings = [said(warning) for warning in result.warnings]
    if scored.finished and (not correcting or number == len(record.rounds)):
        preview.result = gettext("Saving this ends the game: %(result)s") % {
            "result": result_text(scored, groups)
        }
    preview.board = kit.round_board(result)
    return preview, []


def incomplete_preview(number: int, messages: list[str]) -> Preview:
    return Preview(ok=False, number=number, problems=messages)


# --------------------------------------------------------------------------- inputs


def entry_inputs(
    game: Game, entry: Mapping[str, Any], seats: Sequence[SeatInfo]
) -> list[InputLine]:
    """Each input of a round as "label: value" lines, read through the field kinds."""
    name = names_of(seats)
    sides = PerSide(side=kit_for(game.kind).side_name)
    lines: list[InputLine] = []
    for spec in game.engine.round_fields(len(seats), game.options):
        if spec.name not in entry:
            continue
        kind = sides if spec.kind == "per_side" else KINDS[spec.kind]
        text = input_text(kind, spec, entry[spec.name], name)
        if text:
            lines.append(InputLine(words(spec.label), text))
    return lines


# --------------------------------------------------------------------------- audit


@dataclass(frozen=True)
class AuditRow:
    at: datetime
    action: str
    number: int | None
    who: str
    before: str
    text: str
    reason: str = ""


def audit_who(event: RoundEvent, name: Mapping[int, str]) -> str:
    """Who made a change, as the audit shows it: the player proven by their own link
    ("Ann, by her own link"), or the seat the phone said it was."""
    if event.person:
        return gettext("%(name)s (own link)") % {"name": event.person}
    return name.get(event.seat, "") if event.seat is not None else ""


def entry_text(game: Game, entry: Any) -> str:
    if not isinstance(entry, Mapping):
        return ""
    try:
        return said(game.engine.round_summary(table_for(game), entry) or "")
    except (InvalidRecord, KeyError, TypeError, ValueError, IndexError):
        return ""


# What a change asked of the other side is, in words.
CHANGE_WORDS = {
    "undo": gettext_noop("undoing a round"),
    "end": gettext_noop("ending the game"),
    "reopen": gettext_noop("reopening the game"),
}


def change_words(kind: Any) -> str:
    return gettext(CHANGE_WORDS.get(str(kind), gettext_noop("the change")))


def audit_rows(game: Game, seats: Sequence[SeatInfo]) -> list[AuditRow]:
    name = names_of(seats)
    rows = []
    for event in game.events.order_by("at", "pk"):
        text = ""
        if event.action in {RoundEvent.Action.RECORD, RoundEvent.Action.CORRECT}:
            text = entry_text(game, event.after)
        if event.action == RoundEvent.Action.END and isinstance(event.after, Mapping):
            if event.after.get("ended_early"):
                text = gettext("ended early, before the final deal")
            end = event.after.get("end")
            if isinstance(end, Mapping) and is_int(end.get("leftovers_to")):
                text = gettext("leftovers to %(name)s") % {
                    "name": name.get(end["leftovers_to"], "?")
                }
            if event.after.get(AT_TOTALS):
                text = gettext("ended by the event's director at the totals standing")
        removing = {RoundEvent.Action.REMOVE, RoundEvent.Action.UNDO}
        if event.action in removing and isinstance(event.after, Mapping):
            removed = [n for n in event.after.get("removed") or [] if is_int(n)]
            if len(removed) > 1:
                text = gettext("%(ws)s %(first)s to %(last)s removed") % {
                    "ws": said_words(kit_for(game.kind).word),
                    "first": removed[0],
                    "last": removed[-1],
                }
            elif removed and event.action == RoundEvent.Action.REMOVE:
                text = gettext("the later deals moved up one")
        asked = {RoundEvent.Action.REQUEST, RoundEvent.Action.ACCEPT, RoundEvent.Action.DECLINE}
        if event.action in asked and isinstance(event.after, Mapping):
            text = change_words(event.after.get("kind"))
            if event.after.get("status") == "withdrawn":
                text = gettext("%(change)s: taken back") % {"change": text}
            elif event.after.get("status") == "lapsed":
                text = gettext("lapsed: the game had changed meanwhile")
        if event.action == RoundEvent.Action.REOPEN and isinstance(event.before, Mapping):
            if event.before.get("ended_early"):
                text = gettext("the early finish was taken back")
            elif event.before.get("end"):
                text = gettext("the leftovers were taken back")
        rows.append(
            AuditRow(
                at=event.at,
                action=event.get_action_display(),
                number=event.round_number,
                who=audit_who(event, name),
                before=entry_text(game, event.before)
                if event.action == RoundEvent.Action.CORRECT
                else "",
                text=text,
                reason=event.reason,
            )
        )
    return rows


def rules_settings(engine: Engine, options: Mapping[str, Any]) -> list[str]:
    """The options this table plays with, for the rules card: those away from the default
    first marked as such, then the scoring ones left as they are."""
    lines = []
    for spec in engine.option_specs():
        if spec.name not in options:
            continue
        value = options[spec.name]
        changed = value != spec.default
        if spec.play_only and not changed:
            continue
        said_value = option_words(humanize(value)) if isinstance(value, str) else humanize(value)
        values = {"label": option_words(spec.label), "value": said_value}
        if changed:
            lines.append(gettext("%(label)s: %(value)s (chosen for this table)") % values)
        else:
            lines.append(gettext("%(label)s: %(value)s") % values)
    return lines
