"""A pad offers only the values possible at that table: the limits are stated once, in
the core's field description (``round_fields_at``, bound by the table's facts), the
engine refuses what lies outside them, and the pads read them from there."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engines.base import InvalidRecord, parse_record
from scoring.engines.registry import ENGINES
from scoring.engines.rummoli import DEBT, most_cards_held
from scoring.entry.fields import SeatInfo
from scoring.games.rook_sluff import RookSluffForm
from scoring.games.rummoli import RummoliForm

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
RUMMOLI = ENGINES["rummoli"]

# The largest hand of the deal, 52 cards to the players still in and the widow.
LARGEST_HAND = {2: 18, 3: 13, 4: 11, 5: 9, 6: 8, 7: 7, 8: 6}


def cards_left_spec(players: int, options: dict[str, Any], out: list[int]) -> Any:
    specs = RUMMOLI.round_fields_at(players, options, {"out": out})
    return {spec.name: spec for spec in specs}["cards_left"]


@pytest.mark.parametrize(("players", "largest"), sorted(LARGEST_HAND.items()))
def test_cards_left_at_a_full_table_go_up_to_the_largest_hand(players: int, largest: int) -> None:
    for options in ({}, {"short_stack": DEBT}):
        spec = cards_left_spec(players, options, [])
        assert (spec.minimum, spec.maximum) == (0, largest)
        assert most_cards_held(players) == largest


@pytest.mark.parametrize(
    ("players", "out", "largest"),
    [(8, [0], 7), (8, [1, 4, 6], 9), (6, [0, 1, 2, 3], 18), (4, [3], 13), (3, [2], 18)],
)
def test_players_out_of_the_game_leave_bigger_hands(players, out, largest) -> None:
    assert cards_left_spec(players, {}, out).maximum == largest


def test_not_knowing_who_is_in_the_limit_is_the_largest_any_hand_can_deal() -> None:
    by_players = {spec.name: spec for spec in RUMMOLI.round_fields(8, {})}
    assert by_players["cards_left"].maximum == 18  # down to two players
    debt = {spec.name: spec for spec in RUMMOLI.round_fields(8, {"short_stack": DEBT})}
    assert debt["cards_left"].maximum == 6  # nobody leaves under debt


def accepted(players: int, options: dict[str, Any], seat: int, value: int) -> bool:
    """One hand where ``seat`` has ``value`` cards left and the rest as little as may be."""
    went_out = seat if value == 0 else (seat + 1) % players
    cards = [0 if s == went_out else 1 for s in range(players)]
    cards[seat] = value
    record = {
        "format": 1,
        "game": "rummoli",
        "players": NAMES[:players],
        "options": options,
        "rounds": [{"went_out": went_out, "cards_left": cards}],
    }
    try:
        RUMMOLI.score(parse_record(record, ENGINES))
    except InvalidRecord as refused:
        assert [p.field for p in refused.problems] == ["cards_left"]
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 8),
    seat=st.integers(0, 7),
    value=st.integers(0, 60),
    debt=st.booleans(),
)
def test_the_engine_accepts_exactly_the_values_the_pad_offers(players, seat, value, debt):
    seat %= players
    options = {"short_stack": DEBT} if debt else {}
    form = RummoliForm(
        engine=RUMMOLI,
        seats=[SeatInfo(n, name) for n, name in enumerate(NAMES[:players])],
        options=options,
        context={"out": []},
    )
    offered = value in form.cards_pad
    assert accepted(players, options, seat, value) == offered


@pytest.mark.parametrize(("players", "out"), [(4, []), (8, []), (8, [2, 5]), (5, [0, 1, 2])])
def test_the_pad_and_its_boxes_read_the_field(players: int, out: list[int]) -> None:
    form = RummoliForm(
        engine=RUMMOLI,
        seats=[SeatInfo(n, name) for n, name in enumerate(NAMES[:players])],
        options={},
        context={"out": out},
    )
    largest = LARGEST_HAND[players - len(out)]
    assert form.cards_pad == list(range(largest + 1))
    assert {item.maximum for item in form.f["cards_left"].items} == {largest}


def refused_fields(game: str, players: int, options: dict[str, Any], entry: dict) -> list[str]:
    record = {
        "format": 1,
        "game": game,
        "players": (NAMES * 2)[:players],
        "options": options,
        "rounds": [entry],
    }
    try:
        ENGINES[game].score(parse_record(record, ENGINES))
    except InvalidRecord as refused:
        return [p.field or "" for p in refused.problems]
    return []


@pytest.mark.parametrize(("players", "tricks"), [(4, 14), (6, 14), (8, 14), (10, 11)])
def test_rook_sluff_pads_go_up_to_the_tricks_of_the_deal(players: int, tricks: int) -> None:
    options = {"single_deck": True} if players == 4 else {}
    engine = ENGINES["rook_sluff"]
    form = RookSluffForm(
        engine=engine,
        seats=[SeatInfo(n, f"P{n}", "") for n in range(players)],
        options=options,
        context={},
    )
    assert form.pad_values == list(range(tricks + 1))
    took = [tricks] + [0] * (players - 1)
    most = [tricks] + [1] * (players - 1)
    assert refused_fields("rook_sluff", players, options, {"bids": most, "tricks": took}) == []
    past = [tricks + 1] + [1] * (players - 1)
    assert "bids" in refused_fields("rook_sluff", players, options, {"bids": past, "tricks": took})


@pytest.mark.parametrize(("options", "count", "top"), [({}, 2, 6), ({"dodecahedron": True}, 1, 12)])
def test_roller_derby_pads_offer_the_faces_of_the_dice_and_the_tricks_of_a_deal(
    options: dict[str, Any], count: int, top: int
) -> None:
    specs = {spec.name: spec for spec in ENGINES["roller_derby"].round_fields_at(4, options, {})}
    assert (specs["dice"].count, specs["dice"].minimum, specs["dice"].maximum) == (count, 1, top)
    assert (specs["tricks"].minimum, specs["tricks"].maximum) == (0, 13)
    for face, ok in ((1, True), (top, True), (top + 1, False), (0, False)):
        entry = {"dice": [face] * count, "tricks": 13}
        assert ("dice" not in refused_fields("roller_derby", 4, options, entry)) == ok
    for tricks, ok in ((0, True), (13, True), (14, False)):
        entry = {"dice": [1] * count, "tricks": tricks}
        assert ("tricks" not in refused_fields("roller_derby", 4, options, entry)) == ok
