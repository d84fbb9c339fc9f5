"""Lower bounds and the quality report: what no seating can beat, and what ours reached."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from tournaments.seating.core.designs import repeat_free_round_limit
from tournaments.seating.core.ledger import Ledger
from tournaments.seating.core.types import EntrantId, PlayedRound, RoundReport, Table


def spread_pairs(count: int, tables: int) -> int:
    """Fewest pairs left together when ``count`` players are shared among ``tables`` tables."""
    if tables <= 0:
        return comb(count, 2)
    share, extra = divmod(count, tables)
    return extra * comb(share + 1, 2) + (tables - extra) * comb(share, 2)


def round_lower_bound(
    seated: Iterable[EntrantId],
    sizes: Sequence[int],
    history: Sequence[PlayedRound],
    ledger: Ledger,
) -> int:
    """Fewest repeated pairs any round with these table sizes can have after ``history``.

    The larger of two proven bounds: (1) table-mates of one earlier round must be shared
    among this round's tables, and players of one earlier table left together form
    repeated pairs (a repeat-free second round needs k*k players at tables of k);
    (2) a player who has met all but u of this round's players sits with at least
    (smallest table - 1 - u) old acquaintances; (3) ``net_bound``.
    """
    present = set(seated)
    if not sizes or not present:
        return 0
    tables = len(sizes)
    by_rounds = 0
    for played in history:
        bound = 0
        for table in played.tables:
            here = sum(1 for entrant in table if entrant in present)
            bound += spread_pairs(here, tables)
        by_rounds = max(by_rounds, bound)
    smallest = min(sizes)
    forced = 0
    for entrant in present:
        known = ledger.neighbours.get(entrant)
        met_here = len(known & present) if known else 0
        unmet = len(present) - 1 - met_here
        forced += max(0, smallest - 1 - unmet)
    return max(by_rounds, (forced + 1) // 2, net_bound(present, sizes, history))


def _orthogonal(one: Sequence[Table], two: Sequence[Table]) -> bool:
    """No two players share a table in both rounds."""
    where = {entrant: index for index, table in enumerate(one) for entrant in table}
    return all(len({where[e] for e in table}) == len(table) for table in two)


def net_bound(present: set[EntrantId], sizes: Sequence[int], history: Sequence[PlayedRound]) -> int:
    """1 where this round cannot avoid a repeat because too many earlier rounds of the
    same k*k players at k tables of k met nobody twice among themselves (36 at tables
    of 6: no 4 such rounds exist, ``repeat_free_round_limit``); else 0."""
    k = sizes[0] if sizes else 0
    limit = repeat_free_round_limit(len(present), k)
    if limit is None or list(sizes) != [k] * k:
        return 0
    full = [
        played.tables
        for played in history
        if [len(t) for t in played.tables] == [k] * k
        and {e for t in played.tables for e in t} == present
    ]
    for chosen in combinations(full, limit):
        if all(_orthogonal(a, b) for a, b in combinations(chosen, 2)):
            return 1
    return 0


def fresh_lower_bound(
    count: int,
    sizes: Sequence[int],
    round_index: int,
    previous: Sequence[int] | None = None,
) -> int:
    """The pigeonhole bound for round ``round_index`` (0-based) of any schedule.

    Whatever the earlier rounds were, the round before had tables of sizes ``previous``
    (default: these sizes), whose players must be shared among this round's tables or
    sit out: a table of s players leaves at least ``spread_pairs(s - byes, tables)``
    pairs together however many of the round's byes it takes. Summing each earlier
    table's own least is a bound for all of them at once.
    """
    if round_index == 0 or not sizes:
        return 0
    earlier = sizes if previous is None else previous
    byes = max(count - sum(sizes), 0)
    return sum(spread_pairs(max(size - byes, 0), len(sizes)) for size in earlier)


def schedule_lower_bound(count: int, rounds_sizes: Sequence[Sequence[int]]) -> int:
    """Fewest repeated pairs any schedule of these rounds can have, summed over rounds.

    The largest of the per-round pigeonhole bounds (each against the round before, byes
    and uneven tables counted), the count bound (every seating of a pair beyond the
    first is a repeat, and there are only count*(count-1)/2 pairs) and, where a design
    is known not to exist, the nets bound (36 at tables of 6: one repeat in every 4
    rounds).
    """
    by_rounds = sum(
        fresh_lower_bound(count, sizes, i, rounds_sizes[i - 1] if i else None)
        for i, sizes in enumerate(rounds_sizes)
    )
    meetings = sum(comb(size, 2) for sizes in rounds_sizes for size in sizes)
    return max(by_rounds, meetings - comb(count, 2), _nets_bound(count, rounds_sizes))


def _nets_bound(count: int, rounds_sizes: Sequence[Sequence[int]]) -> int:
    """Where k*k players at k tables of k can play at most ``limit`` rounds with no
    repeat (36 at 6: 3), every ``limit`` + 1 such rounds hold a pair met twice, its
    second meeting in one of them: disjoint sets of rounds give distinct repeats."""
    full = [sizes for sizes in rounds_sizes if sizes and list(sizes) == [sizes[0]] * sizes[0]]
    k = full[0][0] if full else 0
    limit = repeat_free_round_limit(count, k)
    if limit is None:
        return 0
    return sum(1 for sizes in full if sizes[0] == k) // (limit + 1)


def bye_spread(entrants: Iterable[EntrantId], ledger: Ledger) -> int:
    counts = [ledger.byes.get(e, 0) for e in entrants]
    return max(counts) - min(counts) if counts else 0


def keep_apart_broken(tables: Iterable[Table], apart: Iterable[tuple[int, int]]) -> int:
    where = {entrant: index for index, table in enumerate(tables) for entrant in table}
    return sum(1 for a, b in apart if a in where and where.get(a) == where.get(b))


@dataclass(frozen=True)
class ScheduleReport:
    """Totals over a whole dry run: the figures the director and the benchmark read.

    ``lower_bound``: fewest repeated pairs any schedule with the same table sizes
    could have (``schedule_lower_bound``).
    ``most_met`` / ``most_partnered``: the most times any one pair met / partnered.
    """

    rounds: int
    repeated_pairs: int
    repeated_partners: int
    lower_bound: int
    bye_spread: int
    keep_apart_broken: int
    most_met: int
    most_partnered: int
    seconds: float
    per_round: tuple[RoundReport, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "rounds": [r.as_dict() for r in self.per_round],
            "total": {
                "rounds": self.rounds,
                "repeated_pairs": self.repeated_pairs,
                "repeated_partners": self.repeated_partners,
                "lower_bound": self.lower_bound,
                "bye_spread": self.bye_spread,
                "keep_apart_broken": self.keep_apart_broken,
                "most_met": self.most_met,
                "most_partnered": self.most_partnered,
                "seconds": round(self.seconds, 4),
            },
        }


def points_gap(tables: Iterable[Table], points: Mapping[EntrantId, float]) -> float:
    """The mean over tables of the spread in points (most less fewest) at the table: how
    evenly a swiss round matches players of equal score."""
    gaps = [
        max(points.get(e, 0) for e in table) - min(points.get(e, 0) for e in table)
        for table in tables
        if table
    ]
    return sum(gaps) / len(gaps) if gaps else 0.0
