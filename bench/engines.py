"""Games scored per second: a 20-round game of each kind, rescored whole.

A table-side request rescores the whole game, so the figure that matters is the
time per round, which must stay far below a millisecond.
"""

from __future__ import annotations

import importlib
import time

from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES

ROUNDS = 20
BUDGET_SECONDS = 1.0


def measure(key: str) -> dict[str, float]:
    sample = importlib.import_module(f"scoring.engines.samples.{key}").sample_record
    record = parse_record(sample(rounds=ROUNDS, seed=1), ENGINES)
    engine = ENGINES[key]
    engine.score(record)  # warm up
    games = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < BUDGET_SECONDS:
        engine.score(record)
        games += 1
    rounds = len(record.rounds)
    return {
        "rounds": rounds,
        "games_per_second": games / elapsed,
        "microseconds_per_round": elapsed / games / rounds * 1e6,
    }


def run() -> None:
    print("Scoring engines: a whole game rescored, as a table-side request does")
    print(f"{'game':<14}{'rounds':>7}{'games/s':>11}{'µs/round':>10}")
    for key in ENGINES:
        figures = measure(key)
        print(
            f"{key:<14}{figures['rounds']:>7}{figures['games_per_second']:>11.0f}"
            f"{figures['microseconds_per_round']:>10.1f}"
        )
    print("(Roller Derby has at most 8 deals; the others play 20 rounds.)\n")


if __name__ == "__main__":
    run()
