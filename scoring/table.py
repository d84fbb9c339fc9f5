"""What the table page shows, built from a game and the engine's score (reads only).

The engine's output speaks in seats; people read teams, names, "Ann deals",
"Team B wins". These helpers turn one into the other for the templates:
scoreboard rows, the rounds with their inputs and deltas, a preview of a round
before it is saved, the audit trail.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.engines.base import FieldSpec, InvalidRecord, Problem, is_int
from scoring.engines.rummoli import SECTION_NAMES
from scoring.forms import RED_SECTIONS, SECTION_SHORT, SeatInfo, and_list
from scoring.models import Game, Round, RoundEvent
from scoring.selectors import game_record, game_score

# The Rummoli board as it is laid out on the table: three by three, the rummoli in the centre.
RUMMOLI_LAYOUT: tuple[tuple[str, str, str], ...] = (
    ("ten_spades", "jack_diamonds", "queen_clubs"),
    ("king_hearts", "rummoli", "ace_spades"),
    ("ace_king_diamonds", "poker", "seven_eight_nine"),
)
ROUND_WORD = {"roolz": "Round", "roller_derby": "Deal", "rook_sluff": "Deal", "rummoli": "Hand"}


def round_word(game: Game) -> str:
    return ROUND_WORD.get(game.kind, "Round")


def seat_infos(game: Game) -> list[SeatInfo]:
    return [SeatInfo(s.number, s.name, s.team) for s in game.seats.order_by("number")]


def signed(number: int) -> str:
    if number > 0:
        return f"+{number}"
    return "\N{PLUS-MINUS SIGN}0" if number == 0 else f"\N{MINUS SIGN}{-number}"


def number_text(number: int) -> str:
    """A total as printed: a negative one with a true minus sign, as the changes have."""
    return f"\N{MINUS SIGN}{-number}" if number < 0 else str(number)


@dataclass
class Group:
    """A team, or a player where scores are kept individually."""

    key: str
    title: str
    seats: list[int]
    names: list[str]

    @property
    def members(self) -> str:
        return and_list(self.names)


def score_cells(
    groups: Sequence[Group], deltas: Sequence[int], totals: Sequence[int]
) -> list[dict[str, Any]]:
    """One cell per team or player: the change and the total, as shown."""
    return [
        {
            "title": g.title,
            "delta": deltas[g.seats[0]],
            "signed": signed(deltas[g.seats[0]]),
            "total": totals[g.seats[0]],
            "total_text": number_text(totals[g.seats[0]]),
        }
        for g in groups
    ]


def groups_of(score: Mapping[str, Any], seats: Sequence[SeatInfo]) -> list[Group]:
    teams = score.get("teams") or {}
    if teams:
        return [
            Group(label, f"Team {label}", list(members), [seats[s].name for s in members])
            for label, members in teams.items()
        ]
    return [Group(str(s.number), s.name, [s.number], [s.name]) for s in seats]


# --------------------------------------------------------------------------- the scoreboard


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
    def people(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "name": name, "markers": self.markers.get(seat, [])}
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
    board: list[list[dict[str, Any]]] | None = None
    board_total: int = 0
    can_end_early: bool = False
    gap: int = 0
    # Rounds still waiting for confirmation once the game is over: the result waits for them.
    waiting: list[int] = field(default_factory=list)


def scoreboard(game: Game, score: Mapping[str, Any], seats: Sequence[SeatInfo]) -> Scoreboard:
    groups = groups_of(score, seats)
    totals = score.get("totals") or [0] * len(seats)
    rounds = score.get("rounds") or []
    # After an ending (early finish, leftovers) the last round's change is not the last change.
    last = rounds[-1]["deltas"] if rounds and not game.ending else None
    upcoming = score.get("next") or {}
    finished = bool(score.get("finished"))
    waiting = (
        list(
            game.rounds.filter(status=Round.Status.PENDING)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if finished and game.pk
        else []
    )
    winners = set(score.get("winners") or [])
    out = set(score.get("out") or [])
    dealer = upcoming.get("dealer") if not finished else None
    roller = upcoming.get("roller") if not finished else None
    standings: list[Standing] = []
    for group in groups:
        markers: dict[int, list[str]] = {}
        for seat in group.seats:
            marks = []
            if seat == dealer:
                marks.append("deals")
            if seat == roller:
                marks.append("rolls")
            if seat in out:
                marks.append("out")
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
    word = round_word(game)
    result = result_text(score, groups) if finished else ""
    if waiting:
        result = result_waiting(result, word, waiting)
    board = Scoreboard(
        standings=standings,
        facts=facts_for(game, score, seats),
        dealer=dealer,
        finished=finished,
        result=result,
        number=len(rounds) + 1,
        word=word,
        waiting=waiting,
    )
    if game.kind == "rummoli":
        sections = score.get("board") or {}
        board.board = [
            [
                {
                    "key": key,
                    "short": SECTION_SHORT[key],
                    "name": SECTION_NAMES[key],
                    "chips": sections.get(key, 0),
                    "red": key in RED_SECTIONS,
                }
                for key in row
            ]
            for row in RUMMOLI_LAYOUT
        ]
        board.board_total = sum(sections.values())
    if score.get("can_end_early") and not finished:
        board.can_end_early = True
        team_totals = [s.total for s in standings]
        board.gap = max(team_totals) - min(team_totals) if team_totals else 0
    return board


def facts_for(game: Game, score: Mapping[str, Any], seats: Sequence[SeatInfo]) -> list[str]:
    """Short lines about where the game stands: deals left, the roller, the target."""
    options = score.get("options") or game.options
    upcoming = score.get("next") or {}
    if score.get("finished"):
        return []
    facts: list[str] = []
    name = {s.number: s.name for s in seats}
    if game.kind == "roolz":
        facts.append(f"Target {options.get('target', 1000)}")
        facts.append(f"Bids from {upcoming.get('min_bid', 170)}")
    elif game.kind == "roller_derby":
        roller = upcoming.get("roller")
        if roller is not None:
            facts.append(f"{name[roller]} rolls for team {upcoming.get('roller_team')}")
        left = upcoming.get("deals_left")
        if left is not None:
            facts.append(f"{left} deal{'s' if left != 1 else ''} left")
        used = upcoming.get("all_or_nothing_used") or {}
        spent = [team for team, flag in used.items() if flag]
        if spent:
            facts.append("All or nothing used by " + " and ".join(f"team {t}" for t in spent))
    elif game.kind == "rook_sluff":
        left = upcoming.get("deals_left")
        if left is not None:
            facts.append(f"{left} deal{'s' if left != 1 else ''} left")
        facts.append(f"{upcoming.get('tricks', 14)} tricks a deal")
    elif game.kind == "rummoli":
        out = upcoming.get("out") or []
        if out:
            facts.append("Out: " + ", ".join(name[s] for s in out))
    return facts


def result_text(score: Mapping[str, Any], groups: Sequence[Group]) -> str:
    winners = set(score.get("winners") or [])
    won = [g for g in groups if set(g.seats) <= winners]
    if not won:
        return "The game is over."
    if len(won) > 1:
        return "A draw: " + " and ".join(g.title for g in won) + "."
    group = won[0]
    if group.title.startswith("Team "):
        return f"{group.title} wins ({group.members})."
    return f"{group.title} wins."


def result_waiting(result: str, word: str, numbers: Sequence[int]) -> str:
    """ "Eve wins once round 3 is confirmed.": the result while rounds wait for confirmation."""
    many = len(numbers) > 1
    rounds = f"{word.lower()}{'s' if many else ''} {and_list([str(n) for n in numbers])}"
    condition = f"once {rounds} {'are' if many else 'is'} confirmed"
    if not result or result == "The game is over.":
        return f"The game ends {condition}."
    return f"{result.rstrip('.')} {condition}."


# --------------------------------------------------------------------------- rounds


@dataclass
class RoundRow:
    number: int
    dealer: str
    summary: str
    cells: list[dict[str, Any]]
    status: str
    entered_by: str
    confirmed_by: str
    corrected: bool
    entry: dict[str, Any]
    details: list[str]
    warnings: list[str]
    inputs: list[dict[str, str]] = field(default_factory=list)

    @property
    def pending(self) -> bool:
        return self.status == Round.Status.PENDING

    @property
    def entry_json(self) -> str:
        """The entry as shown, sent back with a confirmation so a changed round is not confirmed."""
        return json.dumps(self.entry, sort_keys=True, ensure_ascii=False)


def table_for(game: Game):
    """The engine's Table for this game (names, options, teams), for round summaries."""
    return game.engine.table_for(game_record(game, []).with_extras({}))


