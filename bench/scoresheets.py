"""Scoresheet rendering: 250 filled sheets, beside the same sheets drawn straight on
reportlab's canvas (the floor for reportlab: the same text and rules at fixed places,
with no measuring, fitting, wrapping or planning).

The goal: our render takes at most twice the floor. Building the sheets (scoring the
records, choosing the columns) is shown apart, and so is a stack of copies of one
blank sheet (drawn once, placed on every page).
"""

from __future__ import annotations

import importlib
import io
import time
from collections.abc import Callable, Sequence

from reportlab.pdfgen.canvas import Canvas

from bench.figures import Row
from printing.render import PAPER_SIZES, Sheet, render
from printing.render.fonts import BOLD, REGULAR, register_fonts
from printing.scoresheets import blank_sheet, filled_sheet
from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES

SHEETS = 250
ROUNDS = 12
GOAL_RATIO = 2.0


def _best(action: Callable[[], object], repeat: int = 2) -> tuple[float, object]:
    best = float("inf")
    result: object = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - started)
    return best, result


def sample_records(count: int = SHEETS, rounds: int = ROUNDS) -> list:
    """Valid records of every game and player count, in turn."""
    kinds = [(key, n) for key, engine in ENGINES.items() for n in engine.player_counts]
    records = []
    for index in range(count):
        key, players = kinds[index % len(kinds)]
        sample = importlib.import_module(f"scoring.engines.samples.{key}")
        records.append(
            parse_record(sample.sample_record(rounds, seed=index, players=players), ENGINES)
        )
    return records


def straight_on_canvas(sheets: Sequence[Sheet], paper: str = "A4") -> bytes:
    """The floor: every sheet's text and rules drawn at fixed places, nothing measured."""
    register_fonts()
    width, height = PAPER_SIZES[paper]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, pageCompression=1)
    left, right, step = 30.0, width - 30.0, 14.0
    for sheet in sheets:
        y = height - 40
        canvas.setFont(BOLD, 16)
        canvas.drawString(left, y, sheet.title)
        canvas.setFont(REGULAR, 9)
        lines = [sheet.subtitle, *(f"{label}: {value}" for label, value in sheet.meta)]
        lines += [f"{seat.label} {seat.name} {seat.team}" for seat in sheet.seats]
        lines += [sheet.options_title, *sheet.options]
        for text in lines:
            y -= 11
            canvas.drawString(left, y, text)
        columns = [column for group in sheet.groups for column in group.columns]
        cell = (right - left - 30) / max(len(columns), 1)
        y -= step
        canvas.setFont(BOLD, 8)
        x = left + 30
        for group in sheet.groups:
            canvas.drawString(x, y + 10, group.title)
            for column in group.columns:
                canvas.drawString(x + 2, y, column.heading.replace("\n", " "))
                x += cell
        table_rows = [*sheet.rows, *([sheet.totals] if sheet.totals else [])]
        canvas.setFont(REGULAR, 9)
        top = y - 3
        rules: list[tuple[float, float, float, float]] = []
        for row in table_rows:
            y -= step
            if y < 60:
                canvas.lines(rules)
                rules = []
                canvas.showPage()
                canvas.setFont(REGULAR, 9)
                y = top = height - 40
            rules.append((left, y - 3, right, y - 3))
            canvas.drawString(left, y, row.label)
            x = left + 30
            for text in row.cells:
                canvas.drawString(x + 3, y, text)
                x += cell
        rules += [
            (left + 30 + i * cell, y - 3, left + 30 + i * cell, top) for i in range(len(columns))
        ]
        canvas.lines(rules)
        canvas.setFont(REGULAR, 8)
        for text in [
            sheet.result,
            *sheet.notes,
            sheet.reminder_title,
            *sheet.reminder,
            sheet.signatures_title,
            *sheet.signatures,
        ]:
            y -= 10
            if y < 40:
                canvas.showPage()
                canvas.setFont(REGULAR, 8)
                y = height - 40
            canvas.drawString(left, y, text)
        canvas.drawString(left, 20, sheet.footer)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def run() -> list[Row]:
    records = sample_records()
    build_time, built = _best(lambda: [filled_sheet(r) for r in records])
    sheets: list[Sheet] = list(built)  # type: ignore[call-overload]
    render_time, pdf = _best(lambda: render(sheets, "A4"))
    floor_time, floor = _best(lambda: straight_on_canvas(sheets, "A4"))
    blank = blank_sheet("roolz", 4)
    stack_time, _ = _best(lambda: render([blank] * SHEETS, "A4"))
    ratio = render_time / floor_time
    return [
        Row(
            "PDFs",
            f"{SHEETS} filled sheets rendered ({ROUNDS} rounds, every game and table size)",
            f"{render_time * 1000:.0f} ms ({len(pdf) / 1e6:.2f} MB)",  # type: ignore[arg-type]
            f"the same sheets straight on reportlab's canvas: {floor_time * 1000:.0f} ms "
            f"({len(floor) / 1e6:.2f} MB)",  # type: ignore[arg-type]
            f"at most {GOAL_RATIO:.0f}x the floor",
            ratio <= GOAL_RATIO,
            f"{ratio:.2f}x",
        ),
        Row(
            "PDFs",
            f"{SHEETS} filled sheets built (records scored, columns chosen)",
            f"{build_time * 1000:.0f} ms",
            f"{SHEETS / (build_time + render_time):.0f} sheets/s built and rendered",
        ),
        Row(
            "PDFs",
            f"{SHEETS} copies of one blank sheet",
            f"{stack_time * 1000:.0f} ms",
            "drawn once, placed on every page",
        ),
    ]


if __name__ == "__main__":
    for row in run():
        print(row.cells())
