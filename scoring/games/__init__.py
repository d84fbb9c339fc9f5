"""The kits of the games: what the web layer knows of each game, found by the game's key.

One line per game, beside the engine registry's: adding a game adds its kit here.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.engines.registry import ENGINES
from scoring.games import roller_derby, rook_sluff, roolz, rummoli
from scoring.games.kit import Kit

KITS: Mapping[str, Kit] = {
    kit.key: kit for kit in (roolz.KIT, roller_derby.KIT, rook_sluff.KIT, rummoli.KIT)
}


def kit_for(game: str) -> Kit:
    """The kit of a registered game (a game without one is a bug the contract test catches)."""
    if game not in ENGINES:
        raise KeyError(f"no game {game!r} in the registry")
    return KITS[game]
