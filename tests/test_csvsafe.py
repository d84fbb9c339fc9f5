"""The OWASP rule for CSV cells: nothing a spreadsheet would run, every text kept."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from common.csvsafe import FORMULA_STARTS, safe_cell, writer

cells = st.one_of(
    st.text(),
    st.sampled_from(FORMULA_STARTS).flatmap(lambda start: st.text().map(lambda t: start + t)),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
)


def written(row: list) -> list[str]:
    out = io.StringIO()
    writer(out).writerow(row)
    return next(csv.reader(io.StringIO(out.getvalue(), newline="")))


@given(st.lists(cells, min_size=1, max_size=6))
def test_no_text_cell_reads_as_a_formula_and_each_keeps_its_text(row):
    back = written(row)
    assert len(back) == len(row)
    for original, cell in zip(row, back, strict=True):
        if isinstance(original, str):
            assert not cell.startswith(FORMULA_STARTS)
            # The apostrophe is the only change, and only where it was needed.
            kept = cell[1:] if original.startswith(FORMULA_STARTS) else cell
            assert kept == original
        else:
            assert float(cell) == float(original)


def test_the_known_attacks_are_neutralised():
    for name in ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1:A2)", "\tTab", "\rCR"]:
        assert safe_cell(name) == "'" + name


def test_ordinary_names_and_numbers_are_untouched():
    assert safe_cell("Léa") == "Léa"
    assert safe_cell("O'Neil") == "O'Neil"
    assert safe_cell(-135) == -135
    assert safe_cell(2.5) == 2.5
