"""The round forms read back every entry they are given: entry -> form values -> entry."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string

from scoring.engines.base import GameRecord, parse_record
from scoring.engines.registry import ENGINES
from scoring.entry.fields import NO_SEAT, SeatInfo
from scoring.entry.forms import EntryForm, NewGameForm
from scoring.games import kit_for
from tests.games import GAMES, expected, samples

SAMPLES = {game: samples(game).sample_record for game in GAMES}
CASES = [(game, players) for game in GAMES for players in expected(game).FORM_PLAYERS]


def normal(game: str, entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as the form writes it: no zero jokers, empty reasons, zero bets, empty claims."""
    entry = dict(entry)
    if game == "roller_derby" and entry.get("jokers") == 0:
        entry.pop("jokers")
    if "penalties" in entry:
        entry["penalties"] = [
            {k: v for k, v in p.items() if not (k == "reason" and not v)}
            for p in entry["penalties"]
        ]
        if not entry["penalties"]:
            entry.pop("penalties")
    if entry.get("pay_cards") == {}:
        entry.pop("pay_cards")
    poker = entry.get("poker")
    if isinstance(poker, dict) and "bets" in poker and not any(poker["bets"]):
        entry["poker"] = {k: v for k, v in poker.items() if k != "bets"}
    return entry


def form_for(record: GameRecord, number: int, data) -> EntryForm:
    engine = ENGINES[record.game]
    table = engine.table_for(record)
    before = engine.score(record.with_extras({}).with_rounds(record.rounds[: number - 1]))
    seats = [
        SeatInfo(seat, name, table.team_of(seat) or "") for seat, name in enumerate(record.players)
    ]
    return kit_for(record.game).entry_form(
        engine=engine,
        seats=seats,
        options=table.options,
        context=before.as_dict()["next"],
        data=data,
    )


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_sample_round_survives_the_form(game, players):
    for seed in range(3):
        record = parse_record(SAMPLES[game](rounds=12, seed=seed, players=players), ENGINES)
        engine = ENGINES[game]
        table = engine.table_for(record)
        specs = engine.round_fields(len(record.players), table.options)
        for number, entry in enumerate(record.rounds, start=1):
            if entry.get("misdeal"):
                continue  # recorded by its own button
            data = kit_for(game).entry_form.data_for(entry, specs)
            form = form_for(record, number, data)
            cleaned = form.clean()
            assert cleaned is not None, (number, entry, form.errors, form.fields)
            assert normal(game, cleaned) == normal(game, entry), (number, entry)


