"""A bracket played to its end with drawn results, for directors' checks and the bench.

``play_bracket`` plays every ready match in the bracket's own order, round after
round, with results taken from ``results``: ``"favourites"`` (the better seed always
finishes ahead) or ``"random"`` (a shuffled finish, reproducible for ``seed``). It
returns the matches in the order they were played; byes are not played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from .changes import report_results
from .state import BracketState, Result, Status
from .tables import TableBracket
from .two_team import EliminationBracket

ResultsRule = Literal["favourites", "random"]
RESULTS_RULES: tuple[ResultsRule, ...] = ("favourites", "random")


@dataclass(frozen=True)
class PlayedMatch:
    """One match as played: its id, its entrants in seat order, and who went on
    (the winner of a two-team match; the top ones of a table; at a last table or a
    final, the finish best first)."""

    id: str
    section: str
    entrants: tuple[str, ...]
    finish: tuple[str, ...]
    advancing: tuple[str, ...]


def play_bracket(
    bracket: EliminationBracket | TableBracket,
    *,
    results: ResultsRule = "favourites",
    seed: int = 0,
) -> tuple[list[PlayedMatch], BracketState]:
    """Play ``bracket`` to its end; the matches in play order and the final state."""
    if results not in RESULTS_RULES:
        raise ValueError(f"results must be one of {', '.join(RESULTS_RULES)}")
    rank = {name: index for index, name in enumerate(bracket.seeds)}
    rng = random.Random(f"bracket results:{seed}")
    played: list[PlayedMatch] = []
    state = bracket.state()
    while not state.complete:
        ready = list(state.ready)
        if not ready:  # pragma: no cover - a bracket that stalls is a bug in the core
            raise AssertionError("an unfinished bracket has no match ready")
        reported = []
        for view in ready:
            order = sorted(view.entrants, key=rank.__getitem__)
            if results == "random":
                rng.shuffle(order)
            reported.append(Result.ranked(view.id, *order))
        bracket = report_results(bracket, reported)
        state = bracket.state()
        for view in ready:
            done = state.match(view.id)
            if done.status is not Status.DONE:
                continue
            goes_on = done.advance if done.advance else len(done.finish)
            played.append(
                PlayedMatch(
                    id=done.id,
                    section=done.section,
                    entrants=done.entrants,
                    finish=done.finish,
                    advancing=done.finish[:goes_on],
                )
            )
    return played, state
