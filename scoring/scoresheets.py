"""Printable scoresheets: plain dataclasses in, PDF bytes out.

Nothing here reads the database or a request. ``scoring.printing`` turns a game
(or a game and player count, for a blank sheet) into a ``Sheet``; this module
lays the sheet out on A4 or US Letter and draws it with reportlab.

The layout is computed once (``plan``) and used both to draw and to check that
nothing falls outside the printable area (``fit_problems``), so the check and
the page never disagree. Text that is too wide for its box is first condensed,
then set smaller, and only names are ever shortened with an ellipsis; a number
that cannot fit is a layout problem, never silently cut.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

# Compressed page streams stay binary: ASCII85 on top makes files larger and slower to write.
rl_config.useA85 = 0

PAPER_SIZES: dict[str, tuple[float, float]] = {"A4": A4, "LETTER": letter}
PAPER_NAMES: dict[str, str] = {"A4": "A4", "LETTER": "US Letter"}
MARGIN = 30.0  # about 10.5 mm: inside the unprintable edge of every office printer

FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/local/share/fonts/dejavu",
)
REGULAR = "TablescoreSans"
BOLD = "TablescoreSans-Bold"

INK = HexColor("#1d2521")
MUTED = HexColor("#5b6660")
GREEN = HexColor("#1f4d3a")
RULE = HexColor("#8f8b80")
HAIRLINE = HexColor("#c9c5b9")
HEAD_FILL = HexColor("#e3efe8")
TOTAL_FILL = HexColor("#f2f0ea")
CORRECTED_FILL = HexColor("#fdf0cf")
GUIDE = HexColor("#b7b3a8")

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


class FontMissing(RuntimeError):
    """The TrueType font that prints every Latin name is not installed."""


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class Column:
    """One printed column of the round table."""

    heading: str  # short; a newline splits it over two lines
    width: float = 30.0  # the least width in points; wider when the page has room
    align: str = "center"  # "left", "center" or "right"
    total: bool = False  # a running total: bold on a shaded ground
    number: bool = True  # numbers are never shortened; names may be
    guide: str = ""  # faint text in empty rows, a hint for the pen ("+" between two dice)


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


# --------------------------------------------------------------------------- fonts

_fonts_ready = False


def font_paths() -> tuple[Path, Path]:
    """DejaVu Sans and DejaVu Sans Bold; FontMissing names the package to install."""
    override = os.environ.get("TABLESCORE_FONT_DIR")
    folders = ((override,) if override else ()) + FONT_DIRS
    for folder in folders:
        regular = Path(folder) / "DejaVuSans.ttf"
        bold = Path(folder) / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    raise FontMissing(
        "Scoresheets need the DejaVu Sans TrueType font (DejaVuSans.ttf and "
        "DejaVuSans-Bold.ttf), looked for in " + ", ".join(folders) + ". Install it with "
        "`apt-get install fonts-dejavu-core` (or `make system-deps`), or point "
        "TABLESCORE_FONT_DIR at a folder that holds both files."
    )


def register_fonts() -> None:
    """Embed DejaVu Sans, which covers every Latin script (Zoë, Łukasz, Søren, Ðorđe)."""
    global _fonts_ready
    if _fonts_ready:
        return
    regular, bold = font_paths()
    pdfmetrics.registerFont(TTFont(REGULAR, str(regular)))
    pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
    _fonts_ready = True


@lru_cache(maxsize=1 << 16)
def text_width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


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
            [_seat_text(s) for s in sheet.seats], REGULAR, BODY_SIZE, frame.width, "Players:"
        )
        seats_height = len(seat_text) * BODY_LEADING
    option_text = wrap_items(
        list(sheet.options), REGULAR, BODY_SIZE, frame.width, sheet.options_title + ":"
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
            notes = [*notes[: MAX_NOTE_LINES - 1], f"… and {more} more lines of notes."]
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
                fitted = _fit_cell(text, placed, row is plan_.sheet.totals)
                if fitted.cut and placed.column.number:
                    plan_.problems.append(
                        f"{plan_.sheet.title}: round {row.label}: {text!r} does not fit "
                        f"the {placed.column.heading!r} column"
                    )


def _fit_cell(text: str, placed: PlacedColumn, is_total: bool) -> Fitted:
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


def fit_problems(sheet: Sheet, paper: str = "A4") -> list[str]:
    """Everything that would not fit the printable area on this paper; [] when all fits."""
    laid_out = plan(sheet, paper)
    problems = list(laid_out.problems)
    recorder = DrawRecord()
    _draw_sheet(Canvas(io.BytesIO()), laid_out, recorder)
    frame = laid_out.frame
    for item in recorder.items:
        if not (
            item.box.x >= frame.x - 0.01
            and item.box.right <= frame.right + 0.01
            and item.box.y >= frame.y - 0.01
            and item.box.top <= frame.top + 0.01
        ):
            problems.append(f"{sheet.title}: {item.text!r} is drawn outside the printable area")
        if item.limit is not None and item.box.width > item.limit.width + 0.01:
            problems.append(f"{sheet.title}: {item.text!r} is wider than its box")
    return problems


def normalise_paper(paper: str | None) -> str:
    key = (paper or "A4").strip().upper().replace(" ", "").replace("US", "")
    if key not in PAPER_SIZES:
        raise ValueError(f"paper size must be A4 or LETTER, not {paper!r}")
    return key


# --------------------------------------------------------------------------- drawing


@dataclass(frozen=True)
class DrawnText:
    text: str
    box: Box
    limit: Box | None


class DrawRecord:
    """What a sheet drew where: the fit check reads it back."""

    def __init__(self) -> None:
        self.items: list[DrawnText] = []

    def add(self, text: str, box: Box, limit: Box | None) -> None:
        self.items.append(DrawnText(text, box, limit))


class _Pen:
    """Draws text through one door, so that every string's box can be recorded.

    The text of a page goes into one text object, written out by ``end_page`` after
    the page's rules and shading: text always sits on top, and one text block per
    page is much cheaper than one per string.
    """

    def __init__(self, canvas: Canvas, record: DrawRecord | None):
        self.canvas = canvas
        self.record = record
        self.fill_color: Color | None = None
        self.words = canvas.beginText()
        self.font: tuple[str, float] | None = None
        self.color: Color | None = None
        self.scale = 1.0

    def new_page(self) -> None:
        """A new page starts from reportlab's defaults: forget the font and colours set."""
        self.fill_color = None
        self.words = self.canvas.beginText()
        self.font = None
        self.color = None
        self.scale = 1.0

    def end_page(self) -> None:
        self.canvas.drawText(self.words)

    def fill(self, color: Color) -> None:
        if self.fill_color is not color:
            self.canvas.setFillColor(color)
            self.fill_color = color

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: str = REGULAR,
        size: float = BODY_SIZE,
        *,
        color: Color = INK,
        align: str = "left",
        scale: float = 1.0,
        limit: Box | None = None,
    ) -> float:
        if not text:
            return 0.0
        width = text_width(text, font, size) * scale
        if align == "right":
            left = x - width
        elif align == "center":
            left = x - width / 2
        else:
            left = x
        words = self.words
        if self.color is not color:
            words.setFillColor(color)
            self.color = color
        if self.font != (font, size):
            words.setFont(font, size)
            self.font = (font, size)
        if abs(self.scale - scale) > 1e-4:
            words.setHorizScale(scale * 100.0)
            self.scale = scale
        words.setTextOrigin(left, y)
        words.textOut(text)
        if self.record is not None:
            ascent = size * 0.76
            descent = size * 0.24
            self.record.add(text, Box(left, y - descent, width, ascent + descent), limit)
        return width

    def fitted(
        self,
        x: float,
        y: float,
        fitted: Fitted,
        *,
        color: Color = INK,
        align: str = "left",
        limit: Box | None = None,
    ) -> None:
        self.text(
            x,
            y,
            fitted.text,
            fitted.font,
            fitted.size,
            color=color,
            align=align,
            scale=fitted.scale,
            limit=limit,
        )


