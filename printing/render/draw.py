"""Drawing a laid-out scoresheet: header, round table, rules, tail and footer, page by page."""

from __future__ import annotations

import math
from collections.abc import Sequence

from reportlab.pdfgen.canvas import Canvas

from printing.render.fonts import BOLD, REGULAR
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
    PagePlan,
    Plan,
    fit_cell,
    fit_text,
)
from printing.render.paper import PAPER_NAMES
from printing.render.pen import (
    CORRECTED_FILL,
    GREEN,
    GUIDE,
    HAIRLINE,
    HEAD_FILL,
    INK,
    MUTED,
    RULE,
    TOTAL_FILL,
    DrawRecord,
    Pen,
)
from printing.render.sheet import Row
from printing.render.words import N_, said


def draw_sheet(canvas: Canvas, plan_: Plan, record: DrawRecord | None = None) -> None:
    pen = Pen(canvas, record)
    count = len(plan_.pages)
    for page in plan_.pages:
        canvas.setPageSize((plan_.page_width, plan_.page_height))
        pen.new_page()
        draw_page(pen, plan_, page, count)
        pen.end_page()
        canvas.showPage()


def draw_page(pen: Pen, plan_: Plan, page: PagePlan, page_count: int) -> None:
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


def _draw_header(pen: Pen, plan_: Plan, top: float) -> float:
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
                _draw_lead_line(
                    pen, frame.x, y - BODY_SIZE * 0.85, line, said(N_("Players:")), frame.width
                )
                y -= BODY_LEADING
    if sheet.options:
        y -= 4.0
        for line in plan_.header_lines["options"]:
            _draw_lead_line(
                pen,
                frame.x,
                y - BODY_SIZE * 0.85,
                line,
                said(N_("{title}:")).format(title=sheet.options_title),
                frame.width,
            )
            y -= BODY_LEADING
    return top - plan_.header_height


def _draw_lead_line(pen: Pen, x: float, y: float, line: str, lead: str, width: float) -> None:
    """A header line whose lead word ("Players:") is bold."""
    if line.startswith(lead):
        used = pen.text(x, y, lead, BOLD, BODY_SIZE)
        rest = line[len(lead) :].lstrip()
        fitted = fit_text(rest, REGULAR, BODY_SIZE, width - used - 4.0)
        pen.fitted(x + used + 4.0, y, fitted)
    else:
        pen.fitted(x, y, fit_text(line, REGULAR, BODY_SIZE, width))


def _draw_meta(pen: Pen, plan_: Plan, left: float, baseline: float) -> None:
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


def _draw_continued_header(pen: Pen, plan_: Plan, top: float, page: PagePlan) -> float:
    frame = plan_.frame
    baseline = top - 12.0
    pen.text(frame.x, baseline, plan_.sheet.title, BOLD, 11.0, color=GREEN)
    pen.text(
        frame.right, baseline, said(N_("continued")), REGULAR, BODY_SIZE, color=MUTED, align="right"
    )
    return top - plan_.continued_header_height


def _draw_table(pen: Pen, plan_: Plan, page: PagePlan, top: float) -> float:
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


def _heading(pen: Pen, mid: float, top: float, heading: str, box: Box, lines: int) -> None:
    parts = heading.split("\n")
    inner = Box(box.x + CELL_PAD, box.y, box.width - 2 * CELL_PAD, box.height)
    # Bottom-align the heading lines so one-line headings sit by the rows.
    first_baseline = top - 3.0 - HEADING_SIZE * 0.85 - (lines - len(parts)) * HEADING_LINE
    for index, part in enumerate(parts):
        fitted = fit_text(part, BOLD, HEADING_SIZE, inner.width, may_cut=False)
        pen.fitted(mid, first_baseline - index * HEADING_LINE, fitted, align="center", limit=inner)


def _draw_row(
    pen: Pen, plan_: Plan, row: Row, top: float, height: float, *, is_total: bool
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
    pen: Pen,
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


def _draw_tail(pen: Pen, plan_: Plan, top: float) -> None:
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


def _draw_footer(pen: Pen, plan_: Plan, page: PagePlan, count: int) -> None:
    frame = plan_.frame
    y = frame.y + 2.0
    sheet = plan_.sheet
    pen.text(frame.x, y, sheet.footer, REGULAR, 6.5, color=MUTED)
    where = (
        said(PAPER_NAMES[plan_.paper])
        + " · "
        + said(N_("page {number} of {count}")).format(number=page.number, count=count)
    )
    pen.text(frame.right, y, where, REGULAR, 6.5, color=MUTED, align="right")
