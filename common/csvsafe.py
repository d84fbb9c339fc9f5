"""CSV the product writes, safe to open in a spreadsheet (the OWASP rule, stated once).

A text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read
by spreadsheets as a formula: such a cell is written with a leading apostrophe, which
spreadsheets take as "this is text" and do not show, so a name keeps its text. Numbers
are written as numbers (a negative score stays a number). Every CSV writer of the
product goes through ``writer`` here.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def safe_cell(value: Any) -> Any:
    """A cell as written: text that a spreadsheet would run gets a leading apostrophe."""
    if isinstance(value, bool) or value is None or isinstance(value, int | float):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


class SafeWriter:
    """``csv.writer`` with every cell made safe."""

    def __init__(self, out: _Writable):
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: _Writable) -> SafeWriter:
    return SafeWriter(out)
