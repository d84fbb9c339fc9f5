"""Seat order at one table: sides that repeat partners least, seats and first dealer fair."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from itertools import combinations

from tournaments.seating.core.ledger import Ledger, pair
from tournaments.seating.core.types import EntrantId, Sides, Table

Split = tuple[tuple[EntrantId, ...], ...]  # members per side, in the order of the side groups

BLOCK_SPLIT_PENALTY = 1_000


def _splits(members: Sequence[EntrantId], sizes: Sequence[int]) -> Iterator[Split]:
    """Every way to share members among sides of these sizes (sides of equal size unordered)."""
    if not sizes:
        if not members:
            yield ()
        return
    size, rest_sizes = sizes[0], sizes[1:]
    first = members[0]
    others = members[1:]
    # The first member always joins the first side, which removes mirror images of sides.
    for chosen in combinations(others, size - 1):
        side = (first, *chosen)
        remaining = [m for m in others if m not in chosen]
        for rest in _splits(remaining, rest_sizes):
            yield (side, *rest)


def partner_cost(split: Split, ledger: Ledger) -> int:
    """Sum over partner pairs of 2 * (times partnered before): 0 when all partners are new."""
    return sum(2 * ledger.times_partnered(a, b) for side in split for a, b in combinations(side, 2))


def best_split(
    members: Sequence[EntrantId],
    sides: Sides,
    ledger: Ledger,
    blocks: dict[EntrantId, int],
    *,
    limit: int = 400,
) -> tuple[Split, int]:
    """The sharing of ``members`` among ``sides`` with the fewest repeated partners.

    ``blocks`` maps an entrant to its fixed team (an int); members of one team are kept
    on one side whenever the side is large enough. Returns the split and its cost.
    """
    sizes = [len(group) for group in sides]
    if len(set(sizes)) != 1:
        order = sorted(range(len(sides)), key=lambda i: -sizes[i])
        sizes = [sizes[i] for i in order]
    best: Split | None = None
    best_cost = 0
    for count, split in enumerate(_splits(list(members), sizes)):
        if count >= limit and best is not None:
            break
        cost = partner_cost(split, ledger)
        if blocks:
            side_of = {m: i for i, side in enumerate(split) for m in side}
            for a, b in combinations(members, 2):
                if a in blocks and blocks[a] == blocks.get(b) and side_of[a] != side_of[b]:
                    cost += BLOCK_SPLIT_PENALTY
        if best is None or cost < best_cost:
            best, best_cost = split, cost
            if cost == 0:
                break
    assert best is not None
    return best, best_cost


def seat_order(
    members: Sequence[EntrantId],
    sides: Sides,
    ledger: Ledger,
    blocks: dict[EntrantId, int] | None = None,
    split: Split | None = None,
) -> Table:
    """Seat-ordered table: partners as new as possible, then seats and first dealer fair.

    Seat 0 (first dealer) goes to the member who has sat there least; every later seat
    to the member (of the side that seat belongs to) who has sat there least. Ties go
    to the lower id, so the result is deterministic.
    """
    members = list(members)
    size = len(members)
    if not sides:
        groups: list[list[EntrantId]] = [sorted(members)]
        seat_side = [0] * size
    else:
        if split is None:
            split, _ = best_split(members, sides, ledger, blocks or {})
        # Match the split's sides to the seat groups of equal size (largest first).
        by_size = sorted(range(len(sides)), key=lambda i: -len(sides[i]))
        groups = [[] for _ in sides]
        for side_members, group_index in zip(split, by_size, strict=True):
            groups[group_index] = sorted(side_members)
        seat_side = [0] * size
        for index, group in enumerate(sides):
            for seat in group:
                seat_side[seat] = index
        # The member who has dealt first least picks the side of seat 0; sides of one
        # size are interchangeable, so swap them to put that member's side at seat 0.
        first = min(members, key=lambda m: (ledger.seat_count(m, 0), m))
        home = seat_side[0]
        mine = next(i for i, g in enumerate(groups) if first in g)
        if mine != home and len(groups[mine]) == len(groups[home]):
            groups[mine], groups[home] = groups[home], groups[mine]
    table: list[EntrantId] = [-1] * size
    pools = [list(g) for g in groups]
    for seat in range(size):
        pool = pools[seat_side[seat]]
        chosen = min(pool, key=lambda m: (ledger.seat_count(m, seat), m))
        pool.remove(chosen)
        table[seat] = chosen
    return tuple(table)


def split_of(table: Table, sides: Sides) -> Split:
    return tuple(tuple(table[seat] for seat in group) for group in sides)


def repeated(
    table: Table, sides: Sides, ledger: Ledger, teammates: Collection[tuple[int, int]] = ()
) -> tuple[int, int]:
    """(pairs at this table who met before, partner pairs who partnered before).

    Fixed teammates are meant to sit together every round and are not counted.
    """

    def again(counts: Mapping[tuple[int, int], int], a: EntrantId, b: EntrantId) -> bool:
        key = pair(a, b)
        return bool(counts.get(key)) and key not in teammates

    pairs = sum(1 for a, b in combinations(table, 2) if again(ledger.met, a, b))
    partners = 0
    for group in sides:
        members = [table[seat] for seat in group]
        partners += sum(1 for a, b in combinations(members, 2) if again(ledger.partnered, a, b))
    return pairs, partners
