"""How many tables of which sizes, and how many byes: the fewest byes the sizes allow."""

from __future__ import annotations

from tournaments.seating.core.types import TablePolicy

Key = tuple[int, int, int]


def _table_key(size: int, policy: TablePolicy) -> Key:
    """The cost of one table: (sizes beyond the neighbours, sizes off preferred, smaller first)."""
    ordered = sorted(policy.legal_sizes)
    steps = abs(ordered.index(size) - ordered.index(policy.preferred))
    return (1 if steps > 1 else 0, 1 if steps else 0, 1 if size > policy.preferred else 0)


def table_sizes(count: int, policy: TablePolicy) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes for ``count`` entrants.

    Fewest byes first; then the fewest tables more than one legal size away from the
    preferred size; then the fewest tables off the preferred size; then a size below
    the preferred one rather than above.
    """
    if count <= 0:
        return [], 0
    sizes = sorted(set(policy.legal_sizes))
    best: list[tuple[Key, int] | None] = [None] * (count + 1)
    best[0] = ((0, 0, 0), 0)
    for total in range(1, count + 1):
        choice: tuple[Key, int] | None = None
        for size in sizes:
            if size > total:
                break
            before = best[total - size]
            if before is None:
                continue
            own = _table_key(size, policy)
            key: Key = (before[0][0] + own[0], before[0][1] + own[1], before[0][2] + own[2])
            if choice is None or key < choice[0]:
                choice = (key, size)
        best[total] = choice
    for byes in range(count + 1):
        total = count - byes
        if best[total] is None:
            continue
        result: list[int] = []
        while total:
            step = best[total]
            assert step is not None
            result.append(step[1])
            total -= step[1]
        return sorted(result, reverse=True), byes
    raise AssertionError("unreachable: zero players always fit")  # pragma: no cover


def fewest_byes(count: int, policy: TablePolicy) -> int:
    return table_sizes(count, policy)[1]
