"""Each game's printed sheet, found by the engine's key.

The types a game's ``printed`` module is written with live in
``scoring.games.printed_base``, so that the game modules and this lookup do not
import each other.
"""

from __future__ import annotations

from scoring.games.printed_base import PrintedGame
from scoring.games.roller_derby.printed import PRINTED as ROLLER_DERBY
from scoring.games.rook_sluff.printed import PRINTED as ROOK_SLUFF
from scoring.games.roolz.printed import PRINTED as ROOLZ
from scoring.games.rummoli.printed import PRINTED as RUMMOLI

# One line per engine in ``scoring.engines.registry.ENGINES``, by the same key.
PRINTED: dict[str, PrintedGame] = {
    "roolz": ROOLZ,
    "roller_derby": ROLLER_DERBY,
    "rook_sluff": ROOK_SLUFF,
    "rummoli": RUMMOLI,
}


def printed_for(game_key: str) -> PrintedGame:
    """The printed sheet of the game registered under ``game_key`` (KeyError: no such game)."""
    return PRINTED[game_key]
