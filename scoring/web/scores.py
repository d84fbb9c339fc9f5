"""The score as the table page reads it: the kept standing and the last rounds' results.

The table shows the totals, the last few rounds and those waiting for confirmation, so
it reads the game's standing and only the last rounds, however long the game: their
results, and what the page says of each (the rounds shown come from the same read). A
round further back is read (with all the others) only when something asks for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any, SupportsIndex, overload

from django.db.models import Field
from django.db.models.expressions import RawSQL
from django.http import Http404

from common.compiled import HOLES, TEXT_HOLES, CompiledRead, built_once_here
from scoring.engines.base import RoundResult, ScoredGame
from scoring.models import Game, Round
from scoring.selectors import game_score, game_score_data, scored_from_data
from scoring.web.phone import game_for

# Enough for the recent rounds shown and the rounds usually waiting for confirmation.
READ_AHEAD = 8


class RecentResults(list[RoundResult]):
    """Every round's result of a game, of which only the last ones have been read.

    It answers ``len``, truth and the last rounds from what was read; anything else
    (an earlier round, a slice, a walk through every round) reads the whole list once.
    """

    def __init__(
        self,
        game: Game,
        count: int,
        last: list[RoundResult],
        rows: list[ShownRound] | None = None,
    ) -> None:
        super().__init__(last)
        self.game = game
        self.total = count
        self.whole: list[RoundResult] | None = None
        # The last rounds as the page shows them, oldest first, when read with the results.
        self.rows = rows

    def every(self) -> list[RoundResult]:
        if self.whole is None:
            self.whole = list(scored_from_data(game_score_data(self.game)).rounds)
        return self.whole

    def read(self) -> list[RoundResult]:
        """The results read so far (the last ones), oldest first."""
        return list(super().__iter__())

    def plus(self, result: RoundResult, row: Round | None = None) -> RecentResults:
        """These results with one more round after them (and its row, when known)."""
        last = [*self.read(), result][-READ_AHEAD:]
        rows = None
        if self.rows is not None and row is not None:
            rows = [*self.rows, ShownRound.of(row)][-READ_AHEAD:]
        return RecentResults(self.game, self.total + 1, last, rows)

    def last_rows(self, count: int) -> list[ShownRound] | None:
        """The last ``count`` rounds (fewer in a shorter game) as the page shows them,
        oldest first; None when they were not read with the results."""
        wanted = min(count, self.total)
        if self.rows is None or len(self.rows) < wanted:
            return None
        return self.rows[len(self.rows) - wanted :]

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


@dataclass(frozen=True, slots=True)
class ShownRound:
    """A round as the table shows it beside its result: what the page reads of its row."""

    number: int
    entry: dict[str, Any]
    status: str
    entered_by_seat: int | None
    confirmed_by_seat: int | None
    corrected: bool

    @classmethod
    def of(cls, row: Round) -> ShownRound:
        return cls(*(getattr(row, name) for name in SHOWN_FIELDS))


SHOWN_FIELDS = tuple(f.name for f in fields(ShownRound))
LAST_FIELDS = ("result", *SHOWN_FIELDS)  # what is read of each of the last rounds


# The last rounds, newest first: each one's result, then what showing it takes (built
# once: see common.compiled).
LAST_ROUNDS = CompiledRead(
    lambda game_id: (
        Round.objects.filter(game_id=game_id)
        .order_by("-number")
        .values_list(*LAST_FIELDS)[:READ_AHEAD]
    ),
    HOLES[:1],
)


def recent_score(game: Game, last_rows: list[Any] | None = None) -> ScoredGame:
    """The game's score, with only the last rounds' results read (see RecentResults);
    ``last_rows`` are those rows when they were read with the game (newest first).

    A game whose standing is not kept apart from its rounds is scored as before."""
    standing = game.score_cache
    if not standing or "rounds" in standing:
        return game_score(game)
    rows = (LAST_ROUNDS.rows(game.pk) if last_rows is None else last_rows)[::-1]
    results: list[dict[str, Any]] = [row[0] for row in rows]
    if any(result is None for result in results):
        return game_score(game)
    count = rows[-1][1] if rows else 0
    score = scored_from_data({**standing, "rounds": results})
    score.rounds = RecentResults(game, count, score.rounds, [ShownRound(*row[1:]) for row in rows])
    return score


def last_rounds_beside_the_game() -> RawSQL:
    """The columns of LAST_ROUNDS for the game of the row read, newest first, as one JSON
    array of arrays (PostgreSQL): a column beside the game's own."""
    column = {f.name: f'"{f.column}"' for f in Round._meta.concrete_fields}
    shown = ", ".join(f"r.{column[name]}" for name in LAST_FIELDS)
    number, game = column["number"], f'"{Game._meta.db_table}"."{Game._meta.pk.column}"'
    return RawSQL(
        f"(SELECT json_agg(json_build_array({shown}) ORDER BY r.{number} DESC) "
        f'FROM (SELECT * FROM "{Round._meta.db_table}" WHERE {column["game"]} = {game} '
        f"ORDER BY {number} DESC LIMIT {READ_AHEAD}) AS r)",
        (),
        output_field=Field(),
    )


# A table's game by its token with its last rounds beside it: one statement (built once:
# see common.compiled).
GAME_WITH_LAST_ROUNDS = CompiledRead(
    lambda token: (
        Game.objects.filter(table_token=token)
        .annotate(last_rounds=last_rounds_beside_the_game())
        .order_by()[:1]
    ),
    TEXT_HOLES[:1],
)


def game_and_recent_score(token: str) -> tuple[Game, ScoredGame]:
    """The table's game and its score as ``recent_score`` reads it: on PostgreSQL in one
    statement, elsewhere in two (``game_for``, then ``recent_score``)."""
    if not built_once_here():
        game = game_for(token)
        return game, recent_score(game)
    read = GAME_WITH_LAST_ROUNDS.first(token)
    if read is None:
        raise Http404("no such game")
    last_rows = [tuple(row) for row in getattr(read, "last_rounds", None) or []]
    return read, recent_score(read, last_rows)