def round_rows(
    game: Game,
    score: Mapping[str, Any],
    seats: Sequence[SeatInfo],
    rounds: Sequence[Round],
    *,
    last: int | None = None,
    with_inputs: bool = False,
) -> list[RoundRow]:
    groups = groups_of(score, seats)
    scored = score.get("rounds") or []
    table = table_for(game)
    name = {s.number: s.name for s in seats}
    rows: list[RoundRow] = []
    chosen = list(rounds)[-last:] if last else list(rounds)
    for round_ in chosen:
        index = round_.number - 1
        result = scored[index] if index < len(scored) else {}
        deltas = result.get("deltas") or [0] * len(seats)
        totals = result.get("totals") or [0] * len(seats)
        cells = score_cells(groups, deltas, totals)
        details: list[str] = []
        if "roller" in result:
            details.append(f"{name.get(result['roller'], '?')} rolled {result.get('target')}")
        rows.append(
            RoundRow(
                number=round_.number,
                dealer=name.get(result.get("dealer"), ""),
                summary=game.engine.round_summary(table, round_.entry) or "",
                cells=cells,
                status=round_.status,
                entered_by=name.get(round_.entered_by_seat, ""),
                confirmed_by=name.get(round_.confirmed_by_seat, ""),
                corrected=round_.corrected,
                entry=round_.entry,
                details=details,
                warnings=list(result.get("warnings") or []),
                inputs=entry_inputs(game, round_.entry, seats) if with_inputs else [],
            )
        )
    return rows


