"""The kits of the games: what the web layer knows of each game, found by the game's key.

The engine registry (``scoring/engines/registry.py``) is the one list of games; a game's
kit is the ``KIT`` of its own package, ``scoring.games.<key>``, found here by its key.
Adding a game adds nothing here.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from scoring.engines.registry import ENGINES
from scoring.games.kit import Kit


def find_kit(game: str) -> Kit:
    """The ``KIT`` of ``scoring.games.<game>``; a registered game without one is named."""
    module = f"scoring.games.{game}"
    try:
        kit = importlib.import_module(module).KIT
    except ModuleNotFoundError as missing:
        if missing.name != module:
            raise
        raise LookupError(
            f"{game}: every registered game has its kit, scoring/games/{game}/__init__.py,"
            f" and {game} has none"
        ) from None
    if not isinstance(kit, Kit) or kit.key != game:
        raise LookupError(f"{module}.KIT is not the kit of {game}")
    return kit


KITS: Mapping[str, Kit] = {game: find_kit(game) for game in ENGINES}


def kit_for(game: str) -> Kit:
    """The kit of a registered game (a game without one is a bug the contract test catches)."""
    if game not in ENGINES:
        raise KeyError(f"no game {game!r} in the registry")
    return KITS[game]
