"""A list: rows under column headings, in one or more blocks side by side, over as many
pages as it takes (a seating list for the wall, a table of standings).

Rows are read down the first block, then down the next, like a newspaper. Names may
be condensed, set smaller or, last of all, shortened; a number never is: one that
does not fit is a problem of the plan. The plan (``Listing.layout``) both draws the
pages and states what does not fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from printing.render.fonts import BOLD, REGULAR, register_fonts
from printing.render.layout import MIN_NAME_SIZE, Box, fit_text, wrap
from printing.render.paper import MARGIN, PAPER_NAMES, PAPER_SIZES, normalise_paper
from printing.render.pen import GREEN, HAIRLINE, HEAD_FILL, INK, MUTED, RULE, TOTAL_FILL, Pen
from printing.render.words import N_, said

TITLE = 16.0
SUBTITLE = 9.0
SUBTITLE_LEADING = 11.5
CONTINUED = 24.0
FOOTER = 14.0
BLOCK_GAP = 16.0
PAD = 3.0


@dataclass(frozen=True)
class ListColumn:
    heading: str
    weight: float = 1.0  # the column's share of its block's width
    align: str = "left"  # "left", "center" or "right"
    number: bool = False  # never shortened
    bold: bool = False


@dataclass(frozen=True)
class Listing:
    """Everything a list prints, already in words."""

    title: str
    columns: tuple[ListColumn, ...]
    rows: tuple[tuple[str, ...], ...]
    subtitle: str = ""
    flow: int = 1  # the most blocks side by side on each page (fewer when names need room)
    size: float = 11.0  # the type of the rows
    footer: str = "Tablescore"
    empty: str = N_("Nothing to list yet.")

    def layout(self, paper: str) -> ListPlan:
        return plan_list(self, paper)


@dataclass
class ListPlan:
    listing: Listing
    paper: str
    page_width: float
    page_height: float
    frame: Box
    subtitle: list[str]
    header_height: float
    row_height: float
    heading_height: float
    headings: list[list[str]]
    block_width: float
    widths: list[float]
    pages: list[list[tuple[tuple[str, ...], ...]]]  # page -> block -> rows
    first_row: list[int]  # the index of each page's first row, for the zebra
    problems: list[str] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def draw_page(self, pen: Pen, index: int) -> None:
        _draw_page(pen, self, index)


def plan_list(listing: Listing, paper: str = "A4") -> ListPlan:
    register_fonts()
    paper = normalise_paper(paper)
    width, height = PAPER_SIZES[paper]
    frame = Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    problems: list[str] = []
    subtitle = wrap(listing.subtitle, REGULAR, SUBTITLE, frame.width) if listing.subtitle else []
    header = TITLE + 10.0 + len(subtitle) * SUBTITLE_LEADING + 6.0
    row_height = round(listing.size * 1.6, 1)
    flow = max(1, listing.flow)
    while flow > 1 and not _names_keep_their_size(listing, _widths(listing, frame, flow)[1]):
        flow -= 1  # fewer, wider blocks rather than names set small
    block_width, widths = _widths(listing, frame, flow)
    heading_size = listing.size * 0.8
    # A heading wider than its column goes over two lines ("Opponents' / strength").
    headings = [
        wrap(column.heading, BOLD, heading_size, col_width - 2 * PAD)
        for column, col_width in zip(listing.columns, widths, strict=True)
    ]
    heading_height = round(max([1, *map(len, headings)]) * heading_size * 1.2 + heading_size, 1)
    for column, col_width, lines in zip(listing.columns, widths, headings, strict=True):
        for line in lines:
            fitted = fit_text(line, BOLD, heading_size, col_width - 2 * PAD, may_cut=False)
            if fitted.width > col_width - 2 * PAD + 0.01:
                problems.append(f"{listing.title}: the heading {column.heading!r} does not fit")
    for row in listing.rows:
        for column, col_width, text in zip(listing.columns, widths, row, strict=False):
            if column.number and text:
                font = BOLD if column.bold else REGULAR
                fitted = fit_text(text, font, listing.size, col_width - 2 * PAD, may_cut=False)
                if fitted.width > col_width - 2 * PAD + 0.01:
                    problems.append(f"{listing.title}: {text!r} does not fit {column.heading!r}")

    def fits(first: bool) -> int:
        top = header if first else CONTINUED
        space = frame.height - top - FOOTER - heading_height
        return max(1, math.floor(space / row_height))

    pages: list[list[tuple[tuple[str, ...], ...]]] = []
    first_row: list[int] = []
    rows = list(listing.rows)
    index = 0
    while index < len(rows) or not pages:
        per_block = fits(not pages)
        left = len(rows) - index
        # The last page's blocks share its rows evenly rather than leaving the right one short.
        if left <= per_block * flow:
            per_block = max(1, math.ceil(left / flow))
        blocks = []
        first_row.append(index)
        for _ in range(flow):
            chunk = tuple(rows[index : index + per_block])
            if chunk:
                blocks.append(chunk)
            index += len(chunk)
        pages.append(blocks)
    return ListPlan(
        listing=listing,
        paper=paper,
        page_width=width,
        page_height=height,
        frame=frame,
        subtitle=subtitle,
        header_height=header,
        row_height=row_height,
        heading_height=heading_height,
        headings=headings,
        block_width=block_width,
        widths=widths,
        pages=pages,
        first_row=first_row,
        problems=problems,
    )


def _widths(listing: Listing, frame: Box, flow: int) -> tuple[float, list[float]]:
    block_width = (frame.width - BLOCK_GAP * (flow - 1)) / flow
    total_weight = sum(c.weight for c in listing.columns) or 1.0
    return block_width, [block_width * c.weight / total_weight for c in listing.columns]


def _names_keep_their_size(listing: Listing, widths: list[float]) -> bool:
    """Whether every text cell fits its column at the list's type size (condensed at most)."""
    for row in listing.rows:
        for column, width, text in zip(listing.columns, widths, row, strict=False):
            font = BOLD if column.bold else REGULAR
            if text and fit_text(text, font, listing.size, width - 2 * PAD).size < listing.size:
                return False
    return True


