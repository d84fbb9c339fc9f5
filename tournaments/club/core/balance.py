"""Ratings put to use in seating: an order of seeds, and balanced tables.

Balanced tables deal the players out in tiers of strength (as many players a tier as
there are tables): each table takes one player of each tier, so strong players are
spread across the tables; within a tier each player goes to the table where they have
met the fewest of those already seated (so rounds after the first still mix), and of
those to the weakest table so far.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PlayerId = int


def seed_order(players: Sequence[PlayerId], strength: Mapping[PlayerId, float]) -> list[PlayerId]:
    """Strongest first; players with no rating after the rated, in their given order."""
    position = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (p not in strength, -strength.get(p, 0.0), position[p]))


@dataclass(frozen=True)
class BalancedTables:
    tables: tuple[tuple[PlayerId, ...], ...]
    means: tuple[float | None, ...]  # each table's mean rating (None: nobody rated)

    @property
    def spread(self) -> float:
        """The gap between the strongest and weakest table's mean rating."""
        known = [m for m in self.means if m is not None]
        return max(known) - min(known) if known else 0.0


def table_means(
    tables: Sequence[Sequence[PlayerId]], strength: Mapping[PlayerId, float]
) -> tuple[float | None, ...]:
    means: list[float | None] = []
    for table in tables:
        rated = [strength[p] for p in table if p in strength]
        means.append(sum(rated) / len(rated) if rated else None)
    return tuple(means)


def balanced_tables(
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    strength: Mapping[PlayerId, float],
    met: Mapping[frozenset[PlayerId], int] | None = None,
) -> BalancedTables:
    """Seat ``players`` at tables of ``sizes`` (which must add up to the players)."""
    if sum(sizes) != len(players):
        raise ValueError("the table sizes must seat every player")  # a bug of the caller
    met = met or {}
    order = seed_order(players, strength)
    count = len(sizes)
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    for start in range(0, len(order), count):
        tier = order[start : start + count]
        taken: set[int] = set()
        for player in tier:
            free = [t for t in range(count) if t not in taken and len(tables[t]) < sizes[t]] or [
                t for t in range(count) if len(tables[t]) < sizes[t]
            ]

            def cost(t: int, player: PlayerId = player) -> tuple[int, float, int, int]:
                meetings = sum(met.get(frozenset((player, other)), 0) for other in tables[t])
                weight = sum(strength.get(other, 0.0) for other in tables[t])
                # Fewest meetings, then the weakest table so far (the strongest of a
                # tier joins the weakest table: a snake), then the most room left.
                return (meetings, weight, len(tables[t]) - sizes[t], t)

            choice = min(free, key=cost)
            tables[choice].append(player)
            taken.add(choice)
    seated = tuple(tuple(t) for t in tables)
    return BalancedTables(seated, table_means(seated, strength))
