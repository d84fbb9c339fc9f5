"""A deterministic, valid Rummoli record for demo data and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from scoring.engines.base import GameRecord
from scoring.engines.rummoli import PAY_SECTIONS, SECTIONS, Rummoli, deal_hands

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def sample_record(rounds: int = 20, seed: int = 0, players: int | None = None) -> dict[str, Any]:
    """Up to ``rounds`` hands; fewer when a player wins every chip first."""
    rng = random.Random(seed)
    count = players if players is not None else rng.randint(2, 8)
    options: dict[str, Any] = {
        "starting_chips": rng.choice((50, 100)),
        "ante": 1,
        "poker": rng.choice(("showdown", "betting")),
        "short_stack": rng.choice(("pay_what_you_can", "debt")),
    }
    debt = options["short_stack"] == "debt"
    engine = Rummoli()
    record = GameRecord(
        game=engine.key,
        players=NAMES[:count],
        options=options,
        first_dealer=rng.randrange(count),
    )
    table = engine.table_for(record)
    state = engine.start(table)
    entries: list[dict[str, Any]] = []
    dealer = table.first_dealer
    while len(entries) < rounds and not engine.is_over(table, state):
        chips = list(state.chips)
        playing = [debt or held > 0 for held in chips]
        seats = [seat for seat in range(count) if playing[seat]]
        if entries:
            dealer = next(
                (dealer + step) % count
                for step in range(1, count + 1)
                if playing[(dealer + step) % count]
            )
        ante = options["ante"] * len(SECTIONS)
        after = [
            held - ante if debt else max(held - ante, 0) if playing[s] else held
            for s, held in enumerate(chips)
        ]
        entry: dict[str, Any] = {}
        buyers = [s for s in seats if s != dealer and (debt or after[s] > 0)]
        roll = rng.random()
        if roll < 0.3:
            entry["widow"] = {"exchange": True}
        elif roll < 0.6 and buyers:
            buyer = rng.choice(buyers)
            price = rng.randint(1, 4 if debt else max(1, min(4, after[buyer])))
            entry["widow"] = {"buyer": buyer, "price": price}
            after[buyer] -= price
            after[dealer] += price
        if rng.random() < 0.9:
            winners = rng.sample(seats, 2 if len(seats) > 2 and rng.random() < 0.15 else 1)
            poker: dict[str, Any] = {"winners": winners}
            if options["poker"] == "betting":
                poker["bets"] = [
                    rng.randint(0, 3 if debt else max(0, min(3, after[s]))) if playing[s] else 0
                    for s in range(count)
                ]
            entry["poker"] = poker
        entry["pay_cards"] = {
            section: rng.choice(seats) for section in PAY_SECTIONS if rng.random() < 0.5
        }
        went_out = rng.choice(seats) if rng.random() < 0.85 else None
        entry["went_out"] = went_out
        # Hands of the deal, one set aside; the one poker winner (else the dealer) led.
        dealt = [size for size, many in deal_hands(len(seats)) for _ in range(many)]
        rng.shuffle(dealt)
        start = dict(zip(seats, dealt, strict=False))
        winners = entry.get("poker", {}).get("winners", [])
        leader = winners[0] if len(winners) == 1 else dealer
        entry["cards_left"] = [
            rng.randint(1, min(6, start[s] - (s == leader))) if playing[s] and s != went_out else 0
            for s in range(count)
        ]
        engine.play(table, state, len(entries) + 1, entry)
        entries.append(entry)

    data: dict[str, Any] = {
        "format": 1,
        "game": engine.key,
        "players": list(NAMES[:count]),
        "options": options,
        "first_dealer": table.first_dealer,
        "rounds": entries,
    }
    if state.swept_to is None and rng.random() < 0.5:
        holders = [seat for seat in range(count) if debt or state.chips[seat] > 0]
        data["end"] = {"leftovers_to": rng.choice(holders or list(range(count)))}
    return data
