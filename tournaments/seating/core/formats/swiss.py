"""Swiss: tables filled from the top of the standings down, then swaps against repeats.

Score groups (the standings' points, else tables won), best first, each in standings
order; tables sliced from the top with the table sizes ordered to move the fewest
players out of their group (sort and cut); then swaps that trade nothing but repeats
and widen no table's spread of points. Byes go to the lowest ranked among those with
fewest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, groupby

from tournaments.seating.core.formats.base import (
    Seated,
    Seating,
    apart_pairs,
    blocks_of,
    fixed_units,
    make_units,
    sit_out,
)
from tournaments.seating.core.ledger import pair
from tournaments.seating.core.search import Coster, Unit, greedy_fill
from tournaments.seating.core.seat_order import seat_order
from tournaments.seating.core.types import (
    EntrantId,
    PlayedRound,
    RoundRequest,
    Table,
    Weights,
)


def plan(seating: Seating) -> Seated:
    request = seating.request
    ranks = ranks_of(request)
    field = sit_out(seating, preference=lambda e: -ranks[e])
    tables, method = seat(seating, field.seated, field.sizes, ranks)
    return Seated(tables=tables, byes=field.byes, method=method)


def ranks_of(request: RoundRequest) -> dict[EntrantId, int]:
    ranks: dict[EntrantId, int] = {}
    for entrant in request.standings:
        if entrant not in ranks:
            ranks[entrant] = len(ranks)
    for entrant in sorted(request.entrants):
        if entrant not in ranks:
            ranks[entrant] = len(ranks)
    return ranks


def wins_of(history: Sequence[PlayedRound]) -> Counter[EntrantId]:
    """Each entrant's score for swiss pairing: tables won so far."""
    return Counter(e for played in history for e in played.winners)


def order_sizes_by_groups(groups: Sequence[int], sizes: Sequence[int]) -> list[int]:
    """The order of the table sizes (top table first) that, sliced from the top of the
    standings, moves the fewest players out of their score group (``groups``: the
    group sizes, best first). A player is moved when a table seats them with a larger
    group than their own."""
    total = sum(groups)
    group_of: list[int] = [g for g, size in enumerate(groups) for _ in range(size)]
    kinds = sorted(set(sizes), reverse=True)
    counts = tuple(sizes.count(k) for k in kinds)
    states = 1
    for count in counts:
        states *= count + 1
    if len(kinds) == 1 or states > 200_000 or len(sizes) > 400 or total != sum(sizes):
        return sorted(sizes, reverse=True)

    def moved(start: int, size: int) -> int:
        seen = Counter(group_of[start : start + size])
        return size - max(seen.values())

    best: dict[tuple[int, ...], tuple[int, int]] = {}

    def solve(left: tuple[int, ...]) -> int:
        if not any(left):
            return 0
        if left in best:
            return best[left][0]
        start = total - sum(c * k for c, k in zip(left, kinds, strict=True))
        choice = (-1, -1)
        for index, kind in enumerate(kinds):
            if left[index]:
                rest = (*left[:index], left[index] - 1, *left[index + 1 :])
                cost = moved(start, kind) + solve(rest)
                if choice[0] < 0 or cost < choice[0]:
                    choice = (cost, index)
        best[left] = choice
        return choice[0]

    solve(counts)
    order: list[int] = []
    left = counts
    while any(left):
        index = best[left][1]
        order.append(kinds[index])
        left = (*left[:index], left[index] - 1, *left[index + 1 :])
    return order


def swiss_scores(request: RoundRequest) -> dict[EntrantId, float]:
    """What swiss groups by: the standings' points when given, else tables won so far
    (with neither, everyone is level: tables are cut from the standings order and any
    swap against a repeat is free)."""
    if request.scores:
        return {e: float(request.scores.get(e, 0.0)) for e in request.entrants}
    wins = wins_of(request.history)
    return {e: float(wins.get(e, 0)) for e in request.entrants}


SWISS_REACH = 30  # tables either side a repair may reach in a field of many tables
SWISS_PASSES = 50