@dataclass
class EndRow:
    """How a game was ended (the leftovers given out, an early finish) and the final totals."""

    text: str
    cells: list[dict[str, Any]]


def end_row(game: Game, score: Mapping[str, Any], seats: Sequence[SeatInfo]) -> EndRow | None:
    if not game.ending:
        return None
    totals = score.get("totals") or [0] * len(seats)
    rounds = score.get("rounds") or []
    before = (rounds[-1].get("totals") if rounds else None) or totals
    deltas = [after - earlier for after, earlier in zip(totals, before, strict=True)]
    end = game.ending.get("end")
    if isinstance(end, Mapping) and is_int(end.get("leftovers_to")):
        seat = end["leftovers_to"]
        name = seats[seat].name if 0 <= seat < len(seats) else "?"
        chips = deltas[seat] if 0 <= seat < len(deltas) else 0
        text = f"{chips} chip{'s' if chips != 1 else ''} to {name}"
    elif game.ending.get("ended_early"):
        text = "ended early, before the final deal"
    else:
        text = "the game was ended"
    cells = score_cells(groups_of(score, seats), deltas, totals)
    return EndRow(text=text, cells=cells)


def context_before(game: Game, number: int, score: Mapping[str, Any] | None = None) -> dict:
    """The engine's view of the table right before round ``number``: dealer, roller, chips."""
    score = score if score is not None else game_score(game)
    recorded = len(score.get("rounds") or [])
    if number == recorded + 1 and not game.ending:
        return dict(score.get("next") or {})
    record = game_record(game).with_extras({})
    earlier = record.with_rounds(record.rounds[: number - 1])
    return game.engine.score(earlier).as_dict()["next"]


def entry_heading(game: Game, upcoming: Mapping[str, Any], seats: Sequence[SeatInfo]) -> str:
    """The line above a round form: who deals, who rolls, how many tricks."""
    name = {s.number: s.name for s in seats}
    parts: list[str] = []
    dealer = upcoming.get("dealer")
    if dealer in name:
        parts.append(f"{name[dealer]} deals")
    roller = upcoming.get("roller")
    if game.kind == "roller_derby" and roller in name:
        parts.append(f"{name[roller]} rolls for team {upcoming.get('roller_team')}")
    if game.kind == "rook_sluff" and upcoming.get("tricks"):
        parts.append(f"{upcoming['tricks']} tricks")
    return " · ".join(parts)


# --------------------------------------------------------------------------- preview


@dataclass
class Preview:
    ok: bool
    number: int
    summary: str = ""
    problems: list[str] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    result: str = ""
    board: list[list[dict[str, Any]]] | None = None


def round_preview(
    game: Game, entry: Mapping[str, Any], *, number: int, correcting: bool = False
) -> tuple[Preview, list[Problem]]:
    """Score ``entry`` as round ``number`` (appended, or replacing it in a correction)."""
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
                    f"This would make {round_word(game).lower()} {problem.round} invalid: "
                    f"{problem.message}"
                )
            else:
                preview.problems.append(problem.message)
        return preview, problems
    data = scored.as_dict()
    seats = seat_infos(game)
    result = data["rounds"][number - 1]
    groups = groups_of(data, seats)
    preview.ok = True
    preview.summary = game.engine.round_summary(table_for(game), entry)
    preview.changes = [
        {
            "title": g.title,
            "members": g.members,
            "delta": result["deltas"][g.seats[0]],
            "signed": signed(result["deltas"][g.seats[0]]),
            "total": result["totals"][g.seats[0]],
            "total_text": number_text(result["totals"][g.seats[0]]),
        }
        for g in groups
    ]
    preview.warnings = list(result.get("warnings") or [])
    if data.get("finished") and (not correcting or number == len(record.rounds)):
        preview.result = "Saving this ends the game: " + result_text(data, groups)
    if "board" in result:
        sections = result["board"]
        preview.board = [
            [{"short": SECTION_SHORT[k], "chips": sections.get(k, 0)} for k in row]
            for row in RUMMOLI_LAYOUT
        ]
    return preview, []


