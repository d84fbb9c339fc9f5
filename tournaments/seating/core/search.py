"""Greedy filling plus swap search: the general seating method behind mixer and swiss.

Cost of a table = weights.meet * sum over pairs of 2*(times met) (what the pair adds to
the sum of (times met)^2, less the constant every new pair adds), + weights.partner *
the same over partners (the best sharing into sides), + weights.keep_apart per broken
keep-apart pair, + weights.gap * the standings spread beyond the table's own size.
The search never leaves a table illegal: it only swaps units (an entrant, or a fixed
team kept together) of equal size between tables, so it always returns a legal round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from tournaments.seating.core.ledger import Ledger, pair
from tournaments.seating.core.seat_order import best_split
from tournaments.seating.core.types import EntrantId, TablePolicy, Weights

Unit = tuple[EntrantId, ...]

# Above this many seats the sharing into sides is too costly to weigh at every swap;
# seat_order still picks the sides with the fewest repeated partners.
PARTNER_SEARCH_SEATS = 6


@dataclass
class Coster:
    """Prices a set of entrants seated at one table."""

    ledger: Ledger
    policy: TablePolicy
    weights: Weights
    apart: frozenset[tuple[EntrantId, EntrantId]] = frozenset()
    ranks: Mapping[EntrantId, int] = field(default_factory=dict)
    blocks: dict[EntrantId, int] = field(default_factory=dict)
    _partner_cache: dict[frozenset[EntrantId], int] = field(default_factory=dict)

    def added(self, members: Sequence[EntrantId], newcomer: Sequence[EntrantId]) -> int:
        """What seating ``newcomer`` beside ``members`` adds in pairs and keep-apart terms."""
        met = self.ledger.met
        cost = 0
        for a in newcomer:
            for b in members:
                key = pair(a, b)
                times = met.get(key, 0)
                if times:
                    cost += self.weights.meet * 2 * times
                if key in self.apart:
                    cost += self.weights.keep_apart
        return cost

    def table(self, members: Sequence[EntrantId]) -> int:
        return self.conflicts(members) + self.gap(members)

    def gap(self, members: Sequence[EntrantId]) -> int:
        if self.weights.gap and self.ranks and len(members) > 1:
            ranks = [self.ranks[m] for m in members]
            return self.weights.gap * (max(ranks) - min(ranks) - (len(members) - 1))
        return 0

    def conflicts(self, members: Sequence[EntrantId]) -> int:
        """The cost of repeats, partners and keep-apart pairs: what swaps try to remove."""
        met = self.ledger.met
        apart = self.apart
        cost = 0
        for a, b in combinations(members, 2):
            key = pair(a, b)
            times = met.get(key, 0)
            if times:
                cost += self.weights.meet * 2 * times
            if key in apart:
                cost += self.weights.keep_apart
        sides = self.policy.sides_at(len(members))
        if sides and self.weights.partner and 2 < len(members) <= PARTNER_SEARCH_SEATS:
            key_set = frozenset(members)
            cached = self._partner_cache.get(key_set)
            if cached is None:
                _, cached = best_split(members, sides, self.ledger, self.blocks, limit=60)
                self._partner_cache[key_set] = cached
            cost += self.weights.partner * cached
        return cost


def greedy_fill(
    units: Sequence[Unit],
    sizes: Sequence[int],
    coster: Coster,
    fixed: Mapping[int, int],
    *,
    window: int = 48,
) -> list[list[Unit]]:
    """Fill tables in order, each with the unit that adds least among the next ``window``.

    ``units`` in the order to consider them; ``fixed``: unit index -> table index.
    When no remaining unit fits a table's last seats, a fixed team is split: the round
    stays legal.
    """
    tables: list[list[Unit]] = [[] for _ in sizes]
    free = [size for size in sizes]
    pending: list[Unit] = []
    for index, unit in enumerate(units):
        target = fixed.get(index)
        if target is not None and target < len(tables) and free[target] >= len(unit):
            tables[target].append(unit)
            free[target] -= len(unit)
        else:
            pending.append(unit)
    used = [False] * len(pending)
    start = 0
    for t, table in enumerate(tables):
        members = [m for u in table for m in u]
        while free[t] > 0:
            while start < len(pending) and used[start]:
                start += 1
            best_index, best_cost, seen = -1, 0, 0
            i = start
            while i < len(pending) and seen < window:
                if not used[i] and len(pending[i]) <= free[t]:
                    seen += 1
                    cost = coster.added(members, pending[i]) if members else 0
                    if best_index < 0 or cost < best_cost:
                        best_index, best_cost = i, cost
                        if cost == 0:
                            break
                i += 1
            if best_index < 0:
                # Nothing fits: break the first remaining team into single entrants.
                split_at = next(j for j in range(len(pending)) if not used[j])
                unit = pending[split_at]
                used[split_at] = True
                pending.extend((m,) for m in unit)
                used.extend([False] * len(unit))
                continue
            used[best_index] = True
            chosen = pending[best_index]
            table.append(chosen)
            members.extend(chosen)
            free[t] -= len(chosen)
    return tables


def swap_search(
    tables: list[list[Unit]],
    coster: Coster,
    movable: Callable[[Unit], bool],
    rng: random.Random,
    *,
    steps: int,
    reach: int | None = None,
    compatible: Callable[[Unit, Unit], bool] | None = None,
) -> list[list[Unit]]:
    """Swap units of equal size between tables while the total cost falls (or holds).

    Swaps start from a table with conflicts (repeats, partners, keep-apart); a swap that
    lowers the whole cost (standings gap included) is always taken, one that keeps it
    equal sometimes (to walk across plateaus). ``reach``: only swap with tables at most
    that many places away; ``compatible``: only swap units it accepts (swiss keeps each
    table's score groups). Deterministic for ``rng``'s seed.
    """
    count = len(tables)
    if count < 2 or steps <= 0:
        return tables
    members = [[m for u in table for m in u] for table in tables]
    costs = [coster.table(ms) for ms in members]
    bad: list[int] = []
    for step in range(steps):
        if step % 64 == 0:
            bad = [i for i in range(count) if coster.conflicts(members[i]) > 0]
        if not bad:
            break
        a = bad[rng.randrange(len(bad))]
        table_a = tables[a]
        choices = [i for i, u in enumerate(table_a) if movable(u)]
        if not choices:
            continue
        ia = choices[rng.randrange(len(choices))]
        unit_a = table_a[ia]
        if reach:
            near = [a + d for d in range(-reach, reach + 1) if d and 0 <= a + d < count]
            b = near[rng.randrange(len(near))]
        else:
            b = rng.randrange(count - 1)
            b += b >= a
        table_b = tables[b]
        options = [
            i
            for i, u in enumerate(table_b)
            if len(u) == len(unit_a)
            and movable(u)
            and (compatible is None or compatible(unit_a, u))
        ]
        if not options:
            continue
        ib = options[rng.randrange(len(options))]
        unit_b = table_b[ib]
        new_a = [m for m in members[a] if m not in unit_a] + list(unit_b)
        new_b = [m for m in members[b] if m not in unit_b] + list(unit_a)
        cost_a, cost_b = coster.table(new_a), coster.table(new_b)
        delta = cost_a + cost_b - costs[a] - costs[b]
        if delta < 0 or (delta == 0 and rng.random() < 0.3):
            table_a[ia], table_b[ib] = unit_b, unit_a
            members[a], members[b] = new_a, new_b
            costs[a], costs[b] = cost_a, cost_b
            if b not in bad and coster.conflicts(new_b) > 0:
                bad.append(b)
    return tables
