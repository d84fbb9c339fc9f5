"""Designs stored as data (``designs.json`` beside this module): facts from the
literature or found once by search, kept so that no event waits for a search.

- **Kirkman triple systems**: ``kirkman_rounds(15)`` seats 15 players at tables of 3
  for 7 rounds, every pair exactly once (Kirkman's schoolgirls); ``kirkman_rounds(21)``
  seats 21 for 10 rounds.
- **Social golfer schedules**: ``golfer_rounds(32, 4)`` seats 32 players at tables of 4
  for 10 rounds with no pair meeting twice (the social golfer 8-4-10, Aguado 2004),
  one round more than the cyclic construction over GF(8) gives. Any first rounds of a
  stored schedule serve a shorter event.
- **Whist tournaments** on a group: the first round of a tournament whose other
  rounds add a group element to every point (see ``constructions.whist_round``).
  ``group`` lists the moduli of a product of cyclic groups; element ``a + m0*b + ...``
  is ``(a, b, ...)``.

The tests check every stored design pair by pair, so a mistyped table cannot pass.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

Tables = list[tuple[int, ...]]

DATA_FILE = Path(__file__).with_name("designs.json")


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return loaded


def kirkman_sizes() -> tuple[int, ...]:
    return tuple(sorted(int(v) for v in _data()["kirkman"]))


def kirkman_rounds(v: int) -> list[Tables]:
    """The stored Kirkman triple system on ``v`` points: (v - 1) / 2 rounds of v / 3 triples."""
    stored = _data()["kirkman"].get(str(v))
    if stored is None:
        raise ValueError(f"no Kirkman triple system stored for {v} players")
    return [[tuple(table) for table in round_] for round_ in stored["rounds"]]


def golfer_designs() -> tuple[tuple[int, int], ...]:
    """(players, table size) of every stored social golfer schedule."""
    keys = (key.split("x") for key in _data()["golfer"])
    return tuple(sorted((int(n), int(k)) for n, k in keys))


def golfer_rounds(n: int, k: int) -> list[Tables]:
    """The stored schedule for ``n`` players at tables of ``k`` in which no pair meets twice."""
    stored = _data()["golfer"].get(f"{n}x{k}")
    if stored is None:
        raise ValueError(f"no social golfer schedule stored for {n} players at tables of {k}")
    return [[tuple(table) for table in round_] for round_ in stored["rounds"]]


def stored_whist(n: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None:
    """(group moduli, first round) of the stored whist tournament for ``n``, or None."""
    stored = _data()["whist"].get(str(n))
    if stored is None:
        return None
    group = tuple(int(m) for m in stored["group"])
    first = tuple(tuple(int(p) for p in table) for table in stored["first_round"])
    return group, first


def stored_whist_sizes() -> tuple[int, ...]:
    return tuple(sorted(int(n) for n in _data()["whist"]))
