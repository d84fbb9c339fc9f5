"""Scoresheet rendering: filled sheets per second, beside reportlab's own pace.

Figures printed:
- building the sheets (scoring the records and laying out the columns);
- rendering 250 filled sheets into one PDF, and the sheets per second that makes;
- reportlab drawing 250 plain pages (one line of text in the same embedded font);
- the ratio of the two renders: what our layout costs over bare reportlab;
- a stack of 250 copies of one blank sheet (drawn once, placed 250 times).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

from printing.render import plain_pages, render
from printing.scoresheets import blank_sheet, filled_sheet
from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES

SHEETS = 250
ROUNDS = 12


def _best(action: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
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


def run() -> None:
    records = sample_records()
    build_time, sheets = _best(lambda: [filled_sheet(r) for r in records])
    render_time, pdf = _best(lambda: render(sheets, "A4"))
    plain_time, plain = _best(lambda: plain_pages(SHEETS, "A4"))
    blank = blank_sheet("roolz", 4)
    stack_time, stack = _best(lambda: render([blank] * SHEETS, "A4"))
    total = build_time + render_time

    def megabytes(pdf_bytes: bytes) -> str:
        return f"{len(pdf_bytes) / 1e6:.2f} MB"

    print(f"   filled sheets: {SHEETS} ({ROUNDS} rounds each, every game and player count)")
    print(f"   build (score + lay out):         {build_time * 1000:8.1f} ms")
    print(
        f"   render {SHEETS} filled sheets:       {render_time * 1000:8.1f} ms  ({megabytes(pdf)})"
    )
    print(f"   filled sheets per second:        {SHEETS / total:8.1f}     (build + render)")
    print(
        f"   reportlab, {SHEETS} plain pages:     {plain_time * 1000:8.1f} ms  ({megabytes(plain)})"
    )
    print(f"   ratio, our render / plain pages: {render_time / plain_time:8.1f}x")
    print(
        f"   {SHEETS} copies of a blank sheet:    {stack_time * 1000:8.1f} ms  ({megabytes(stack)})"
    )


if __name__ == "__main__":
    run()
