"""Standings of a large event recomputed from plain data: 1000 entrants, 10 rounds.

Each round seats everyone at 250 tables of four (2500 table games in all, 10 000
seats), with Roolz-like totals that can go negative. The figure to compare is
the time of ``compute_standings`` against a plain read of the same rows; the
time to turn engine totals into table results is shown apart.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from bench.figures import Row
from tournaments.standings.core import (
    Entrant,
    EventResults,
    RoundResults,
    TableResult,
    compute_standings,
    default_rules,
    table_from_game,
)

ENTRANTS = 1000
ROUNDS = 10
TABLE_SIZE = 4
REPEATS = 7


def engine_totals(seed: int = 1) -> list[list[tuple[list[int], list[int]]]]:
    """Per round, per table: the entrants by seat and their final totals."""
    rng = random.Random(seed)
    ids = list(range(1, ENTRANTS + 1))
    rounds = []
    for _ in range(ROUNDS):
        rng.shuffle(ids)
        tables = []
        for start in range(0, ENTRANTS, TABLE_SIZE):
            seated = ids[start : start + TABLE_SIZE]
            tables.append((seated, [rng.randrange(-200, 600, 10) for _ in seated]))
        rounds.append(tables)
    return rounds


def event_from(totals: list[list[tuple[list[int], list[int]]]]) -> EventResults:
    rounds = []
    for number, tables in enumerate(totals, start=1):
        results: list[TableResult] = [
            table_from_game(number=i, entrants=seated, totals=points)
            for i, (seated, points) in enumerate(tables, start=1)
        ]
        rounds.append(RoundResults(number=number, tables=tuple(results)))
    entrants = tuple(Entrant(id=i, name=f"Player {i:04d}") for i in range(1, ENTRANTS + 1))
    return EventResults(entrants=entrants, rounds=tuple(rounds))


def best_of(repeats: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def run() -> list[Row]:
    totals = engine_totals()
    tables = sum(len(r) for r in totals)
    event = event_from(totals)
    rules = default_rules("roolz")
    convert = best_of(REPEATS, lambda: event_from(totals))
    compute = best_of(REPEATS, lambda: compute_standings(event, rules))
    scale = f"{ENTRANTS} entrants x {ROUNDS} rounds ({tables} table games)"
    return [
        Row(
            "standings",
            f"standings computed, {scale}, Roolz defaults",
            f"{compute * 1000:.1f} ms",
            f"engine totals to table results: {convert * 1000:.1f} ms",
        )
    ]


if __name__ == "__main__":
    for row in run():
        print(row.cells())
