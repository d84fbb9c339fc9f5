"""The bench's one table: each row in its place, its verdict from its goal, text and Markdown."""

from __future__ import annotations

import pytest

from bench.figures import HEADINGS, Row, markdown_table, text_table

ROWS = [
    Row("engines", "roolz: round 20", "140 µs", "whole game 900 µs", "far below 1 ms", True),
    Row("round entry", "cost growth", "22.9 ms", "28.4 ms", "<= 1.2", False, "1.31"),
    Row("round entry", "rounds/s", "-", "", ">= 0.5", None, "not measured: PostgreSQL absent"),
    Row("standings", "a | pipe", "390 ms"),
]


@pytest.mark.parametrize(
    ("row", "verdict"),
    [
        (ROWS[0], "met"),
        (ROWS[1], "SHORT (1.31)"),
        (ROWS[2], "not measured: PostgreSQL absent"),
        (ROWS[3], ""),
    ],
)
def test_a_verdict_comes_from_the_goal_and_the_note(row, verdict):
    assert row.cells()[-1] == verdict


def test_the_text_table_lines_up_every_column():
    lines = text_table(ROWS).splitlines()
    assert len(lines) == 2 + len(ROWS)
    starts = [lines[0].index(heading) for heading in HEADINGS]
    for line, row in zip(lines[2:], ROWS, strict=True):
        for start, cell in zip(starts, row.cells(), strict=True):
            if cell:
                assert line[start : start + len(cell)] == cell


def test_the_markdown_table_has_one_line_per_row_and_escapes_pipes():
    lines = markdown_table(ROWS).splitlines()
    assert len(lines) == 2 + len(ROWS)
    assert all(line.count(" | ") == len(HEADINGS) - 1 for line in lines)
    assert "a \\| pipe" in lines[-1]