def _draw_sheet(canvas: Canvas, plan_: Plan, record: DrawRecord | None = None) -> None:
    pen = _Pen(canvas, record)
    count = len(plan_.pages)
    for page in plan_.pages:
        canvas.setPageSize((plan_.page_width, plan_.page_height))
        pen.new_page()
        _draw_page(pen, plan_, page, count)
        pen.end_page()
        canvas.showPage()


def _draw_page(pen: _Pen, plan_: Plan, page: PagePlan, page_count: int) -> None:
    frame = plan_.frame
    top = frame.top
    if page.first:
        top = _draw_header(pen, plan_, top)
    else:
        top = _draw_continued_header(pen, plan_, top, page)
    if page.rows or page.totals:
        top = _draw_table(pen, plan_, page, top)
    if page.tail:
        _draw_tail(pen, plan_, top)
    _draw_footer(pen, plan_, page, page_count)


def _draw_header(pen: _Pen, plan_: Plan, top: float) -> float:
    sheet = plan_.sheet
    frame = plan_.frame
    c = pen.canvas
    baseline = top - TITLE_SIZE * 0.8
    title_width = pen.text(frame.x, baseline, sheet.title, BOLD, TITLE_SIZE, color=GREEN)
    _draw_meta(pen, plan_, frame.x + title_width + 18.0, baseline)
    y = top - 24.0
    for line in plan_.header_lines["subtitle"]:
        pen.text(frame.x, y - SUBTITLE_SIZE * 0.8, line, REGULAR, SUBTITLE_SIZE, color=MUTED)
        y -= 11.0
    if sheet.seats:
        y -= 4.0
        if sheet.blank:
            per_row = plan_.seat_columns
            cell = frame.width / per_row
            for index, seat in enumerate(sheet.seats):
                row, col = divmod(index, per_row)
                x = frame.x + col * cell
                y0 = y - row * 21.0
                label = seat.label + (f" · {seat.team}" if seat.team else "")
                pen.text(x, y0 - 6.0, label, BOLD, LABEL_SIZE, color=MUTED)
                c.setStrokeColor(RULE)
                c.setLineWidth(0.6)
                c.line(x, y0 - 19.0, x + cell - 10.0, y0 - 19.0)
            y -= math.ceil(len(sheet.seats) / per_row) * 21.0
        else:
            for line in plan_.header_lines["seats"]:
                _draw_lead_line(pen, frame.x, y - BODY_SIZE * 0.85, line, "Players:", frame.width)
                y -= BODY_LEADING
    if sheet.options:
        y -= 4.0
        for line in plan_.header_lines["options"]:
            _draw_lead_line(
                pen, frame.x, y - BODY_SIZE * 0.85, line, sheet.options_title + ":", frame.width
            )
            y -= BODY_LEADING
    return top - plan_.header_height