# --------------------------------------------------------------------------- inputs


def entry_inputs(game: Game, entry: Mapping[str, Any], seats: Sequence[SeatInfo]) -> list:
    """Each input of a round as "label: value" lines, read through the engine's fields."""
    name = {s.number: s.name for s in seats}
    specs = game.engine.round_fields(len(seats), game.options)
    lines: list[dict[str, str]] = []
    for spec in specs:
        if spec.name not in entry:
            continue
        text = input_text(spec, entry[spec.name], name)
        if text:
            lines.append({"label": spec.label, "text": text})
    return lines


def input_text(spec: FieldSpec, value: Any, name: Mapping[int, str]) -> str:
    def who(seat: Any) -> str:
        return name.get(seat, "?") if is_int(seat) else "?"

    kind = spec.kind
    if value is None:
        return "none" if kind == "seat" else ""
    if kind == "seat":
        return who(value)
    if kind == "seats":
        return ", ".join(who(s) for s in value) if isinstance(value, list) and value else "none"
    if kind == "bool":
        return "yes" if value is True else "no"
    if kind == "per_seat" and isinstance(value, list):
        return ", ".join(f"{who(seat)} {item}" for seat, item in enumerate(value))
    if kind == "per_side" and isinstance(value, Mapping):
        return ", ".join(f"{key} {item}" for key, item in value.items())
    if kind == "dice" and isinstance(value, list):
        return " + ".join(str(item) for item in value)
    if kind == "penalties" and isinstance(value, list):
        parts = []
        for item in value:
            if isinstance(item, Mapping):
                reason = f" ({item['reason']})" if item.get("reason") else ""
                parts.append(
                    f"{who(item.get('player'))} \N{MINUS SIGN}{item.get('points')}{reason}"
                )
        return ", ".join(parts)
    if kind == "object" and isinstance(value, Mapping):
        parts_by_name = {part.name: part for part in spec.parts}
        parts = []
        for key, item in value.items():
            part = parts_by_name.get(key)
            if part is None:
                continue
            text = input_text(part, item, name)
            parts.append(
                f"{part.label.lower()} {text}" if part.kind != "bool" else part.label.lower()
            )
        return "; ".join(parts)
    return str(value)


# --------------------------------------------------------------------------- audit


def entry_text(game: Game, entry: Any) -> str:
    if not isinstance(entry, Mapping):
        return ""
    try:
        return game.engine.round_summary(table_for(game), entry) or ""
    except (InvalidRecord, KeyError, TypeError, ValueError, IndexError):
        return ""


def audit_rows(game: Game, seats: Sequence[SeatInfo]) -> list[dict[str, Any]]:
    name = {s.number: s.name for s in seats}
    rows = []
    for event in game.events.order_by("at", "pk"):
        text = ""
        if event.action in {RoundEvent.Action.RECORD, RoundEvent.Action.CORRECT}:
            text = entry_text(game, event.after)
        if event.action == RoundEvent.Action.END and isinstance(event.after, Mapping):
            if event.after.get("ended_early"):
                text = "ended early, before the final deal"
            end = event.after.get("end")
            if isinstance(end, Mapping) and is_int(end.get("leftovers_to")):
                text = f"leftovers to {name.get(end['leftovers_to'], '?')}"
        if event.action == RoundEvent.Action.REOPEN and isinstance(event.before, Mapping):
            if event.before.get("ended_early"):
                text = "the early finish was taken back"
            elif event.before.get("end"):
                text = "the leftovers were taken back"
        rows.append(
            {
                "at": event.at,
                "action": event.get_action_display(),
                "number": event.round_number,
                "who": name.get(event.seat, "") if event.seat is not None else "",
                "before": entry_text(game, event.before)
                if event.action == RoundEvent.Action.CORRECT
                else "",
                "text": text,
            }
        )
    return rows