def _swiss_search(
    tables: list[list[Unit]],
    coster: Coster,
    points: Mapping[EntrantId, float],
    movable: Callable[[Unit], bool],
) -> list[list[Unit]]:
    """Swaps of equal-sized units between tables against repeats and repeated partners,
    taking only a swap that widens no spread of points: the sum over the two tables of
    (most points - fewest points) stays or falls, so the tables are never looser than
    the sort and cut they start from. A pair kept apart is parted whatever the spread,
    at the least widening. Each table with a conflict takes the best swap within
    ``SWISS_REACH`` tables (tables are in standings order), pass after pass while any
    helps. Deterministic."""
    count = len(tables)
    apart = coster.apart

    def spread(members: Sequence[EntrantId]) -> float:
        values = [points[m] for m in members]
        return max(values) - min(values) if values else 0.0

    def parted(members: Sequence[EntrantId]) -> int:
        """Pairs kept apart that sit together here."""
        if not apart:
            return 0
        return sum(1 for a, b in combinations(members, 2) if pair(a, b) in apart)

    def weigh(members: Sequence[EntrantId]) -> tuple[int, int, float]:
        """(pairs kept apart together, other conflicts, spread of points)."""
        broken = parted(members)
        soft = coster.conflicts(members) - coster.weights.keep_apart * broken
        return broken, soft, spread(members)

    members = [[m for u in table for m in u] for table in tables]
    weights = [weigh(ms) for ms in members]

    def best_swap(a: int, b: int) -> tuple[tuple[float, float, float], int, int] | None:
        """The best swap between tables a and b that parts a pair kept apart, or removes
        a conflict widening nothing; None if there is none."""
        found = None
        for ia, unit_a in enumerate(tables[a]):
            if not movable(unit_a):
                continue
            for ib, unit_b in enumerate(tables[b]):
                if len(unit_b) != len(unit_a) or not movable(unit_b):
                    continue
                new_a = weigh([m for m in members[a] if m not in unit_a] + list(unit_b))
                new_b = weigh([m for m in members[b] if m not in unit_b] + list(unit_a))
                hard, soft, wider = (
                    new_a[i] + new_b[i] - weights[a][i] - weights[b][i] for i in range(3)
                )
                wider = round(wider, 9)
                if hard < 0:
                    key = (float(hard), wider, float(soft))
                elif hard == 0 and soft < 0 and wider <= 0:
                    key = (0.0, float(soft), wider)
                else:
                    continue
                if found is None or key < found[0]:
                    found = (key, ia, ib)
        return found

    def apply(a: int, b: int, ia: int, ib: int) -> None:
        unit_a, unit_b = tables[a][ia], tables[b][ib]
        tables[a][ia], tables[b][ib] = unit_b, unit_a
        members[a] = [m for m in members[a] if m not in unit_a] + list(unit_b)
        members[b] = [m for m in members[b] if m not in unit_b] + list(unit_a)
        weights[a], weights[b] = weigh(members[a]), weigh(members[b])

    for _ in range(SWISS_PASSES):
        improved = False
        for a in range(count):
            if not (weights[a][0] or weights[a][1]):
                continue
            near = range(max(0, a - SWISS_REACH), min(count, a + SWISS_REACH + 1))
            options = [(found, b) for b in near if b != a if (found := best_swap(a, b))]
            if options:
                found, b = min(options, key=lambda option: (option[0][0], option[1]))
                apply(a, b, found[1], found[2])
                improved = True
        if not improved:
            break
    return tables


def seat(
    seating: Seating,
    seated: list[EntrantId],
    sizes: list[int],
    ranks: Mapping[EntrantId, int],
) -> tuple[list[Table], str]:
    """Score groups (``swiss_scores``), best first, each in standings order; tables
    sliced from the top with the table sizes ordered to move the fewest players out of
    their group (sort and cut); then swaps against repeats that widen no table's
    spread of points (``_swiss_search``)."""
    request, ledger = seating.request, seating.ledger
    policy, constraints = request.policy, request.constraints
    w = request.weights
    weights = Weights(meet=max(w.meet, 1), partner=w.partner, seat=w.seat, keep_apart=w.keep_apart)
    blocks = blocks_of(constraints)
    coster = Coster(ledger, policy, weights, apart_pairs(constraints), blocks=blocks)
    points = swiss_scores(request)
    units = make_units(seated, constraints)

    def score(unit: Unit) -> float:
        return max(points[m] for m in unit)

    units.sort(key=lambda u: (-score(u), min(ranks[m] for m in u)))
    groups = [
        len(list(members)) for _, members in groupby(m for u in units for m in [score(u)] * len(u))
    ]
    order = order_sizes_by_groups(groups, sizes)
    fixed = fixed_units(units, constraints)
    filled = greedy_fill(units, order, coster, fixed, window=1)
    fixed_set = {units[i] for i in fixed}
    unit_points = {m: score(u) for u in units for m in u}
    filled = _swiss_search(filled, coster, unit_points, lambda unit: unit not in fixed_set)
    tables = [
        seat_order([m for u in t for m in u], policy.sides_at(sum(map(len, t))), ledger, blocks)
        for t in filled
    ]
    return tables, "swiss: score groups top down + swaps against repeats, no spread widened"
