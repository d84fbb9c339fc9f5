"""A scoresheet as plain data: what one sheet prints, already in words and numbers.

The printing app (and any other source of sheets) builds these; the layout and the
drawing read them. Nothing here knows a game, a database or a request.
"""

from __future__ import annotations

from dataclasses import dataclass

from common.columns import Column


@dataclass(frozen=True)
class ColumnGroup:
    """Columns under one heading (a team, a player, "Won"); an empty title: no heading."""

    columns: tuple[Column, ...]
    title: str = ""
    note: str = ""  # a second, lighter line under the title ("Ann & Cat")


@dataclass(frozen=True)
class Row:
    """One round as printed; ``cells`` holds one text per column ((): a blank row)."""

    label: str
    cells: tuple[str, ...] = ()
    corrected: bool = False
    rule_after: bool = False  # a heavier rule below (the end of a short game)


@dataclass(frozen=True)
class SeatLine:
    """A seat in the header: its label, the name ("" on a blank sheet) and its team."""

    label: str
    name: str = ""
    team: str = ""


@dataclass(frozen=True)
class Sheet:
    """Everything one scoresheet prints, already in words and numbers."""

    title: str
    subtitle: str = ""
    meta: tuple[tuple[str, str], ...] = ()  # (label, value); "" value: a line to write on
    seats: tuple[SeatLine, ...] = ()
    options_title: str = "Options in force"
    options: tuple[str, ...] = ()
    groups: tuple[ColumnGroup, ...] = ()
    label_heading: str = "#"
    rows: tuple[Row, ...] = ()
    blank_rows: int = 0  # a blank sheet: at least this many empty rows
    fill_page: bool = False  # a blank sheet: more empty rows down to the foot of the page
    short_game_rows: int = 0  # a heavier rule after this many rows (0: none)
    totals: Row | None = None
    result: str = ""
    notes: tuple[str, ...] = ()
    reminder_title: str = "How it scores"
    reminder: tuple[str, ...] = ()
    signatures_title: str = "Signatures"
    signatures: tuple[str, ...] = ()
    footer: str = "Tablescore"
    blank: bool = False  # a sheet for pen and paper: empty rows, lines to write on

    @property
    def columns(self) -> tuple[Column, ...]:
        return tuple(column for group in self.groups for column in group.columns)
