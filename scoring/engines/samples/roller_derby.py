"""A deterministic, valid Roller Derby game record for demo data and benchmarks."""

from __future__ import annotations

import random
from typing import Any

NAMES = ("Ann", "Ben", "Cat", "Dan")


def sample_record(rounds: int = 20, seed: int = 0, players: int | None = None) -> dict[str, Any]:
    """A long (8-deal) game when more than 4 rounds are asked for, else a short one.

    Roller Derby has at most 8 deals, so ``rounds`` above 8 gives the whole long game.
    """
    if players not in (None, 4):
        raise ValueError("Roller Derby is played by exactly 4 players")
    rng = random.Random(seed)
    deals = 8 if rounds > 4 else 4
    dodecahedron = rng.random() < 0.25
    jokers_for_sale = rng.random() < 0.4
    options: dict[str, Any] = {"deals": deals}
    if dodecahedron:
        options["dodecahedron"] = True
    if jokers_for_sale:
        options["jokers_for_sale"] = True
    if rng.random() < 0.25:
        options["counter_clockwise"] = True
    first_dealer = rng.randrange(4)
    step = -1 if options.get("counter_clockwise") else 1
    used = {"A": False, "B": False}
    record_rounds: list[dict[str, Any]] = []
    for index in range(max(0, min(rounds, deals))):
        roller = (first_dealer + step * (index + 1)) % 4
        team = "A" if roller % 2 == 0 else "B"
        dice = [rng.randint(1, 12)] if dodecahedron else [rng.randint(1, 6), rng.randint(1, 6)]
        target = sum(dice)
        entry: dict[str, Any] = {"dice": dice}
        if not used[team] and rng.random() < 0.08:
            used[team] = True
            entry["all_or_nothing"] = True
            entry["made"] = rng.random() < 0.4
        else:
            tricks = min(13, max(0, target + rng.choice((-3, -2, -1, -1, 0, 0, 0, 1, 1, 2))))
            entry["tricks"] = tricks
            if jokers_for_sale and rng.random() < 0.3:
                entry["jokers"] = rng.randint(1, 2)
        if rng.random() < 0.08:
            entry["penalties"] = [{"player": rng.randrange(4), "points": 50, "reason": "revoke"}]
        record_rounds.append(entry)
    return {
        "format": 1,
        "game": "roller_derby",
        "players": list(NAMES),
        "options": options,
        "first_dealer": first_dealer,
        "rounds": record_rounds,
    }
