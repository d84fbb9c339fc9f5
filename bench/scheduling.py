"""Seating figures side by side: our engine, a plain greedy fill, and 1000 random tries.

"1000 random tries" is what Match Play Events does (draw 1000 random groupings a round,
keep the one with the fewest repeats); "plain greedy" fills each table with whoever
has met its players least (among the next 200 in a random order), with no search.
All three run here, in the same process.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import TypeVar

from bench.figures import Row
from tournaments.seating.adapter import table_policy
from tournaments.seating.core import TablePolicy, plan_schedule
from tournaments.seating.core.sizes import table_sizes

Round = list[tuple[int, ...]]
T = TypeVar("T")
Baseline = Callable[[int, TablePolicy, int, int], list[Round]]

RANDOM_TRIES = 1000
RANDOM_TRIES_LIMIT = 200  # players: beyond this the random baseline takes minutes
GREEDY_WINDOW = 200  # plain greedy looks at every remaining player, up to this many


def repeated_pairs(rounds: list[Round]) -> int:
    met: Counter[tuple[int, int]] = Counter()
    repeats = 0
    for tables in rounds:
        for seated in tables:
            for a, b in combinations(sorted(seated), 2):
                repeats += 1 if met[(a, b)] else 0
                met[(a, b)] += 1
    return repeats


def plain_greedy(players: int, policy: TablePolicy, rounds: int, seed: int) -> list[Round]:
    rng = random.Random(seed)
    sizes, byes = table_sizes(players, policy)
    met: Counter[tuple[int, int]] = Counter()
    schedule: list[Round] = []
    for number in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        rest = order[byes:] if byes else order
        tables: Round = []
        for size in sizes:
            table = [rest.pop(0)]
            while len(table) < size:
                best = min(
                    rest[:GREEDY_WINDOW],
                    key=lambda p: sum(met[(min(p, q), max(p, q))] for q in table),
                )
                rest.remove(best)
                table.append(best)
            tables.append(tuple(table))
        for seated in tables:
            for a, b in combinations(sorted(seated), 2):
                met[(a, b)] += 1
        schedule.append(tables)
        del number
    return schedule


def random_tries(players: int, policy: TablePolicy, rounds: int, seed: int) -> list[Round]:
    rng = random.Random(seed)
    sizes, byes = table_sizes(players, policy)
    met: Counter[tuple[int, int]] = Counter()
    schedule: list[Round] = []
    for _ in range(rounds):
        best: Round = []
        best_repeats = -1
        for _ in range(RANDOM_TRIES):
            order = list(range(players))
            rng.shuffle(order)
            order = order[byes:]
            tables: Round = []
            start = 0
            for size in sizes:
                tables.append(tuple(sorted(order[start : start + size])))
                start += size
            repeats = sum(1 for t in tables for a, b in combinations(t, 2) if met[(a, b)])
            if best_repeats < 0 or repeats < best_repeats:
                best, best_repeats = tables, repeats
                if repeats == 0:
                    break
        for table in best:
            for a, b in combinations(table, 2):
                met[(a, b)] += 1
        schedule.append(best)
    return schedule


def timed(work: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started


ROWS: list[Row] = []


def line(label: str, ours: str, greedy: str, tries: str, goal: str, extra: str = "") -> None:
    """One row: ours beside a plain greedy seating and random tries; the goal and its verdict."""
    beside = f"plain greedy {greedy}" + ("" if tries == "-" else f"; random tries {tries}")
    ROWS.append(
        Row(
            "scheduling",
            label,
            ours,
            beside + (f"; {extra}" if extra else ""),
            goal,
            "SHORT" not in goal,
        )
    )


def compare(
    label: str, players: int, rounds: int, policy: TablePolicy, goal: str, limit: float
) -> None:
    schedule, seconds = timed(lambda: plan_schedule(list(range(players)), policy, rounds, seed=1))
    report = schedule.report
    methods = sorted({p.report.method for p in schedule.rounds})
    ours = f"{report.repeated_pairs} rep, {seconds:.3f}s"
    search, search_seconds = timed(
        lambda: plan_schedule(list(range(players)), policy, rounds, seed=1, constructions=False)
    )
    greedy_rounds, greedy_seconds = timed(lambda: plain_greedy(players, policy, rounds, 1))
    greedy = f"{repeated_pairs(greedy_rounds)} rep, {greedy_seconds:.2f}s"
    if players <= RANDOM_TRIES_LIMIT:
        tries_rounds, tries_seconds = timed(lambda: random_tries(players, policy, rounds, 1))
        tries = f"{repeated_pairs(tries_rounds)} rep, {tries_seconds:.2f}s"
    else:
        tries = "not run (minutes)"
    ok = report.repeated_pairs == 0 and seconds < limit
    extra = (
        f"by {', '.join(methods)}; greedy+swaps alone "
        f"{search.report.repeated_pairs} rep in {search_seconds:.3f}s; "
        f"lower bound {report.lower_bound}"
    )
    line(label, ours, greedy, tries, f"{goal}: {'met' if ok else 'SHORT'}", extra)


def whist_figures() -> None:
    policy = table_policy("roller_derby")
    for players in (8, 12, 16, 20, 24):
        schedule, seconds = timed(
            partial(plan_schedule, list(range(players)), policy, players - 1, seed=1)
        )
        opponents: Counter[frozenset[int]] = Counter()
        for plan in schedule.rounds:
            for a, b, c, d in plan.tables:
                opponents.update(frozenset(p) for p in ((a, b), (b, c), (c, d), (d, a)))
        twice = len(opponents) == players * (players - 1) // 2 and set(opponents.values()) == {2}
        greedy = plan_schedule(
            list(range(players)), policy, players - 1, seed=1, constructions=False
        )
        report = schedule.report
        verdict = "met" if not report.repeated_partners and twice else "SHORT"
        line(
            f"Roller Derby partners n={players}",
            f"{report.repeated_partners} rep partners, {seconds:.3f}s",
            f"{greedy.report.repeated_partners} (greedy+swaps)",
            "-",
            f"0 and opponents twice: {verdict}",
        )


def byes_figures() -> None:
    for game, players in (("rummoli", 27), ("roolz", 21)):
        schedule = plan_schedule(list(range(players)), table_policy(game), 5, seed=1)
        plan = schedule.rounds[0]
        sizes = "+".join(str(len(t)) for t in plan.tables)
        line(
            f"{game} {players} players",
            f"{len(plan.byes)} byes ({sizes})",
            "-",
            "-",
            f"0 byes: {'met' if not plan.byes else 'SHORT'}; 5 rounds "
            f"{schedule.report.repeated_pairs} rep",
        )


def rook_sluff_figures() -> None:
    for size in (10, 8):
        policy = table_policy("rook_sluff").only(size)
        schedule = plan_schedule(list(range(40)), policy, 4, seed=1)
        per_round = ", ".join(
            f"{p.report.repeated_pairs}/{p.report.lower_bound}" for p in schedule.rounds[1:]
        )
        greedy = plain_greedy(40, policy, 4, 1)
        tries = random_tries(40, policy, 4, 1)
        second = schedule.rounds[1].report
        line(
            f"Rook Sluff 40 at {size}, 4 rounds",
            f"{schedule.report.repeated_pairs} rep (bound {schedule.report.lower_bound})",
            f"{repeated_pairs(greedy)} rep",
            f"{repeated_pairs(tries)} rep",
            f"round 2 at bound: {'met' if second.repeated_pairs == second.lower_bound else 'SHORT'}"
            f"; rounds 2-4 rep/bound {per_round}",
        )


def run() -> list[Row]:
    ROWS.clear()
    square = TablePolicy((4,), 4)
    compare("16 x 5 rounds", 16, 5, square, "0 repeats", 1.0)
    compare("32 x 9 rounds", 32, 9, square, "0 repeats", 1.0)
    compare("32 x 10 rounds (record: 10 with 0)", 32, 10, square, "0 repeats", 1.0)
    compare("200 x 10 rounds", 200, 10, square, "0 repeats under 0.2 s", 0.2)
    compare("1000 x 10 rounds", 1000, 10, square, "0 repeats under 1 s", 1.0)
    compare("10,000 x 10 rounds", 10_000, 10, square, "0 repeats under 10 s", 10.0)
    whist_figures()
    byes_figures()
    rook_sluff_figures()
    return list(ROWS)
