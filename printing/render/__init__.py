"""Printable sheets: plain dataclasses in, PDF bytes out (reportlab).

Nothing here reads the database, a request or a game's rules. A source of sheets
(``printing.scoresheets``, and later the tournament's table cards and brackets)
builds ``Sheet`` values; ``layout`` plans where everything goes, ``draw`` puts the
plan on paper and checks it against the printable area, ``fonts`` embeds the one
font that prints every Latin name.
"""

from printing.render.draw import fit_problems, plain_pages, render, render_one
from printing.render.fonts import FontMissing, font_paths
from printing.render.layout import plan
from printing.render.paper import PAPER_NAMES, PAPER_SIZES, normalise_paper
from printing.render.sheet import Column, ColumnGroup, Row, SeatLine, Sheet

__all__ = [
    "PAPER_NAMES",
    "PAPER_SIZES",
    "Column",
    "ColumnGroup",
    "FontMissing",
    "Row",
    "SeatLine",
    "Sheet",
    "fit_problems",
    "font_paths",
    "normalise_paper",
    "plain_pages",
    "plan",
    "render",
    "render_one",
]