def _draw_lead_line(pen: _Pen, x: float, y: float, line: str, lead: str, width: float) -> None:
    """A header line whose lead word ("Players:") is bold."""
    if line.startswith(lead):
        used = pen.text(x, y, lead, BOLD, BODY_SIZE)
        rest = line[len(lead) :].lstrip()
        fitted = fit_text(rest, REGULAR, BODY_SIZE, width - used - 4.0)
        pen.fitted(x + used + 4.0, y, fitted)
    else:
        pen.fitted(x, y, fit_text(line, REGULAR, BODY_SIZE, width))


def _draw_meta(pen: _Pen, plan_: Plan, left: float, baseline: float) -> None:
    """Right of the title: "Date ____  Table ____" on a blank sheet, game facts on a filled one."""
    sheet = plan_.sheet
    if not sheet.meta:
        return
    frame = plan_.frame
    c = pen.canvas
    space = frame.right - left
    blanks = [label for label, value in sheet.meta if not value]
    filled = [f"{label} {value}".strip() for label, value in sheet.meta if value]
    if blanks:
        each = min(120.0, space / len(blanks))
        x = frame.right - each * len(blanks)
        for label in blanks:
            used = pen.text(x, baseline, label, REGULAR, BODY_SIZE, color=MUTED)
            c.setStrokeColor(RULE)
            c.setLineWidth(0.6)
            c.line(x + used + 3.0, baseline - 1.5, x + each - 8.0, baseline - 1.5)
            x += each
    elif filled:
        text = "  ·  ".join(filled)
        fitted = fit_text(text, REGULAR, BODY_SIZE, space)
        pen.fitted(frame.right, baseline, fitted, color=MUTED, align="right")


def _draw_continued_header(pen: _Pen, plan_: Plan, top: float, page: PagePlan) -> float:
    frame = plan_.frame
    baseline = top - 12.0
    pen.text(frame.x, baseline, plan_.sheet.title, BOLD, 11.0, color=GREEN)
    pen.text(frame.right, baseline, "continued", REGULAR, BODY_SIZE, color=MUTED, align="right")
    return top - plan_.continued_header_height


