"""Designs stored as data (``designs.json`` beside this module): facts from the
literature or found once by search, kept so that no event waits for a search.

- **Kirkman triple systems**: ``kirkman_rounds(15)`` seats 15 players at tables of 3
  for 7 rounds, every pair exactly once (Kirkman's schoolgirls); ``kirkman_rounds(21)``
  seats 21 for 10 rounds.
- **Social golfer schedules**: ``golfer_rounds(32, 4)`` seats 32 players at tables of 4
  for 10 rounds with no pair meeting twice (the social golfer 8-4-10, Aguado 2004),
  one round more than the cyclic construction over GF(8) gives. Any first rounds of a
  stored schedule serve a shorter event.
- **Best known schedules** where no repeat-free one exists: ``best_known_rounds(36, 6)``
  seats 36 players at tables of 6 for 4 rounds with 2 repeated pairs, both in round 4
  (none is impossible: see ``repeat_free_round_limit``); its first 3 rounds meet no
  pair twice.
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


def best_known_designs() -> tuple[tuple[int, int], ...]:
    """(players, table size) of every stored best known schedule."""
    keys = (key.split("x") for key in _data()["best_known"])
    return tuple(sorted((int(n), int(k)) for n, k in keys))


def best_known_rounds(n: int, k: int) -> list[Tables]:
    """The stored best known schedule for ``n`` players at tables of ``k``."""
    stored = _data()["best_known"].get(f"{n}x{k}")
    if stored is None:
        raise ValueError(f"no best known schedule stored for {n} players at tables of {k}")
    return [[tuple(table) for table in round_] for round_ in stored["rounds"]]


def best_known_repeats(n: int, k: int) -> int:
    """The repeated pairs of the stored best known schedule (checked in the tests)."""
    return int(_data()["best_known"][f"{n}x{k}"]["repeated_pairs"])


# Orders k with no pair of orthogonal Latin squares (Tarry 1900 for 6; 2 is too small).
NO_ORTHOGONAL_PAIR = (2, 6)


def repeat_free_round_limit(players: int, k: int) -> int | None:
    """The most rounds ``players`` = k*k players can play at k tables of k with no pair
    meeting twice, where that is known to fall short of the k + 1 an affine plane gives;
    None otherwise.

    Such rounds are the parallel classes of a net of order k, and a net with r parallel
    classes is r - 2 mutually orthogonal Latin squares of order k. Of order 6 there is no
    orthogonal pair (Tarry 1900), so 36 players at tables of 6 play at most 3 rounds with
    no repeat; of order 2 there is none either (4 players at tables of 2: 3 rounds).
    """
    if k in NO_ORTHOGONAL_PAIR and players == k * k:
        return 3
    return None
