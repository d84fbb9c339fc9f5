"""How many tables of which sizes, and how many byes: the fewest byes the sizes allow."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from common.phrases import N_, Words
from tournaments.seating.core.types import TablePolicy, TableSplit

# (squared steps beyond the preferred size's neighbours, tables off the preferred size,
#  tables above it, squared distance from it in players): summed over the tables.
Key = tuple[int, int, int, int]


def _table_key(size: int, policy: TablePolicy) -> Key:
    """The cost of one table, added up over a round's tables and compared in order."""
    ordered = sorted(policy.legal_sizes)
    steps = abs(ordered.index(size) - ordered.index(policy.preferred))
    return (
        max(0, steps - 1) ** 2,
        1 if steps else 0,
        1 if size > policy.preferred else 0,
        (size - policy.preferred) ** 2,
    )


def _add(first: Key, second: Key) -> Key:
    return (
        first[0] + second[0],
        first[1] + second[1],
        first[2] + second[2],
        first[3] + second[3],
    )


def table_sizes(count: int, policy: TablePolicy) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes for ``count`` entrants.

    Only the policy's legal sizes are used (an event's allowed sizes, see
    ``TablePolicy.within``). Fewest byes first; then the fewest steps beyond the sizes
    next to the preferred one (a step further costs more than two tables one step
    away, so the sizes stay as even as the allowed sizes let them); then the fewest
    tables off the preferred size; then a size below the preferred one rather than
    above; then the sizes closest to the preferred one.
    """
    if count <= 0:
        return [], 0
    sizes = sorted(set(policy.legal_sizes))
    best: list[tuple[Key, int] | None] = [None] * (count + 1)
    best[0] = ((0, 0, 0, 0), 0)
    for total in range(1, count + 1):
        choice: tuple[Key, int] | None = None
        for size in sizes:
            if size > total:
                break
            before = best[total - size]
            if before is None:
                continue
            key = _add(before[0], _table_key(size, policy))
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


def sizes_text(sizes: Sequence[int]) -> str:
    """``[4, 5]`` -> "4, 5"; the sizes in increasing order."""
    return ", ".join(str(size) for size in sorted(set(sizes)))


LISTED_TABLES = 8  # more tables than this are counted by size in the report's words


def table_split(count: int, sizes: Sequence[int], byes: int, policy: TablePolicy) -> TableSplit:
    """The facts of a round's split: ``count`` players at tables of ``sizes`` with ``byes``."""
    counts = Counter(sizes)
    return TableSplit(
        players=count,
        tables=tuple((size, counts[size]) for size in sorted(counts, reverse=True)),
        byes=byes,
        allowed=tuple(sorted(set(policy.legal_sizes))),
        fewest=bool(byes) and byes == fewest_byes(count, policy),
    )


def split_words(count: int, sizes: Sequence[int], byes: int, policy: TablePolicy) -> Words:
    """Why the round has the tables it has, in the director's words (``split_sentence``)."""
    return split_sentence(table_split(count, sizes, byes, policy))


def split_sentence(split: TableSplit) -> Words:
    """A split's facts in the director's words: "14 players: tables of 5, 5, 4 (sizes
    allowed: 4, 5)"; when no split seats everyone, how many sit out and why. Words: the
    English text, with its template and values for each reader's language."""
    count = split.players
    players = Words(N_("{count} player") if count == 1 else N_("{count} players"), {"count": count})
    ordered = [size for size, many in split.tables for _ in range(many)]
    tables: Words
    if not ordered:
        tables = Words(N_("no table"))
    elif len(ordered) == 1:
        tables = Words(N_("a table of {size}"), {"size": ordered[0]})
    elif len(ordered) <= LISTED_TABLES:
        tables = Words(N_("tables of {sizes}"), {"sizes": ", ".join(map(str, ordered))})
    else:  # counted by size, so that the words stay short at any event's size
        parts = [
            Words(
                N_("{count} table of {size}") if many == 1 else N_("{count} tables of {size}"),
                {"count": many, "size": size},
            )
            for size, many in split.tables
        ]
        tables = parts[0]
        for part in parts[1:]:
            tables = Words(N_("{first} and {second}"), {"first": tables, "second": part})
    allowed = sizes_text(split.allowed)
    if not split.byes:
        return Words(
            N_("{players}: {tables} (sizes allowed: {allowed})"),
            {"players": players, "tables": tables, "allowed": allowed},
        )
    sitting = Words(N_("{tables} and {byes} sitting out"), {"tables": tables, "byes": split.byes})
    if split.fewest:
        return Words(
            N_(
                "{players}: {sitting}, as no split into the sizes allowed ({allowed}) "
                "seats all {count}"
            ),
            {"players": players, "sitting": sitting, "allowed": allowed, "count": count},
        )
    return Words(
        N_("{players}: {sitting} (sizes allowed: {allowed})"),
        {"players": players, "sitting": sitting, "allowed": allowed},
    )