def _draw_table(pen: _Pen, plan_: Plan, page: PagePlan, top: float) -> float:
    c = pen.canvas
    frame = plan_.frame
    left = frame.x
    right = left + plan_.table_width
    y = top
    # Group titles.
    if plan_.group_height:
        pen.fill(HEAD_FILL)
        c.rect(left, y - plan_.group_height, right - left, plan_.group_height, stroke=0, fill=1)
        for group in plan_.groups:
            if not group.group.title:
                continue
            inner = Box(
                group.x + CELL_PAD,
                y - plan_.group_height,
                group.width - 2 * CELL_PAD,
                plan_.group_height,
            )
            mid = group.x + group.width / 2
            title = fit_text(
                group.group.title, BOLD, GROUP_SIZE, inner.width, min_size=MIN_NAME_SIZE
            )
            pen.fitted(mid, y - 8.0, title, align="center", limit=inner)
            if group.group.note:
                note = fit_text(
                    group.group.note, REGULAR, LABEL_SIZE, inner.width, min_size=MIN_TEXT_SIZE
                )
                pen.fitted(mid, y - 16.0, note, color=MUTED, align="center", limit=inner)
        y -= plan_.group_height
    # Column headings.
    height = plan_.heading_height
    pen.fill(HEAD_FILL)
    c.rect(left, y - height, right - left, height, stroke=0, fill=1)
    _heading(
        pen,
        left + plan_.label_width / 2,
        y,
        plan_.sheet.label_heading,
        Box(left, y - height, plan_.label_width, height),
        plan_.heading_lines,
    )
    for placed in plan_.columns:
        _heading(
            pen,
            placed.x + placed.width / 2,
            y,
            placed.column.heading,
            Box(placed.x, y - height, placed.width, height),
            plan_.heading_lines,
        )
    table_top = top
    y -= height
    body_top = y
    # Rows.
    rows = list(page.rows)
    row_height = plan_.row_height
    for row in rows:
        _draw_row(pen, plan_, row, y, row_height, is_total=False)
        y -= row_height
    if page.totals and plan_.sheet.totals is not None:
        pen.fill(TOTAL_FILL)
        c.rect(left, y - row_height, right - left, row_height, stroke=0, fill=1)
        _draw_row(pen, plan_, plan_.sheet.totals, y, row_height, is_total=True)
        y -= row_height
    _draw_rules(pen, plan_, table_top, body_top, y, rows, page)
    return y


def _heading(pen: _Pen, mid: float, top: float, heading: str, box: Box, lines: int) -> None:
    parts = heading.split("\n")
    inner = Box(box.x + CELL_PAD, box.y, box.width - 2 * CELL_PAD, box.height)
    # Bottom-align the heading lines so one-line headings sit by the rows.
    first_baseline = top - 3.0 - HEADING_SIZE * 0.85 - (lines - len(parts)) * HEADING_LINE
    for index, part in enumerate(parts):
        fitted = fit_text(part, BOLD, HEADING_SIZE, inner.width, may_cut=False)
        pen.fitted(mid, first_baseline - index * HEADING_LINE, fitted, align="center", limit=inner)


def _draw_row(pen: _Pen, plan_: Plan, row: Row, top: float, height: float, *, is_total: bool):
    c = pen.canvas
    frame = plan_.frame
    baseline = top - height / 2 - CELL_SIZE * 0.33
    if row.corrected:
        pen.fill(CORRECTED_FILL)
        c.rect(frame.x, top - height, plan_.table_width, height, stroke=0, fill=1)
    label = row.label + (CORRECTED_MARK if row.corrected else "")
    label_box = Box(frame.x, top - height, plan_.label_width, height)
    label_size = CELL_SIZE if row.cells or is_total else LABEL_SIZE + 0.5
    fitted = fit_text(
        label, BOLD if is_total else REGULAR, label_size, plan_.label_width - 2 * CELL_PAD
    )
    if row.cells or is_total:
        pen.fitted(
            frame.x + plan_.label_width / 2,
            baseline,
            fitted,
            align="center",
            limit=label_box,
            color=INK,
        )
    else:
        pen.fitted(frame.x + CELL_PAD, top - LABEL_SIZE - 1.5, fitted, color=MUTED, limit=label_box)
    for index, placed in enumerate(plan_.columns):
        box = Box(placed.x, top - height, placed.width, height)
        if placed.column.total and not is_total:
            pen.fill(TOTAL_FILL)
            c.rect(box.x, box.y, box.width, box.height, stroke=0, fill=1)
        text = row.cells[index] if index < len(row.cells) else ""
        if not text:
            if not row.cells and placed.column.guide:
                pen.text(
                    box.x + box.width / 2,
                    baseline,
                    placed.column.guide,
                    REGULAR,
                    CELL_SIZE,
                    color=GUIDE,
                    align="center",
                    limit=box,
                )
            continue
        fitted = _fit_cell(text, placed, is_total)
        align = placed.column.align
        if align == "left":
            x = box.x + CELL_PAD
        elif align == "right":
            x = box.right - CELL_PAD
        else:
            x = box.x + box.width / 2
        inner = Box(box.x + CELL_PAD, box.y, box.width - 2 * CELL_PAD, box.height)
        pen.fitted(x, baseline, fitted, align=align, limit=inner)


