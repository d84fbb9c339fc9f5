"""Bracket states per second: what one result entered at a table costs.

A bracket is stored as its inputs, so every request rebuilds its state from
them: the figure that matters is the time to derive a whole bracket of 128.
"""

from __future__ import annotations

import random
import time

from bench.figures import Row
from tournaments.brackets.core import (
    Bracket,
    Result,
    TableRules,
    double_elimination,
    report_results,
    single_elimination,
    table_elimination,
)

FIELD = 128
BUDGET_SECONDS = 1.0


def played_halfway(bracket: Bracket) -> Bracket:
    """Play random results until about half of the matches are decided."""
    rng = random.Random(1)
    state = bracket.state()
    while sum(view.finish != () for view in state.matches) < len(state.matches) // 2:
        results = []
        for view in state.ready:
            order = list(view.entrants)
            rng.shuffle(order)
            results.append(Result.ranked(view.id, *order))
        bracket = report_results(bracket, results)
        state = bracket.state()
    return bracket


def measure(bracket: Bracket) -> float:
    bracket.state()
    count = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < BUDGET_SECONDS:
        bracket.state()
        count += 1
    return elapsed / count * 1000


def run() -> list[Row]:
    seeds = [f"entrant {index}" for index in range(1, FIELD + 1)]
    cases: list[tuple[str, Bracket]] = [
        ("single elimination", single_elimination(seeds, third_place=True)),
        ("double elimination", double_elimination(seeds)),
        (
            "tables of 6, top 3",
            table_elimination(seeds, TableRules(6, 3, tuple(range(2, 9)))),
        ),
        (
            "tables of 4, top 1, places",
            table_elimination(seeds, TableRules(4, 1, tuple(range(2, 9))), placement_tables=True),
        ),
    ]
    rows = []
    for label, bracket in cases:
        halfway = played_halfway(bracket)
        rows.append(
            Row(
                "brackets",
                f"{label}, {FIELD} entrants half played: state derived",
                f"{measure(halfway):.2f} ms",
                f"{len(halfway.state().matches)} matches",
            )
        )
    return rows


if __name__ == "__main__":
    run()
