"""Every registered game's test data, from its own files: the one place generic tests
read per-game data from.

``GAMES`` is the registry's keys; ``samples(game)`` is the game's sample module
(``scoring/engines/samples/<game>.py``) and ``expected(game)`` what the generic tests
expect of it (``tests/scoring/engines/expected/<game>.py``). A registered game without
either file fails every test that reads it, naming the file: never skipped.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from scoring.engines.registry import ENGINES

LONG_NAME = "Maximiliana Bartholomew-Fitzgerald Smythe"[:40]  # the longest name accepted
LONG_NAME_2 = "Maximiliana Bartholomew-Fitzgerald Jones"[:40]


def games() -> tuple[str, ...]:
    """The registered games, by key."""
    return tuple(sorted(ENGINES))


GAMES = games()


def _own(game: str, module: str, path: str) -> ModuleType:
    if game not in ENGINES:
        raise LookupError(f"{game} is not a registered game")
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name != module:
            raise
        raise LookupError(
            f"{game}: every registered game has {path}, and {game} has none"
        ) from None


def samples(game: str) -> ModuleType:
    """The game's sample module: ``sample_record(rounds=, seed=, players=)``."""
    return _own(game, f"scoring.engines.samples.{game}", f"scoring/engines/samples/{game}.py")


def sample_record(game: str, **arguments: Any) -> dict[str, Any]:
    return samples(game).sample_record(**arguments)


def expected(game: str) -> ModuleType:
    """What the generic tests expect of the game (its sheet's headings, player counts...)."""
    return _own(
        game,
        f"tests.scoring.engines.expected.{game}",
        f"tests/scoring/engines/expected/{game}.py",
    )
