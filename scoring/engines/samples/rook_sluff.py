"""A deterministic, valid Rook Sluff record for demo data and benchmarks."""

from __future__ import annotations

import random
from typing import Any

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
PLAYER_COUNTS = (4, 6, 8, 10)  # 4 plays with the single_deck option
MAX_DEALS = 60  # the deals option's maximum


def _deal(rng: random.Random, players: int, tricks: int) -> dict[str, Any]:
    """Bids around a fair share, a few Sluffs, and tricks spread to add up exactly; written
    as the table enters a deal: each team's tricks and the Sluffs that took a trick."""
    share = tricks / players
    bids = []
    for _ in range(players):
        if rng.random() < 0.15:
            bids.append(0)
        else:
            bids.append(max(1, min(tricks, round(rng.gauss(share, 1.0)))))
    taken = [0] * players
    weights = [0.15 if bid == 0 else bid + 0.5 for bid in bids]
    for _ in range(tricks):
        taken[rng.choices(range(players), weights)[0]] += 1
    entry: dict[str, Any] = {
        "bids": bids,
        "team_tricks": {"A": sum(taken[0::2]), "B": sum(taken[1::2])},
    }
    failed = [seat for seat in range(players) if bids[seat] == 0 and taken[seat]]
    if failed:
        entry["failed_sluffs"] = failed
    if rng.random() < 0.05:
        entry["penalties"] = [
            {
                "player": rng.randrange(players),
                "points": rng.choice((10, 20, 50)),
                "reason": "revoke",
            }
        ]
    return entry


def sample_record(rounds: int = 20, seed: int = 0, players: int | None = None) -> dict[str, Any]:
    """A valid record of ``min(rounds, 60)`` deals; ``deals`` is set so that they all fit.

    ``players`` is 4 (single deck), 6, 8 or 10; None picks one of them from the seed.
    """
    rng = random.Random(seed)
    if players is None:
        players = rng.choice(PLAYER_COUNTS)
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Rook Sluff is played by 4, 6, 8 or 10 players, not {players}")
    count = max(0, min(rounds, MAX_DEALS))
    tricks = 11 if players == 10 else 14
    options: dict[str, Any] = {"deals": max(count, 1)}
    if players == 4:
        options["single_deck"] = True
    return {
        "format": 1,
        "game": "rook_sluff",
        "players": list(NAMES[:players]),
        "options": options,
        "first_dealer": rng.randrange(players),
        "rounds": [_deal(rng, players, tricks) for _ in range(count)],
    }
