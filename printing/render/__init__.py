"""Printable sheets: plain dataclasses in, PDF bytes out (reportlab).

Nothing here reads the database, a request or a game's rules. A source of sheets
(``printing.scoresheets``) builds ``Sheet`` values; ``layout`` plans where everything
goes, ``draw`` puts the plan on paper and checks it against the printable area,
``fonts`` embeds the one font that prints every Latin name. Pages other than a
scoresheet lay themselves out the same way, one plan drawing and checking them:
``cards`` (a card that stands on a table) and ``lists`` (rows under headings).
"""

from printing.render.cards import Card, CardLine
from printing.render.document import (
    Printable,
    SelfLaidOut,
    fit_problems,
    plain_pages,
    render,
    render_one,
)
from printing.render.fonts import FontMissing, font_paths
from printing.render.layout import plan
from printing.render.lists import ListColumn, Listing
from printing.render.paper import PAPER_NAMES, PAPER_SIZES, normalise_paper
from printing.render.sheet import Column, ColumnGroup, Row, SeatLine, Sheet

__all__ = [
    "PAPER_NAMES",
    "PAPER_SIZES",
    "Card",
    "CardLine",
    "Column",
    "ColumnGroup",
    "FontMissing",
    "ListColumn",
    "Listing",
    "Printable",
    "Row",
    "SeatLine",
    "SelfLaidOut",
    "Sheet",
    "fit_problems",
    "font_paths",
    "normalise_paper",
    "plain_pages",
    "plan",
    "render",
    "render_one",
]
