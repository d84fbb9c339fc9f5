"""A deterministic, valid Roolz game record for demo data and benchmarks."""

from __future__ import annotations

import random
from typing import Any

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
PLAYER_COUNTS = (2, 3, 4, 5, 6)
MAX_ROUNDS = 500  # base.MAX_ROUNDS
MOST_PER_ROUND = 500  # a twofer slam; no seat gains more in one round


def _labels(players: int, options: dict[str, Any]) -> tuple[list[str], dict[str, list[int]]]:
    """Side labels of ``won`` and the fixed teams ({} when scores are kept individually)."""
    six = options.get("six_player", "teams")
    if players == 4 and not options.get("called_partner"):
        teams = {"A": [0, 2], "B": [1, 3]}
    elif players == 6 and six == "teams":
        teams = {"A": [0, 2, 4], "B": [1, 3, 5]}
    elif players == 6 and six == "three_pairs":
        teams = {"A": [0, 3], "B": [1, 4], "C": [2, 5]}
    else:
        teams = {}
    return (list(teams) if teams else ["bidder", "opponents"]), teams


def _partners(rng: random.Random, players: int, options: dict[str, Any], bidder: int) -> list[int]:
    others = [seat for seat in range(players) if seat != bidder]
    if players == 4:
        return [rng.choice(others)]
    if players == 5:
        return [] if rng.random() < 0.1 else [rng.choice(others)]
    # six players, two_calls
    roll = rng.random()
    if roll < 0.08:
        return []
    if roll < 0.2:
        return [rng.choice(others)]
    return rng.sample(others, 2)


def _round(rng: random.Random, players: int, options: dict[str, Any]) -> dict[str, Any]:
    if rng.random() < 0.04:
        return {"misdeal": True}
    labels, teams = _labels(players, options)
    min_bid = 110 if options.get("six_player") == "three_pairs" else 170
    bidder = rng.randrange(players)
    bid = min(300, min_bid + 5 * int(rng.expovariate(1 / 6)))
    entry: dict[str, Any] = {"bidder": bidder, "bid": bid}
    called = not teams and players in (4, 5, 6)
    if called:
        entry["partners"] = _partners(rng, players, options, bidder)
    ours = next((label for label, seats in teams.items() if bidder in seats), "bidder")
    won = dict.fromkeys(labels, 0)
    if rng.random() < 0.06:
        slam = ours if rng.random() < 0.8 else rng.choice([x for x in labels if x != ours])
        if options.get("point_discards") and rng.random() < 0.5:
            won[slam] = 300 - 5 * rng.randint(1, 6)
            rest = [x for x in labels if x != slam]
            won[rng.choice(rest)] = 300 - won[slam]
        else:
            won[slam] = 300
        entry["all_tricks"] = slam
    else:
        won[ours] = max(0, min(300, bid + 5 * rng.randint(-14, 10)))
        rest = [x for x in labels if x != ours]
        left = 300 - won[ours]
        for label in rest[:-1]:
            share = 5 * rng.randint(0, left // 5)
            won[label] = share
            left -= share
        won[rest[-1]] = left
    entry["won"] = won
    if rng.random() < 0.05:
        entry["penalties"] = [
            {"player": rng.randrange(players), "points": rng.choice([25, 50]), "reason": "revoke"}
        ]
    return entry


def sample_record(rounds: int = 20, seed: int = 0, players: int | None = None) -> dict[str, Any]:
    """A Roolz game of ``rounds`` rounds (misdeals included), at any player count and mode.

    The target is set above what anyone can reach in that many rounds, so the game never
    ends before the last recorded round.
    """
    rng = random.Random(seed)
    if players is None:
        players = rng.choice(PLAYER_COUNTS)
    if players not in PLAYER_COUNTS:
        raise ValueError("Roolz is played by 2 to 6 players")
    rounds = max(0, min(rounds, MAX_ROUNDS))
    options: dict[str, Any] = {"target": max(1000, MOST_PER_ROUND * rounds + 100)}
    if players == 4 and rng.random() < 0.3:
        options["called_partner"] = True
    if players == 6:
        options["six_player"] = rng.choice(["teams", "two_calls", "three_pairs"])
    if rng.random() < 0.2:
        options["must_reach_on_bid"] = True
    if rng.random() < 0.2:
        options["point_discards"] = True
    if rng.random() < 0.3:
        options["break_both_trumps"] = True
    return {
        "format": 1,
        "game": "roolz",
        "players": list(NAMES[:players]),
        "options": options,
        "first_dealer": rng.randrange(players),
        "rounds": [_round(rng, players, options) for _ in range(rounds)],
    }
