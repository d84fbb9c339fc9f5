"""The layout plan of a sheet: where every column, row and line of text goes.

The plan is computed once (``plan``) and used both to draw the page and to check
that nothing falls outside the printable area (``printing.render.document.fit_problems``),
so the check and the page never disagree. Text that is too wide for its box is
first condensed, then set smaller, and only names are ever shortened with an
ellipsis; a number that cannot fit is a layout problem, never silently cut.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from reportlab.lib.pagesizes import landscape

from printing.render.fonts import BOLD, REGULAR, register_fonts, text_width
from printing.render.paper import MARGIN, PAPER_SIZES, normalise_paper
from printing.render.sheet import Column, ColumnGroup, Row, SeatLine, Sheet
from printing.render.words import N_, said

# Type sizes (points). Handwritten sheets get tall rows; printed values stay readable.
TITLE_SIZE = 16.0
SUBTITLE_SIZE = 8.5
BODY_SIZE = 7.5
BODY_LEADING = 9.6
GROUP_SIZE = 7.0
HEADING_SIZE = 7.0
CELL_SIZE = 8.0
LABEL_SIZE = 6.5
RESULT_SIZE = 10.5
SEAT_NAME_SIZE = 9.5  # a name written on a blank sheet's seat line
MIN_TEXT_SIZE = 5.5
MIN_NAME_SIZE = 6.5  # a name is shortened rather than set smaller than this
MIN_SCALE = 0.8  # condense text to 80 % of its width before setting it smaller
CELL_PAD = 1.6

FILLED_ROW = 13.0
BLANK_ROW_MAX = 24.0  # a sheet that fills its page with rows
BLANK_ROW_ROOMY = 28.0  # a sheet with a fixed number of rows and room to spare
BLANK_ROW_MIN = 16.0
HEADING_LINE = 7.8

CORRECTED_MARK = "*"
MAX_NOTE_LINES = 14  # below the table; a game with more notes says how many were left out


# --------------------------------------------------------------------------- fitting text


@dataclass(frozen=True)
class Fitted:
    """Text made to fit a width: perhaps condensed (scale < 1), smaller, or shortened."""

    text: str
    font: str
    size: float
    scale: float = 1.0
    cut: bool = False  # shortened with an ellipsis

    @property
    def width(self) -> float:
        return text_width(self.text, self.font, self.size) * self.scale


@lru_cache(maxsize=1 << 16)
def fit_text(
    text: str,
    font: str,
    size: float,
    width: float,
    *,
    may_cut: bool = True,
    min_size: float | None = None,
) -> Fitted:
    """Condense, then set smaller (down to ``min_size``), then, if allowed, shorten."""
    smallest = min(size, min_size if min_size is not None else MIN_TEXT_SIZE)
    natural = text_width(text, font, size)
    if natural <= width or not text:
        return Fitted(text, font, size)
    if natural * MIN_SCALE <= width:
        return Fitted(text, font, size, scale=width / natural)
    smaller = size
    while smaller > smallest:
        smaller = max(smallest, smaller - 0.5)
        natural = text_width(text, font, smaller)
        if natural * MIN_SCALE <= width:
            return Fitted(text, font, smaller, scale=min(1.0, width / natural))
    if not may_cut:
        return Fitted(text, font, smallest, scale=MIN_SCALE)  # reported by fit_problems
    shortened = text
    while shortened:
        shortened = shortened[:-1].rstrip()
        candidate = shortened + "…"
        natural = text_width(candidate, font, smallest)
        if natural * MIN_SCALE <= width:
            return Fitted(candidate, font, smallest, scale=min(1.0, width / natural), cut=True)
    return Fitted("", font, smallest, cut=True)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; a single word wider than the line is condensed when drawn."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if line and text_width(candidate, font, size) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def wrap_items(items: Sequence[str], font: str, size: float, width: float, lead: str) -> list[str]:
    """Items joined by wide gaps, wrapped so that no item is split across lines."""
    gap = "   "
    lines: list[str] = []
    line = lead
    for item in items:
        candidate = f"{line}{gap}{item}" if line else item
        if line and line != lead and text_width(candidate, font, size) > width:
            lines.append(line)
            line = item
        else:
            line = candidate if line != lead else f"{lead} {item}".strip()
    if line:
        lines.append(line)
    return lines


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Box:
    x: float
    y: float  # bottom
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height


@dataclass(frozen=True)
class PlacedColumn:
    column: Column
    x: float
    width: float
    first_of_group: bool


@dataclass(frozen=True)
class PlacedGroup:
    group: ColumnGroup
    x: float
    width: float


@dataclass(frozen=True)
class PagePlan:
    number: int
    rows: tuple[Row, ...]
    first: bool
    last: bool
    totals: bool
    tail: bool


@dataclass
class Plan:
    """Where everything of one sheet goes on the page."""

    sheet: Sheet
    paper: str
    page_width: float
    page_height: float
    is_landscape: bool
    frame: Box
    label_width: float
    columns: list[PlacedColumn]
    groups: list[PlacedGroup]
    header_lines: dict[str, list[str]]
    header_height: float
    continued_header_height: float
    group_height: float
    heading_height: float
    heading_lines: int
    row_height: float
    tail_blocks: list[tuple[str, list[str], float]]
    tail_height: float
    footer_height: float
    seat_columns: int
    pages: list[PagePlan] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def table_width(self) -> float:
        return self.label_width + sum(c.width for c in self.columns)


def _natural_width(sheet: Sheet, label_width: float) -> float:
    return label_width + sum(column.width for column in sheet.columns)


def _page(paper: str, is_landscape: bool) -> tuple[float, float]:
    size = PAPER_SIZES[paper]
    return landscape(size) if is_landscape else size


def _frame(width: float, height: float) -> Box:
    return Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)


def _place_columns(
    sheet: Sheet, frame: Box, label_width: float
) -> tuple[float, list[PlacedColumn], list[PlacedGroup]]:
    natural = _natural_width(sheet, label_width)
    # Spread the spare width over the columns, without letting a narrow sheet sprawl.
    spare = max(0.0, frame.width - natural)
    stretch = 1.0 + min(spare / natural, 0.6) if natural else 1.0
    if natural > frame.width:
        stretch = frame.width / natural  # too wide: squeezed, and reported as a problem
    label = label_width * stretch
    x = frame.x + label
    placed: list[PlacedColumn] = []
    groups: list[PlacedGroup] = []
    for group in sheet.groups:
        start = x
        for index, column in enumerate(group.columns):
            width = column.width * stretch
            placed.append(PlacedColumn(column, x, width, index == 0))
            x += width
        groups.append(PlacedGroup(group, start, x - start))
    return label, placed, groups


def _heading_lines(columns: Sequence[Column]) -> int:
    return max([1, *(len(c.heading.split("\n")) for c in columns)])


def plan(sheet: Sheet, paper: str = "A4") -> Plan:
    """Lay the sheet out: orientation, columns, rows per page, the blocks above and below."""
    register_fonts()
    paper = normalise_paper(paper)
    label_width = 18.0
    natural = _natural_width(sheet, label_width)
    portrait_frame = _frame(*_page(paper, False))
    is_landscape = natural > portrait_frame.width
    page_width, page_height = _page(paper, is_landscape)
    frame = _frame(page_width, page_height)
    label, columns, groups = _place_columns(sheet, frame, label_width)

    problems: list[str] = []
    if natural > frame.width + 0.01:
        problems.append(
            f"{sheet.title}: the columns need {natural:.0f} pt but the page has {frame.width:.0f}"
        )

    # The header: title line, subtitle, seats, options.
    seat_columns = max(1, min(len(sheet.seats), int(frame.width // 125)))
    if sheet.blank:
        seat_rows = math.ceil(len(sheet.seats) / seat_columns) if sheet.seats else 0
        seats_height = seat_rows * 21.0
        seat_text: list[str] = []
    else:
        seat_text = wrap_items(
            [_seat_text(s) for s in sheet.seats],
            REGULAR,
            BODY_SIZE,
            frame.width,
            said(N_("Players:")),
        )
        seats_height = len(seat_text) * BODY_LEADING
    option_text = wrap_items(
        list(sheet.options),
        REGULAR,
        BODY_SIZE,
        frame.width,
        said(N_("{title}:")).format(title=sheet.options_title),
    )
    subtitle_lines = (
        wrap(sheet.subtitle, REGULAR, SUBTITLE_SIZE, frame.width) if sheet.subtitle else []
    )
    header_height = (
        24.0
        + len(subtitle_lines) * 11.0
        + (4.0 + seats_height if sheet.seats else 0.0)
        + (4.0 + len(option_text) * BODY_LEADING if sheet.options else 0.0)
        + 8.0
    )
    continued_header_height = 24.0

    has_groups = any(g.title for g in sheet.groups)
    has_notes = any(g.note for g in sheet.groups)
    group_height = (10.0 + (8.0 if has_notes else 0.0)) if has_groups else 0.0
    heading_lines = _heading_lines(sheet.columns)
    heading_height = heading_lines * HEADING_LINE + 5.0

    # Below the table: notes, the result, the reminder, the signatures.
    tail_blocks: list[tuple[str, list[str], float]] = []
    if sheet.totals is not None or sheet.notes:
        notes: list[str] = []
        for note in sheet.notes:
            notes += wrap(note, REGULAR, BODY_SIZE, frame.width)
        if len(notes) > MAX_NOTE_LINES:
            more = len(notes) - MAX_NOTE_LINES + 1
            notes = [
                *notes[: MAX_NOTE_LINES - 1],
                said(N_("… and {more} more lines of notes.")).format(more=more),
            ]
        if notes:
            tail_blocks.append(("notes", notes, 6.0 + len(notes) * BODY_LEADING))
    if sheet.result:
        lines = wrap(sheet.result, BOLD, RESULT_SIZE, frame.width)
        tail_blocks.append(("result", lines, 6.0 + len(lines) * 14.0))
    if sheet.reminder:
        column_width = (frame.width - 16.0) / 2.0
        halves = _reminder_columns(sheet.reminder, column_width)
        height = 6.0 + 12.0 + max(len(halves[0]), len(halves[1])) * BODY_LEADING + 6.0
        tail_blocks.append(("reminder", halves[0] + ["\f"] + halves[1], height))
    if sheet.signatures:
        per_line = max(1, min(len(sheet.signatures), int(frame.width // 130)))
        lines_needed = math.ceil(len(sheet.signatures) / per_line)
        tail_blocks.append(("signatures", list(sheet.signatures), 12.0 + lines_needed * 26.0))
    tail_height = sum(block[2] for block in tail_blocks)
    footer_height = 14.0

    result = Plan(
        sheet=sheet,
        paper=paper,
        page_width=page_width,
        page_height=page_height,
        is_landscape=is_landscape,
        frame=frame,
        label_width=label,
        columns=columns,
        groups=groups,
        header_lines={"subtitle": subtitle_lines, "seats": seat_text, "options": option_text},
        header_height=header_height,
        continued_header_height=continued_header_height,
        group_height=group_height,
        heading_height=heading_height,
        heading_lines=heading_lines,
        row_height=FILLED_ROW,
        tail_blocks=tail_blocks,
        tail_height=tail_height,
        footer_height=footer_height,
        seat_columns=seat_columns,
        problems=problems,
    )
    _paginate(result)
    _check_text(result)
    return result


def _seat_text(seat: SeatLine) -> str:
    team = f" ({seat.team})" if seat.team else ""
    return f"{seat.label} {seat.name}{team}".strip()


def _reminder_columns(lines: Sequence[str], width: float) -> tuple[list[str], list[str]]:
    """Bulleted reminder lines, wrapped and split over two columns of about equal height."""
    wrapped: list[list[str]] = []
    for line in lines:
        parts = wrap(line, REGULAR, BODY_SIZE, width - 8.0)
        wrapped.append(["• " + parts[0], *("  " + p for p in parts[1:])])
    total = sum(len(w) for w in wrapped)
    left: list[str] = []
    right: list[str] = []
    for item in wrapped:
        if len(left) + len(item) <= math.ceil(total / 2) or not left:
            left += item
        else:
            right += item
    return left, right


def _table_space(plan_: Plan, first: bool) -> float:
    header = plan_.header_height if first else plan_.continued_header_height
    return (
        plan_.frame.height
        - header
        - plan_.group_height
        - plan_.heading_height
        - plan_.footer_height
    )


def _paginate(plan_: Plan) -> None:
    sheet = plan_.sheet
    if sheet.blank:
        _paginate_blank(plan_)
        return
    rows = list(sheet.rows)
    extra = 1 if sheet.totals is not None else 0
    pages: list[PagePlan] = []
    index = 0
    number = 1
    while True:
        first = number == 1
        space = _table_space(plan_, first)
        fits = max(1, int(space // plan_.row_height))
        left = len(rows) - index
        if left + extra <= fits:
            # The last rows, the totals and, when there is room, the tail.
            tail_fits = space - (left + extra) * plan_.row_height >= plan_.tail_height
            chunk = tuple(rows[index:])
            pages.append(PagePlan(number, chunk, first, tail_fits, True, tail_fits))
            if not tail_fits:
                pages.append(PagePlan(number + 1, (), False, True, False, True))
            break
        # Keep at least one round beside the totals row on the last page.
        take = fits if left > fits else max(left - 1, 1)
        pages.append(
            PagePlan(number, tuple(rows[index : index + take]), first, False, False, False)
        )
        index += take
        number += 1
    plan_.pages = pages


def _paginate_blank(plan_: Plan) -> None:
    sheet = plan_.sheet
    wanted = max(sheet.blank_rows, 1)
    space = _table_space(plan_, True) - plan_.tail_height
    height = BLANK_ROW_MAX if sheet.fill_page else BLANK_ROW_ROOMY
    if space / wanted < height:
        height = max(BLANK_ROW_MIN, math.floor(space / wanted * 2) / 2)
    plan_.row_height = height
    fits = int(space // height)
    count = max(wanted, fits) if sheet.fill_page else wanted
    rows = [Row(str(n)) for n in range(1, count + 1)]
    if sheet.short_game_rows and sheet.short_game_rows < count:
        marked = sheet.short_game_rows - 1
        rows[marked] = Row(rows[marked].label, rule_after=True)
    if count <= fits:
        plan_.pages = [PagePlan(1, tuple(rows), True, True, False, True)]
        return
    # More rows than one page holds: continue on further pages, the tail on the last.
    pages = [PagePlan(1, tuple(rows[:fits]), True, False, False, False)]
    index = fits
    number = 2
    while index < len(rows):
        space = _table_space(plan_, False)
        take = int(space // height)
        last = (
            index + take >= len(rows) and space - (len(rows) - index) * height >= plan_.tail_height
        )
        chunk = tuple(rows[index : index + take])
        pages.append(PagePlan(number, chunk, False, last, False, last))
        index += take
        number += 1
    if not pages[-1].tail:
        pages.append(PagePlan(number, (), False, True, False, True))
    plan_.pages = pages


def _check_text(plan_: Plan) -> None:
    """Headings and numbers that do not fit their boxes are layout problems."""
    for placed in plan_.columns:
        for line in placed.column.heading.split("\n"):
            fitted = fit_text(line, BOLD, HEADING_SIZE, placed.width - 2 * CELL_PAD, may_cut=False)
            if fitted.width > placed.width - 2 * CELL_PAD + 0.01:
                plan_.problems.append(
                    f"{plan_.sheet.title}: heading {line!r} does not fit its column "
                    f"({fitted.width:.1f} > {placed.width - 2 * CELL_PAD:.1f} pt)"
                )
    for page in plan_.pages:
        rows = list(page.rows)
        if page.totals and plan_.sheet.totals is not None:
            rows.append(plan_.sheet.totals)
        for row in rows:
            for placed, text in zip(plan_.columns, row.cells, strict=False):
                if not text:
                    continue
                fitted = fit_cell(text, placed, row is plan_.sheet.totals)
                if fitted.cut and placed.column.number:
                    plan_.problems.append(
                        f"{plan_.sheet.title}: round {row.label}: {text!r} does not fit "
                        f"the {placed.column.heading!r} column"
                    )


def fit_cell(text: str, placed: PlacedColumn, is_total: bool) -> Fitted:
    font = BOLD if placed.column.total or is_total else REGULAR
    number = placed.column.number
    return fit_text(
        text,
        font,
        CELL_SIZE,
        placed.width - 2 * CELL_PAD,
        may_cut=not number,
        min_size=None if number else MIN_NAME_SIZE,
    )
