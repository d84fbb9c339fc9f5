"""Drawing a laid-out sheet with reportlab, and the document of many sheets."""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from printing.render.diagram import Diagram, draw_diagram
from printing.render.fonts import BOLD, REGULAR, register_fonts, text_width
from printing.render.layout import (
    BODY_LEADING,
    BODY_SIZE,
    CELL_PAD,
    CELL_SIZE,
    CORRECTED_MARK,
    GROUP_SIZE,
    HEADING_LINE,
    HEADING_SIZE,
    LABEL_SIZE,
    MIN_NAME_SIZE,
    MIN_TEXT_SIZE,
    RESULT_SIZE,
    SEAT_NAME_SIZE,
    SUBTITLE_SIZE,
    TITLE_SIZE,
    Box,
    Fitted,
    PagePlan,
    Plan,
    fit_cell,
    fit_text,
    plan,
)
from printing.render.paper import PAPER_NAMES, PAPER_SIZES, normalise_paper
from printing.render.sheet import Row, Sheet

# Compressed page streams stay binary: ASCII85 on top makes files larger and slower to write.
rl_config.useA85 = 0

INK = HexColor("#1d2521")
MUTED = HexColor("#5b6660")
GREEN = HexColor("#1f4d3a")
RULE = HexColor("#8f8b80")
HAIRLINE = HexColor("#c9c5b9")
HEAD_FILL = HexColor("#e3efe8")
TOTAL_FILL = HexColor("#f2f0ea")
CORRECTED_FILL = HexColor("#fdf0cf")
GUIDE = HexColor("#b7b3a8")


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


Pen = _Pen


class OwnPlan(Protocol):
    """The layout plan of pages that lay themselves out: it draws them and is checked."""

    page_width: float
    page_height: float
    frame: Box
    problems: list[str]

    @property
    def page_count(self) -> int: ...

    def draw_page(self, pen: _Pen, index: int) -> None: ...


class SelfLaidOut(Protocol):
    """Pages other than a scoresheet (a card, a list: ``cards``, ``lists``) that plan themselves."""

    title: str

    def layout(self, paper: str) -> OwnPlan: ...


def _draw_own(canvas: Canvas, laid_out: OwnPlan, record: DrawRecord | None = None) -> None:
    pen = _Pen(canvas, record)
    for index in range(laid_out.page_count):
        canvas.setPageSize((laid_out.page_width, laid_out.page_height))
        pen.new_page()
        laid_out.draw_page(pen, index)
        pen.end_page()
        canvas.showPage()


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
                if seat.name:  # a sheet handed out with the names already on it
                    room = Box(x, y0 - 19.0, cell - 10.0, 12.0)
                    name = fit_text(
                        seat.name, BOLD, SEAT_NAME_SIZE, room.width, min_size=MIN_NAME_SIZE
                    )
                    pen.fitted(x, y0 - 16.5, name, limit=room)
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


def _draw_row(
    pen: _Pen, plan_: Plan, row: Row, top: float, height: float, *, is_total: bool
) -> None:
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
        fitted = fit_cell(text, placed, is_total)
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
    pen: _Pen,
    plan_: Plan,
    table_top: float,
    body_top: float,
    bottom: float,
    rows: Sequence[Row],
    page: PagePlan,
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
    sheets: Iterable[Sheet | SelfLaidOut | Diagram],
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
    previous: Sheet | SelfLaidOut | Diagram | None = None
    upcoming = next(iterator, None)
    done = 0
    while upcoming is not None:
        sheet = upcoming
        upcoming = next(iterator, None)
        if isinstance(sheet, Diagram):  # a drawing of its own: a bracket for the wall
            draw_diagram(canvas, sheet, paper)
        elif not isinstance(sheet, Sheet):
            _draw_own(canvas, sheet.layout(paper))
        elif sheet is previous or sheet is upcoming:
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


def render_one(sheet: Sheet | SelfLaidOut, paper: str = "A4") -> bytes:
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


def fit_problems(sheet: Sheet | SelfLaidOut, paper: str = "A4") -> list[str]:
    """Everything that would not fit the printable area on this paper; [] when all fits."""
    recorder = DrawRecord()
    frame: Box
    if isinstance(sheet, Sheet):
        laid_out = plan(sheet, paper)
        problems = list(laid_out.problems)
        _draw_sheet(Canvas(io.BytesIO()), laid_out, recorder)
        frame = laid_out.frame
    else:
        own = sheet.layout(normalise_paper(paper))
        problems = list(own.problems)
        _draw_own(Canvas(io.BytesIO()), own, recorder)
        frame = own.frame
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
