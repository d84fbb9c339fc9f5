"""What a game's printed sheet is made of, as plain data: columns, cells, reminders.

Each game states its printed columns in ``scoring/games/<game>/printed.py`` with
the types and shared columns here; ``scoring.games.printed.printed_for`` finds
them by the engine's key. The printing app turns them into sheets and PDFs; this
module imports nothing of printing, so scoring never depends on it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, pgettext

from common.columns import Column
from scoring.engines.base import Engine, FieldSpec, OptionSpec, RoundResult, is_int

# A cell's text from the round as entered and as the engine scored it.
CellValue = Callable[[Mapping[str, Any], RoundResult], str]


@dataclass(frozen=True)
class RoundMarks:
    """What the database knows about a round beyond its input."""

    corrected: bool = False
    pending: bool = False
    confirmed_by: int | None = None


@dataclass(frozen=True)
class PrintedColumn:
    """A printed column and how to read its cell from a round."""

    spec: Column
    value: CellValue
    group: str = ""  # columns side by side with the same group and note share a heading
    note: str = ""


@dataclass(frozen=True)
class SheetContext:
    """One sheet's game, table and options: what the column builders read."""

    engine: Engine
    players: int
    names: tuple[str, ...] | None  # None: a blank sheet
    options: Mapping[str, Any]
    teams: Mapping[str, list[int]]
    fields: tuple[FieldSpec, ...]
    marks: Mapping[int, RoundMarks] = field(default_factory=dict)

    @property
    def blank(self) -> bool:
        return self.names is None

    def field(self, name: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.name == name), None)

    def name(self, seat: Any) -> str:
        if not is_int(seat) or not 0 <= seat < self.players:
            return ""
        if self.names is None:
            return gettext("Seat {seat}").format(seat=seat + 1)
        return self.names[seat]

    def members(self, seats: Sequence[int]) -> str:
        if self.names is None:
            return gettext("seats {seats}").format(seats=and_words([str(s + 1) for s in seats]))
        return and_words([self.names[s] for s in seats])

    def team_of(self, seat: int) -> str:
        return next((label for label, seats in self.teams.items() if seat in seats), "")


OptionWords = Callable[[OptionSpec, Any, SheetContext], "str | None"]


@dataclass(frozen=True)
class PrintedGame:
    """Everything a game's sheet says that is the game's own."""

    columns: Callable[[SheetContext], list[PrintedColumn]]
    reminder: Callable[[SheetContext], list[str]]  # "How it scores"
    blank_rows: Callable[[SheetContext], int]
    fill_page: bool  # a blank sheet: more empty rows down to the foot of the page
    unit: str = "points"
    round_noun: str = "round"  # what the result line calls a round: "deal", "hand"
    # The subtitle of a game scored seat by seat (a game of teams lists its teams).
    individual_subtitle: str = "scores kept individually"
    # An open blank sheet (options to tick): a heavier rule after this many rows (0: none).
    short_game_rows: int = 0
    # Options an open blank sheet assumes, so that it leaves room for the inputs they add.
    open_sheet_options: Mapping[str, Any] = field(default_factory=dict)
    # Options that change who plays with whom, and so the columns: each has sheets of its own.
    shape_options: frozenset[str] = frozenset()
    # Blank sheets of those shapes, by player count.
    variants: Mapping[int, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)
    # An option's value in words where the plain words would mislead (None: the plain words).
    option_words: OptionWords | None = None


# --------------------------------------------------------------------------- cell words


def heading(text: str) -> str:
    """A printed column's heading (an engine's ``FieldSpec.column``) in the reader's
    language: the sheet's headings take their words in a context of their own ("Won", a
    column of points, is not a winner's badge). A heading written here is marked with
    ``pgettext("a printed column", ...)`` itself, the context written out (the catalogue's
    tools read only a literal)."""
    return pgettext("a printed column", text)


def and_words(words: Sequence[str]) -> str:
    """Ann & Cat; Ann, Cat & Eve."""
    if len(words) <= 2:
        return " & ".join(words)
    return ", ".join(words[:-1]) + " & " + words[-1]


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else str(number)


def penalty_total(entry: Mapping[str, Any]) -> str:
    penalties = entry.get("penalties") or []
    points = sum(p.get("points", 0) for p in penalties if isinstance(p, Mapping))
    return f"-{points}" if points else ""


def seat_number(seat: Any) -> str:
    return str(seat + 1) if is_int(seat) else ""


def tick(value: Any) -> str:
    return "✓" if value is True else ""


# --------------------------------------------------------------------------- shared columns


def dealer_column(ctx: SheetContext, width: float = 44.0) -> PrintedColumn:
    return PrintedColumn(
        Column(pgettext("a printed column", "Dealer"), width, align="left", number=False),
        lambda entry, result: ctx.name(result.dealer),
    )


def delta_of(seat: int) -> CellValue:
    """A seat's (or its team's) points in the round, signed."""
    return lambda entry, result: signed(result.deltas[seat])


def total_of(seat: int) -> CellValue:
    """A seat's (or its team's) running total after the round."""
    return lambda entry, result: str(result.totals[seat])


def score_columns(ctx: SheetContext) -> list[PrintedColumn]:
    """A delta and a running total for every team, or for every player."""
    cols: list[PrintedColumn] = []
    sides = (
        [
            (gettext("Team {label}").format(label=label), ctx.members(seats), seats[0])
            for label, seats in ctx.teams.items()
        ]
        if ctx.teams
        else [(ctx.name(seat), "", seat) for seat in range(ctx.players)]
    )
    for title, note, seat in sides:
        cols.append(
            PrintedColumn(
                Column("+/-", 28.0, align="right"),
                delta_of(seat),
                title,
                note,
            )
        )
        cols.append(
            PrintedColumn(
                Column(pgettext("a printed column", "Total"), 34.0, align="right", total=True),
                total_of(seat),
                title,
                note,
            )
        )
    return cols


def initials_column(ctx: SheetContext, width: float = 34.0) -> PrintedColumn:
    def value(entry: Mapping[str, Any], result: RoundResult) -> str:
        marks = ctx.marks.get(result.number, RoundMarks())
        if marks.pending:
            return gettext("pending")
        if marks.confirmed_by is not None:
            return ctx.name(marks.confirmed_by)
        return ""

    return PrintedColumn(Column(initials_heading(), width, align="left", number=False), value)


def initials_heading() -> str:
    """The heading of the column where each round is initialled, in the reader's language."""
    return pgettext("a printed column", "Initials")


def penalty_columns(ctx: SheetContext, width: float = 26.0) -> list[PrintedColumn]:
    spec = ctx.field("penalties")
    if spec is None or not spec.column:
        return []
    return [
        PrintedColumn(
            Column(heading(spec.column), width, align="right"), lambda e, r: penalty_total(e)
        )
    ]