def _draw_page(pen: Pen, laid: ListPlan, index: int) -> None:
    listing = laid.listing
    frame = laid.frame
    top = frame.top
    if index == 0:
        title = fit_text(listing.title, BOLD, TITLE, frame.width)
        pen.fitted(frame.x, top - TITLE * 0.8, title, color=GREEN, limit=frame)
        y = top - TITLE - 8.0
        for line in laid.subtitle:
            fitted = fit_text(line, REGULAR, SUBTITLE, frame.width)
            pen.fitted(frame.x, y - SUBTITLE * 0.8, fitted, color=MUTED, limit=frame)
            y -= SUBTITLE_LEADING
        top -= laid.header_height
    else:
        title = fit_text(listing.title, BOLD, 11.0, frame.width * 0.7)
        pen.fitted(frame.x, top - 12.0, title, color=GREEN, limit=frame)
        pen.text(
            frame.right, top - 12.0, said(N_("continued")), REGULAR, 7.5, color=MUTED, align="right"
        )
        top -= CONTINUED
    blocks = laid.pages[index]
    if not blocks:
        pen.text(
            frame.x, top - listing.size, said(listing.empty), REGULAR, listing.size, color=MUTED
        )
    number = laid.first_row[index]
    for position, rows in enumerate(blocks):
        left = frame.x + position * (laid.block_width + BLOCK_GAP)
        _draw_block(pen, laid, left, top, rows, number)
        number += len(rows)
    where = (
        said(PAPER_NAMES[laid.paper])
        + " · "
        + said(N_("page {number} of {count}")).format(number=index + 1, count=laid.page_count)
    )
    pen.text(frame.x, frame.y + 2.0, listing.footer, REGULAR, 6.5, color=MUTED)
    pen.text(frame.right, frame.y + 2.0, where, REGULAR, 6.5, color=MUTED, align="right")


def _draw_block(
    pen: Pen, laid: ListPlan, left: float, top: float, rows: tuple[tuple[str, ...], ...], first: int
) -> None:
    listing = laid.listing
    c = pen.canvas
    size = listing.size
    heading_size = size * 0.8
    width = laid.block_width
    pen.fill(HEAD_FILL)
    c.rect(left, top - laid.heading_height, width, laid.heading_height, stroke=0, fill=1)
    x = left
    for column, col_width, lines in zip(listing.columns, laid.widths, laid.headings, strict=True):
        box = Box(x + PAD, top - laid.heading_height, col_width - 2 * PAD, laid.heading_height)
        # Bottom-aligned: one-line headings sit by the rows.
        base = box.y + heading_size * 0.7 + (len(lines) - 1) * heading_size * 1.2
        for line in lines:
            fitted = fit_text(line, BOLD, heading_size, box.width, may_cut=False)
            pen.fitted(_anchor(column.align, box), base, fitted, align=column.align, limit=box)
            base -= heading_size * 1.2
        x += col_width
    y = top - laid.heading_height
    for offset, row in enumerate(rows):
        bottom = y - laid.row_height
        if (first + offset) % 2:
            pen.fill(TOTAL_FILL)
            c.rect(left, bottom, width, laid.row_height, stroke=0, fill=1)
        base = bottom + laid.row_height / 2 - size * 0.33
        x = left
        for column, col_width, text in zip(listing.columns, laid.widths, row, strict=False):
            box = Box(x + PAD, bottom, col_width - 2 * PAD, laid.row_height)
            x += col_width
            if not text:
                continue
            font = BOLD if column.bold else REGULAR
            if column.number:
                fitted = fit_text(text, font, size, box.width, may_cut=False)
            else:
                fitted = fit_text(text, font, size, box.width, min_size=MIN_NAME_SIZE)
            pen.fitted(_anchor(column.align, box), base, fitted, align=column.align, limit=box)
        c.setStrokeColor(HAIRLINE)
        c.setLineWidth(0.5)
        c.line(left, bottom, left + width, bottom)
        y = bottom
    c.setStrokeColor(RULE)
    c.setLineWidth(0.8)
    c.line(left, top - laid.heading_height, left + width, top - laid.heading_height)
    c.setStrokeColor(INK)
    c.rect(left, y, width, top - y, stroke=1, fill=0)


def _anchor(align: str, box: Box) -> float:
    if align == "right":
        return box.right
    if align == "center":
        return box.x + box.width / 2
    return box.x
