"""Each game's printed sheet, found through its kit.

The types a game's ``printed`` module is written with live in
``scoring.games.printed_base``, so that the game modules and this lookup do not
import each other.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.games import KITS, kit_for
from scoring.games.printed_base import PrintedGame

PRINTED: Mapping[str, PrintedGame] = {key: kit.printed for key, kit in KITS.items()}


def printed_for(game_key: str) -> PrintedGame:
    """The printed sheet of the game registered under ``game_key`` (KeyError: no such game)."""
    return kit_for(game_key).printed
