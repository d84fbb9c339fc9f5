"""A standings value as people read it: the one place its figures are rounded.

Whole numbers print plain, others to two places rounded half up (70.625 prints as
70.63, as a director rounding by hand would; Python's own rounding of the float gives
70.62). The value is read from its shortest decimal form, so a float that prints as
70.625 rounds as 70.625 does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal

PLACES = Decimal("0.01")


def metric_text(value: float | None, missing: str = "\N{EN DASH}") -> str:
    """``value`` as shown in the standings; ``missing`` for no value at all."""
    if value is None:
        return missing
    if float(value).is_integer():
        return str(int(value))
    shown = Decimal(repr(float(value))).quantize(PLACES, rounding=ROUND_HALF_UP)
    return str(int(shown)) if shown == shown.to_integral_value() else f"{shown}"


def columns_with_values(rows: Iterable[Sequence[float | None]], count: int) -> list[int]:
    """The indexes (of ``count`` columns) that hold a value in at least one row: a
    column with no value in any row (a tiebreak not yet needed, all dashes) is left out
    of the table shown. Every column, when there is no row."""
    rows = list(rows)
    if not rows:
        return list(range(count))
    return [i for i in range(count) if any(row[i] is not None for row in rows)]