def _draw_rules(
    pen: _Pen, plan_: Plan, table_top: float, body_top: float, bottom: float, rows, page
) -> None:
    c = pen.canvas
    frame = plan_.frame
    left = frame.x
    right = left + plan_.table_width
    # Horizontal rules between rows.
    c.setStrokeColor(HAIRLINE)
    c.setLineWidth(0.5)
    y = body_top
    for row in rows:
        y -= plan_.row_height
        if row.rule_after:
            c.setStrokeColor(INK)
            c.setLineWidth(1.6)
            c.line(left, y, right, y)
            c.setStrokeColor(HAIRLINE)
            c.setLineWidth(0.5)
        else:
            c.line(left, y, right, y)
    # Vertical rules: light inside a group, darker between groups.
    for placed in plan_.columns:
        if placed.first_of_group:
            c.setStrokeColor(RULE)
            c.setLineWidth(0.8)
            start = table_top
        else:
            c.setStrokeColor(HAIRLINE)
            c.setLineWidth(0.5)
            start = table_top - plan_.group_height
        c.line(placed.x, start, placed.x, bottom)
    # The frame of the table and the rule under the headings.
    c.setStrokeColor(RULE)
    c.setLineWidth(0.8)
    if plan_.group_height:
        c.line(left, table_top - plan_.group_height, right, table_top - plan_.group_height)
    c.line(left, body_top, right, body_top)
    c.setStrokeColor(INK)
    c.setLineWidth(1.0)
    c.rect(left, bottom, right - left, table_top - bottom, stroke=1, fill=0)
    if page.totals and plan_.sheet.totals is not None:
        c.line(left, bottom + plan_.row_height, right, bottom + plan_.row_height)


