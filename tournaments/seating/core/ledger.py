"""What the history says: who met whom, who partnered whom, seats taken, byes had."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from tournaments.seating.core.types import EntrantId, PlayedRound, Sides, Table, TablePolicy

Pair = tuple[EntrantId, EntrantId]


def pair(a: EntrantId, b: EntrantId) -> Pair:
    return (a, b) if a < b else (b, a)


def side_pairs(table: Table, sides: Sides) -> Iterable[Pair]:
    """Partner pairs at a table: every two players on one side."""
    for group in sides:
        members = [table[seat] for seat in group if seat < len(table)]
        for a, b in combinations(members, 2):
            yield pair(a, b)


@dataclass
class Ledger:
    """Counts built from the history; updated in place as a dry run goes on."""

    met: Counter[Pair] = field(default_factory=Counter)
    partnered: Counter[Pair] = field(default_factory=Counter)
    seats: dict[EntrantId, Counter[int]] = field(default_factory=dict)
    byes: Counter[EntrantId] = field(default_factory=Counter)
    neighbours: dict[EntrantId, set[EntrantId]] = field(default_factory=dict)
    rounds: int = 0

    @classmethod
    def of(cls, history: Sequence[PlayedRound], policy: TablePolicy) -> Ledger:
        ledger = cls()
        for played in history:
            ledger.add(played.tables, played.byes, policy)
        return ledger

    def add(self, tables: Iterable[Table], byes: Iterable[EntrantId], policy: TablePolicy) -> None:
        self.rounds += 1
        for table in tables:
            for a, b in combinations(table, 2):
                self.met[pair(a, b)] += 1
                self.neighbours.setdefault(a, set()).add(b)
                self.neighbours.setdefault(b, set()).add(a)
            for p in side_pairs(table, policy.sides_at(len(table))):
                self.partnered[p] += 1
            for seat, entrant in enumerate(table):
                self.seats.setdefault(entrant, Counter())[seat] += 1
        for entrant in byes:
            self.byes[entrant] += 1

    def times_met(self, a: EntrantId, b: EntrantId) -> int:
        return self.met.get(pair(a, b), 0)

    def times_partnered(self, a: EntrantId, b: EntrantId) -> int:
        return self.partnered.get(pair(a, b), 0)

    def seat_count(self, entrant: EntrantId, seat: int) -> int:
        counts = self.seats.get(entrant)
        return counts[seat] if counts else 0