def test_a_blank_form_names_what_is_missing():
    record = parse_record({"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}, ENGINES)
    form = form_for(record, 1, {})
    assert form.clean() is None
    assert form.f["bidder"].errors == ["Choose the bidder."]
    assert form.f["bid"].errors == ["Enter the bid."]
    assert form.f["won"].errors


def test_roolz_fills_the_rest_of_300():
    record = parse_record({"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}, ENGINES)
    form = form_for(record, 1, {"bidder": "0", "bid": "200", "won-A": "190"})
    assert form.clean() == {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}


def test_roolz_three_pairs_needs_two_of_three_sides():
    record = parse_record(
        {"game": "roolz", "players": list("ABCDEF"), "options": {"six_player": "three_pairs"}},
        ENGINES,
    )
    form = form_for(record, 1, {"bidder": "0", "bid": "110", "won-A": "120"})
    assert form.clean() is None
    assert "2 of the sides" in form.f["won"].errors[0]
    form = form_for(record, 1, {"bidder": "0", "bid": "110", "won-A": "120", "won-C": "80"})
    assert form.clean()["won"] == {"A": 120, "B": 100, "C": 80}


def test_roolz_every_trick_alone_fills_the_points():
    record = parse_record({"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}, ENGINES)
    form = form_for(record, 1, {"bidder": "1", "bid": "185", "all_tricks": "B"})
    assert form.clean() == {
        "bidder": 1,
        "bid": 185,
        "won": {"A": 0, "B": 300},
        "all_tricks": "B",
    }


def test_roolz_twofer_is_a_choice_of_its_own():
    record = parse_record({"game": "roolz", "players": list("ABCDE")}, ENGINES)
    form = form_for(record, 1, {"bidder": "1", "bid": "300", "won-bidder": "300"})
    assert form.clean() is None
    assert "twofer" in form.f["partners"].errors[0]
    data = {"bidder": "1", "bid": "300", "partners": NO_SEAT, "won-bidder": "300"}
    assert form_for(record, 1, data).clean()["partners"] == []


def test_roller_derby_all_or_nothing_drops_tricks():
    record = parse_record({"game": "roller_derby", "players": list("ABCD")}, ENGINES)
    data = {"dice-0": "2", "dice-1": "5", "all_or_nothing": "yes", "made": "no", "tricks": "4"}
    assert form_for(record, 1, data).clean() == {
        "dice": [2, 5],
        "all_or_nothing": True,
        "made": False,
    }
    form = form_for(record, 1, {"dice-0": "2", "dice-1": "5"})
    assert form.clean() is None
    assert form.f["tricks"].errors


def test_roller_derby_all_or_nothing_asks_no_dice():
    """All or nothing scores 150 or 0 whatever the dice show: none asked, half a roll
    dropped, a whole roll kept as entered."""
    record = parse_record({"game": "roller_derby", "players": list("ABCD")}, ENGINES)
    called = {"all_or_nothing": "yes", "made": "yes"}
    assert form_for(record, 1, called).clean() == {"all_or_nothing": True, "made": True}
    assert form_for(record, 1, called | {"dice-0": "4"}).clean() == {
        "all_or_nothing": True,
        "made": True,
    }
    form = form_for(record, 1, {"dice-0": "4", "tricks": "7"})
    assert form.clean() is None
    assert form.f["dice"].errors == ["Tap the dice that were rolled."]


def test_roller_derby_penalty_defaults_to_50():
    record = parse_record({"game": "roller_derby", "players": list("ABCD")}, ENGINES)
    form = form_for(record, 1, None)
    assert form.f["penalties"].items[0].items[1].value == "50"


def test_rummoli_went_out_counts_zero_cards_and_deadlock_is_none():
    record = parse_record({"game": "rummoli", "players": list("ABC")}, ENGINES)
    data = {"went_out": "1", "cards_left-0": "3", "cards_left-2": "4"}
    assert form_for(record, 1, data).clean() == {"went_out": 1, "cards_left": [3, 0, 4]}
    data = {"went_out": NO_SEAT, "cards_left-0": "3", "cards_left-1": "1", "cards_left-2": "4"}
    assert form_for(record, 1, data).clean() == {"went_out": None, "cards_left": [3, 1, 4]}
    form = form_for(record, 1, {"cards_left-0": "1"})
    assert form.clean() is None
    assert form.f["went_out"].errors


def test_new_game_form_builds_a_record():
    form = NewGameForm(
        {
            "game": "roolz",
            "players": "4",
            "player-0": "Ann",
            "player-1": "Ben",
            "player-2": "Cat",
            "player-3": "Dan",
            "option-present": "1",
            "option-target": "300",
            "first_dealer": "2",
        }
    )
    record = form.clean()
    assert record["players"] == ["Ann", "Ben", "Cat", "Dan"]
    assert record["options"]["target"] == 300
    assert record["first_dealer"] == 2
    assert "six_player" not in record["options"]  # offered at six players only
    assert [p.team for p in form.players] == ["A", "B", "A", "B"]


def test_new_game_form_switches_the_option_a_player_count_needs():
    form = NewGameForm({"game": "rook_sluff", "players": "4", "refresh": "players"})
    assert form.option_values()["single_deck"] is True
    form = NewGameForm(
        {
            "game": "rook_sluff",
            "players": "6",
            "refresh": "players",
            "option-present": "1",
            "option-single_deck": "on",
        }
    )
    assert form.option_values()["single_deck"] is False


def test_new_game_form_refuses_missing_and_repeated_names():
    form = NewGameForm(
        {"game": "rummoli", "players": "3", "player-0": "Ann", "player-1": "ann", "player-2": ""}
    )
    assert form.clean() is None
    assert form.players[1].error == "ann is already at seat 1."
    assert "seat 3" in form.players[2].error


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_generic_form_renders_every_field_of_every_game(game):
    """A game without a tailored form still gets one, from its field descriptions."""
    players = expected(game).GENERIC_FORM_PLAYERS
    record = parse_record({"game": game, "players": [f"P{n}" for n in range(players)]}, ENGINES)
    form = form_for(record, 1, None)
    html = render_to_string("scoring/entry/generic.html", {"form": form})
    for bound in form.fields:
        if not bound.hidden:
            assert bound.label in html
    assert html.count("<fieldset") + html.count('class="field') >= len(form.fields) - 1