def _draw_tail(pen: _Pen, plan_: Plan, top: float) -> None:
    # Plain lines under the table: (font, size, leading, colour) by block kind.
    TAIL_LINE_STYLES = {
        "notes": (REGULAR, BODY_SIZE, BODY_LEADING, MUTED),
        "result": (BOLD, RESULT_SIZE, 14.0, GREEN),
    }
    c = pen.canvas
    frame = plan_.frame
    y = top
    for kind, lines, height in plan_.tail_blocks:
        if kind in TAIL_LINE_STYLES:
            font, size, leading, color = TAIL_LINE_STYLES[kind]
            y -= 6.0
            for line in lines:
                pen.fitted(
                    frame.x, y - size * 0.85, fit_text(line, font, size, frame.width), color=color
                )
                y -= leading
        elif kind == "reminder":
            box_top = y - 6.0
            box_height = height - 6.0
            c.setStrokeColor(HAIRLINE)
            c.setLineWidth(0.6)
            c.roundRect(frame.x, box_top - box_height, frame.width, box_height, 4, stroke=1, fill=0)
            pen.text(
                frame.x + 8.0, box_top - 10.0, plan_.sheet.reminder_title, BOLD, 7.5, color=GREEN
            )
            split = lines.index("\f")
            halves = (lines[:split], lines[split + 1 :])
            column_width = (frame.width - 16.0) / 2.0
            for half, x in zip(halves, (frame.x + 8.0, frame.x + 8.0 + column_width), strict=True):
                line_y = box_top - 12.0 - BODY_SIZE * 0.95
                for line in half:
                    fitted = fit_text(line, REGULAR, BODY_SIZE, column_width - 8.0)
                    pen.fitted(x, line_y, fitted)
                    line_y -= BODY_LEADING
            y -= height
        elif kind == "signatures":
            y -= 12.0
            per_line = max(1, min(len(lines), int(frame.width // 130)))
            cell = frame.width / per_line
            pen.text(frame.x, y + 2.0, plan_.sheet.signatures_title, BOLD, LABEL_SIZE, color=MUTED)
            for index, label in enumerate(lines):
                row, col = divmod(index, per_line)
                x = frame.x + col * cell
                line_y = y - 16.0 - row * 26.0
                c.setStrokeColor(RULE)
                c.setLineWidth(0.6)
                c.line(x, line_y, x + cell - 12.0, line_y)
                fitted = fit_text(label, REGULAR, LABEL_SIZE, cell - 12.0)
                pen.fitted(x, line_y - 7.0, fitted, color=MUTED)
            y -= height - 12.0


def _draw_footer(pen: _Pen, plan_: Plan, page: PagePlan, count: int) -> None:
    frame = plan_.frame
    y = frame.y + 2.0
    sheet = plan_.sheet
    pen.text(frame.x, y, sheet.footer, REGULAR, 6.5, color=MUTED)
    where = f"{PAPER_NAMES[plan_.paper]} · page {page.number} of {count}"
    pen.text(frame.right, y, where, REGULAR, 6.5, color=MUTED, align="right")


# --------------------------------------------------------------------------- the document


def render(
    sheets: Iterable[Sheet],
    paper: str = "A4",
    *,
    title: str = "Scoresheets",
    total: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """One PDF holding every sheet in order; copies of one sheet are drawn only once.

    ``sheets`` may be a generator (built while the document is drawn); consecutive
    copies of the same ``Sheet`` object are placed as one shared drawing.
    ``on_progress(done, total)`` is called after each sheet.
    """
    register_fonts()
    paper = normalise_paper(paper)
    if total is None:
        total = len(sheets) if isinstance(sheets, Sequence) else 0
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=PAPER_SIZES[paper], invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("Tablescore")
    canvas.setCreator("Tablescore")
    forms: dict[int, tuple[Plan, list[str]]] = {}
    iterator = iter(sheets)
    previous: Sheet | None = None
    upcoming = next(iterator, None)
    done = 0
    while upcoming is not None:
        sheet = upcoming
        upcoming = next(iterator, None)
        if sheet is previous or sheet is upcoming:
            _draw_as_form(canvas, sheet, paper, forms)
        else:
            _draw_sheet(canvas, plan(sheet, paper))
        previous = sheet
        done += 1
        if on_progress is not None:
            on_progress(done, max(total, done))
    canvas.save()
    return buffer.getvalue()


def _draw_as_form(canvas: Canvas, sheet: Sheet, paper: str, forms: dict) -> None:
    """Copies of one sheet: each page is drawn once as a form and placed on every copy."""
    key = id(sheet)
    if key not in forms:
        laid_out = plan(sheet, paper)
        names = []
        for page in laid_out.pages:
            name = f"sheet{len(forms)}p{page.number}"
            canvas.beginForm(name, 0, 0, laid_out.page_width, laid_out.page_height)
            pen = _Pen(canvas, None)
            _draw_page(pen, laid_out, page, len(laid_out.pages))
            pen.end_page()
            canvas.endForm()
            names.append(name)
        forms[key] = (laid_out, names)
    laid_out, names = forms[key]
    for name in names:
        canvas.setPageSize((laid_out.page_width, laid_out.page_height))
        canvas.doForm(name)
        canvas.showPage()


def render_one(sheet: Sheet, paper: str = "A4") -> bytes:
    return render([sheet], paper, title=sheet.title)


def plain_pages(count: int, paper: str = "A4") -> bytes:
    """Bare reportlab: ``count`` pages of one line each, the benchmark's yardstick."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer, pagesize=PAPER_SIZES[normalise_paper(paper)], invariant=1, pageCompression=1
    )
    for number in range(1, count + 1):
        canvas.setFont(REGULAR, 12)
        canvas.drawString(72, 720, f"Page {number}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


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
    "normalise_paper",
    "plain_pages",
    "plan",
    "render",
    "render_one",
]
