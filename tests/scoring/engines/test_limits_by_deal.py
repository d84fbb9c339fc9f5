"""Limits the rules set by the deal and by the player count, from the vectors beside the
game's own (``<game>.<topic>.json``) and as properties: Rummoli's cards left follow the
hands the deal makes, and Roolz's options for some player counts are refused at others,
naming the option."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engines.base import InvalidRecord, parse_record
from scoring.engines.registry import ENGINES
from scoring.engines.rummoli import deal_hands, most_cards_dealt, most_cards_held
from tests.vectors import assert_matches, vector_cases

TOPICS = [case for case in vector_cases() if "." in case[0].split(":")[0]]
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def score(data: dict[str, Any]) -> dict[str, Any]:
    return ENGINES[data["game"]].score(parse_record(data, ENGINES)).as_dict()


def test_the_topic_vectors_are_found_with_their_game():
    names = {case_id.split(":")[0] for case_id, _ in TOPICS}
    assert names == {"rummoli.deal", "roolz.options"}
    for case_id, case in TOPICS:  # each read with its game's own vectors too
        assert case_id in dict(vector_cases(case["record"]["game"]))


@pytest.mark.parametrize(("case_id", "case"), TOPICS, ids=[c[0] for c in TOPICS])
def test_topic_vector(case_id: str, case: dict[str, Any]) -> None:
    if case.get("invalid"):
        with pytest.raises(InvalidRecord) as raised:
            score(case["record"])
        found = [(p.round, p.field) for p in raised.value.problems]
        assert found == [(p["round"], p["field"]) for p in case["problems"]]
    else:
        assert_matches(case["output"], score(case["record"]), case_id)


def dealt_one_at_a_time(players: int) -> list[int]:
    """Deal 52 cards round the table, the widow one more place: each hand's size."""
    hands = [0] * (players + 1)
    for card in range(52):
        hands[card % (players + 1)] += 1
    return hands


@pytest.mark.parametrize("players", range(2, 9))
def test_the_deal_is_the_hands_dealt_one_card_at_a_time(players: int) -> None:
    hands = dealt_one_at_a_time(players)
    described = deal_hands(players)
    assert sorted(hands, reverse=True) == [c for c, n in described for _ in range(n)]
    assert most_cards_held(players) == max(hands)
    assert most_cards_dealt(players) == 52 - min(hands)


def rummoli(players: int, hand: dict[str, Any]) -> dict[str, Any]:
    return {"format": 1, "game": "rummoli", "players": NAMES[:players], "rounds": [hand]}


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 8),
    seed=st.integers(0, 10**6),
    deadlock=st.booleans(),
    poker=st.booleans(),
)
def test_any_hand_a_deal_can_leave_is_accepted(players, seed, deadlock, poker):
    rng = random.Random(seed)
    hands = dealt_one_at_a_time(players)
    rng.shuffle(hands)
    start = hands[:players]  # the last hand is set aside: the widow or the one exchanged
    leader = rng.randrange(players)  # the poker winner, who leads the first card
    went_out = None if deadlock else rng.randrange(players)
    cards = [
        0 if seat == went_out else rng.randint(1, start[seat] - (seat == leader))
        for seat in range(players)
    ]
    hand: dict[str, Any] = {"went_out": went_out, "cards_left": cards}
    if poker:
        hand["poker"] = {"winners": [leader]}
    assert score(rummoli(players, hand))["rounds"]


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 10**6))
def test_one_more_largest_hand_than_the_deal_gives_is_refused(players, seed):
    (largest, count), *rest = deal_hands(players)
    if not rest or count >= players:
        return  # every hand the same size, or every player may hold the largest
    rng = random.Random(seed)
    # Someone went out, unless everyone else is needed to hold one largest hand too many.
    went_out = rng.randrange(players) if count + 1 < players else None
    others = [seat for seat in range(players) if seat != went_out]
    full = set(rng.sample(others, count + 1))
    cards = [0 if s == went_out else largest if s in full else 1 for s in range(players)]
    with pytest.raises(InvalidRecord) as raised:
        score(rummoli(players, {"went_out": went_out, "cards_left": cards}))
    [problem] = raised.value.problems
    assert (problem.round, problem.field) == (1, "cards_left")
    assert f"{largest} cards left" in problem.message


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 10**6))
def test_a_deadlock_with_every_dealt_card_still_held_is_refused(players, seed):
    rng = random.Random(seed)
    hands = sorted(dealt_one_at_a_time(players), reverse=True)[:players]
    rng.shuffle(hands)
    with pytest.raises(InvalidRecord) as raised:
        score(rummoli(players, {"went_out": None, "cards_left": hands}))
    [problem] = raised.value.problems
    assert (problem.round, problem.field) == (1, "cards_left")
    assert "deadlock" in problem.message


ROOLZ_BY_COUNT = {"misdeals": (2, 3, 4), "blank_leads": (4,)}


@pytest.mark.parametrize("option", sorted(ROOLZ_BY_COUNT))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_roolz_options_for_some_player_counts_are_refused_at_the_others(option, players):
    specs = {spec.name: spec for spec in ENGINES["roolz"].option_specs()}
    assert specs[option].player_counts == ROOLZ_BY_COUNT[option]
    data = {
        "format": 1,
        "game": "roolz",
        "players": NAMES[:players],
        "options": {option: True},
        "rounds": [],
    }
    if players in ROOLZ_BY_COUNT[option]:
        assert score(data)["totals"] == [0] * players
        return
    with pytest.raises(InvalidRecord) as raised:
        score(data)
    [problem] = raised.value.problems
    assert problem.field == f"options.{option}"
    assert f"{players} players" in problem.message
