"""The entry form offers "I hold the called card" at four players with a called partner."""

from __future__ import annotations

from django.utils.datastructures import MultiValueDict

from scoring.engines.base import GameRecord
from scoring.engines.registry import ENGINES
from scoring.entry.fields import NO_SEAT, SeatInfo
from scoring.games import kit_for

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def form(data: MultiValueDict | None):
    engine = ENGINES["roolz"]
    options = {"called_partner": True}
    return kit_for("roolz").entry_form(
        engine=engine,
        seats=[SeatInfo(seat, name, "") for seat, name in enumerate(NAMES)],
        options=options,
        context={"dealer": 0},
        data=data,
    )


def test_the_bidder_holding_the_called_card_is_a_choice_and_records_no_partner():
    blank = form(None)
    labels = [c.label for c in blank.f["partners"].choices]
    assert labels == [*NAMES, "I hold the called card (bidder alone)"]
    data = MultiValueDict(
        {"bidder": ["0"], "bid": ["180"], "partners": [NO_SEAT], "won-bidder": ["200"],
         "won-opponents": ["100"]}
    )  # fmt: skip
    entry = form(data).clean()
    assert entry is not None
    assert entry["partners"] == []
    record = GameRecord(game="roolz", players=tuple(NAMES), options={"called_partner": True})
    scored = ENGINES["roolz"].check_round(record, entry)
    assert scored.rounds[0].deltas == [200, 100, 100, 100]


def test_no_choice_at_all_names_the_alone_choice():
    data = MultiValueDict({"bidder": ["0"], "bid": ["180"], "won-bidder": ["200"]})
    bound = form(data)
    assert bound.clean() is None
    assert 'or "I hold the called card (bidder alone)"' in " ".join(bound.f["partners"].errors)
