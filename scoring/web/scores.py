"""The score as the table page reads it: the kept standing and the last rounds' results.

The table shows the totals, the last few rounds and those waiting for confirmation, so
it reads the game's standing and only the last rounds' results, however long the game.
A round further back is read (with all the others) only when something asks for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, SupportsIndex, overload

from common.compiled import HOLES, CompiledRead
from scoring.engines.base import RoundResult, ScoredGame
from scoring.models import Game, Round
from scoring.selectors import game_score, game_score_data, scored_from_data

# Enough for the recent rounds shown and the rounds usually waiting for confirmation.
READ_AHEAD = 8


class RecentResults(list[RoundResult]):
    """Every round's result of a game, of which only the last ones have been read.

    It answers ``len``, truth and the last rounds from what was read; anything else
    (an earlier round, a slice, a walk through every round) reads the whole list once.
    """

    def __init__(self, game: Game, count: int, last: list[RoundResult]) -> None:
        super().__init__(last)
        self.game = game
        self.total = count
        self.whole: list[RoundResult] | None = None

    def every(self) -> list[RoundResult]:
        if self.whole is None:
            self.whole = list(scored_from_data(game_score_data(self.game)).rounds)
        return self.whole

    def read(self) -> list[RoundResult]:
        """The results read so far (the last ones), oldest first."""
        return list(super().__iter__())

    def plus(self, result: RoundResult) -> RecentResults:
        """These results with one more round after them."""
        last = [*self.read(), result][-READ_AHEAD:]
        return RecentResults(self.game, self.total + 1, last)

    def __len__(self) -> int:
        return self.total

    def __bool__(self) -> bool:
        return self.total > 0

    @overload
    def __getitem__(self, index: SupportsIndex) -> RoundResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[RoundResult]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> RoundResult | list[RoundResult]:
        if not isinstance(index, slice):
            position = index.__index__()
            if position < 0:
                position += self.total
            first = self.total - super().__len__()
            if first <= position < self.total:
                return super().__getitem__(position - first)
        return self.every()[index]

    def __iter__(self) -> Iterator[RoundResult]:
        return iter(self.every())

    def __reversed__(self) -> Iterator[RoundResult]:
        return reversed(self.every())

    def count(self, value: RoundResult) -> int:
        return self.every().count(value)

    def __contains__(self, item: object) -> bool:
        return item in self.every()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, list) and list(self) == list(other)

    __hash__ = None


# The last rounds' numbers and results, newest first (built once: see common.compiled).
LAST_RESULTS = CompiledRead(
    lambda game_id: (
        Round.objects.filter(game_id=game_id)
        .order_by("-number")
        .values_list("number", "result")[:READ_AHEAD]
    ),
    HOLES[:1],
)


def recent_score(game: Game) -> ScoredGame:
    """The game's score, with only the last rounds' results read (see RecentResults).

    A game whose standing is not kept apart from its rounds is scored as before."""
    standing = game.score_cache
    if not standing or "rounds" in standing:
        return game_score(game)
    rows = LAST_RESULTS.rows(game.pk)
    results: list[dict[str, Any]] = [result for _, result in reversed(rows)]
    if any(result is None for result in results):
        return game_score(game)
    count = rows[0][0] if rows else 0
    score = scored_from_data({**standing, "rounds": results})
    score.rounds = RecentResults(game, count, score.rounds)
    return score
