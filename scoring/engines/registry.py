"""The explicit list of games Tablescore scores: adding a game is one entry here (its
import and its place in the list). Everything else about a game is found by its key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from common.phrases import N_
from scoring.engines.base import Engine, InvalidRecord, Problem, ScoredGame, parse_record
from scoring.engines.roller_derby import RollerDerby
from scoring.engines.rook_sluff import RookSluff
from scoring.engines.roolz import Roolz
from scoring.engines.rummoli import Rummoli

ENGINES: Mapping[str, Engine] = {
    engine.key: engine for engine in (Roolz(), RollerDerby(), RookSluff(), Rummoli())
}


def engine_for(game: str) -> Engine:
    try:
        return ENGINES[game]
    except KeyError:
        known = ", ".join(ENGINES)
        raise InvalidRecord(
            [Problem(N_("game must be one of {known}"), field="game", values={"known": known})]
        ) from None


def score_data(data: Any) -> ScoredGame:
    """Parse and score a JSON game record (already decoded); raise InvalidRecord."""
    record = parse_record(data, ENGINES)
    return engine_for(record.game).score(record)
