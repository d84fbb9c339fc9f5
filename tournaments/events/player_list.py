"""A list of players as the director pastes or uploads it: one player (or team) a line.

``name[,member,member...]``. A first line that names its columns (``name``, ``player``,
``team``, ``members`` ...) is a header and is not registered. Blank lines and lines
starting with ``#`` register nobody, and every one is reported by its number; a line
with members but no name is a mistake. The list is read whole before anything is
registered, and the desk shows what it read (a preview) first.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from common.phrases import N_, Words

# Column names a header row uses, compared folded (case and accents).
HEADER_WORDS = frozenset(
    {"name", "names", "player", "players", "team", "teams", "member", "members", "entrant"}
)


@dataclass(frozen=True)
class ListedPlayer:
    line: int
    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class PlayerList:
    """What a list holds: the players to register, lines skipped (with why), mistakes."""

    players: tuple[ListedPlayer, ...]
    skipped: tuple[Words, ...]  # "line 3 is blank", ... (said in the reader's language)
    mistakes: tuple[tuple[int, str], ...]  # (line, message marked with N_) for lines that are wrong


def _is_header(cells: list[str]) -> bool:
    """Every cell a column name (``member 2`` counts as ``member``; ``Player 1`` is a
    player's name, not a column)."""
    words = [c.casefold() for c in cells if c]
    return bool(words) and all(
        w in HEADER_WORDS or (w.startswith("member") and w.rstrip("0123456789 ") == "member")
        for w in words
    )


def read_player_list(text: str) -> PlayerList:
    """Read a list line by line (see the module's description); no line is dropped silently."""
    players: list[ListedPlayer] = []
    skipped: list[Words] = []
    mistakes: list[tuple[int, str]] = []
    seen_content = False
    for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            skipped.append(Words(N_("line {line} is blank"), {"line": number}))
            continue
        if cells[0].startswith("#"):
            skipped.append(Words(N_("line {line} is a comment"), {"line": number}))
            continue
        if not seen_content and _is_header(cells):
            columns = ", ".join(c for c in cells if c)
            skipped.append(
                Words(
                    N_("line {line} names the columns ({columns})"),
                    {"line": number, "columns": columns},
                )
            )
            seen_content = True
            continue
        seen_content = True
        if not cells[0]:
            mistakes.append((number, N_("the name is empty")))
            continue
        players.append(ListedPlayer(number, cells[0], tuple(c for c in cells[1:] if c)))
    return PlayerList(tuple(players), tuple(skipped), tuple(mistakes))


__all__ = ["HEADER_WORDS", "ListedPlayer", "PlayerList", "read_player_list"]
