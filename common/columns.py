"""The printed column: how one column of a sheet's round table looks.

Plain data, no Django: the games state their sheets' columns with it (scoring) and the
renderer draws them (printing/render/, which imports nothing else of the project).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """One printed column of the round table."""

    heading: str  # short; a newline splits it over two lines
    width: float = 30.0  # the least width in points; wider when the page has room
    align: str = "center"  # "left", "center" or "right"
    total: bool = False  # a running total: bold on a shaded ground
    number: bool = True  # numbers are never shortened; names may be
    guide: str = ""  # faint text in empty rows, a hint for the pen ("+" between two dice)
