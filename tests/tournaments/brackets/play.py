"""Playing a bracket to its end with drawn results, for the bracket tests and benchmark."""

from __future__ import annotations

import random

from tournaments.brackets.core import Bracket, BracketState, Result, report_results


def random_finish(entrants: tuple[str, ...], rng: random.Random, ties: bool) -> Result:
    order = list(entrants)
    rng.shuffle(order)
    groups: list[tuple[str, ...]] = []
    for name in order:
        if ties and groups and rng.random() < 0.25:
            groups[-1] = (*groups[-1], name)
        else:
            groups.append((name,))
    return Result(match="", finish=tuple(groups))


def play_out(
    bracket: Bracket, rng: random.Random, *, ties: bool = False
) -> tuple[Bracket, BracketState]:
    """Report a drawn result for every ready match until the bracket is complete."""
    state = bracket.state()
    steps = 0
    while not state.complete:
        assert state.ready, "an unfinished bracket must have a match ready"
        results = [
            Result(view.id, random_finish(view.entrants, rng, ties).finish) for view in state.ready
        ]
        bracket = report_results(bracket, results)
        state = bracket.state()
        steps += 1
        assert steps < 1000
    return bracket, state
