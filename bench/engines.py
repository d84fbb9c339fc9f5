"""Scoring engines: a whole game rescored, beside one round scored from the kept state.

A round is recorded by scoring it from the state kept after the round before (the
whole game is rescored only for a correction or an undo), so the figures that
matter are the time per round of each, far below a millisecond.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

from bench.figures import Row
from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES

ROUNDS = 20
BUDGET_SECONDS = 0.5


def per_second(action: Callable[[], object], budget: float = BUDGET_SECONDS) -> float:
    action()  # warm up
    count = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < budget:
        action()
        count += 1
    return count / elapsed


def measure(key: str) -> dict[str, float]:
    sample = importlib.import_module(f"scoring.engines.samples.{key}").sample_record
    record = parse_record(sample(rounds=ROUNDS, seed=1), ENGINES).with_extras({})
    engine = ENGINES[key]
    rounds = len(record.rounds)
    head = record.with_rounds(record.rounds[:-1])
    state = engine.score(head).state or {}
    games = per_second(lambda: engine.score(record))
    steps = per_second(lambda: engine.score_next(head, state, rounds, record.rounds[-1]))
    return {
        "rounds": rounds,
        "whole_per_round_us": 1e6 / games / rounds,
        "whole_game_us": 1e6 / games,
        "step_us": 1e6 / steps,
    }


def run() -> list[Row]:
    rows = []
    for key in ENGINES:
        figures = measure(key)
        rows.append(
            Row(
                "engines",
                f"{key}: round {figures['rounds']:.0f} from the kept state",
                f"{figures['step_us']:.0f} µs",
                f"whole game of {figures['rounds']:.0f} rescored: "
                f"{figures['whole_game_us']:.0f} µs ({figures['whole_per_round_us']:.0f} µs/round)",
                "far below 1 ms",
                figures["step_us"] < 1000,
            )
        )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row.cells())
