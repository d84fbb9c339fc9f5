"""Roolz (rules.md section 1): worked cases, every option, every check, and invariants."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.base import InvalidRecord, Problem, ScoredGame, parse_record
from scoring.engines.roolz import Roolz
from scoring.engines.samples.roolz import sample_record
from tests.scoring.engines.strategies.roolz import valid_records
from tests.vectors import assert_matches, vector_cases

ENGINE = Roolz()
ENGINES = {"roolz": ENGINE}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def record(players: int, rounds: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {
        "format": 1,
        "game": "roolz",
        "players": NAMES[:players],
        "options": options,
        "rounds": rounds,
    }


def score(data: dict[str, Any]) -> ScoredGame:
    return ENGINE.score(parse_record(data, ENGINES))


def problems(data: dict[str, Any]) -> list[Problem]:
    with pytest.raises(InvalidRecord) as raised:
        score(data)
    found = raised.value.problems
    assert found
    assert all(str(p) for p in found)
    return found


def table_for(players: int, **options: Any):
    return ENGINE.table_for(parse_record(record(players, [], **options), ENGINES))


# --------------------------------------------------------------------------- vectors


@pytest.mark.parametrize(
    ("case_id", "case"), vector_cases("roolz"), ids=[c[0] for c in vector_cases("roolz")]
)
def test_vector_file(case_id: str, case: dict[str, Any]) -> None:
    if case.get("invalid"):
        problems(case["record"])
    else:
        assert_matches(case["output"], score(case["record"]).as_dict())


# The test vectors of rules.md section 1, one round each: (players, options, round, deltas).
RULES_CASES = [
    (
        "bid 200 by A, A won 190, B 110",
        4,
        {},
        {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}},
        [-200, 110, -200, 110],
    ),
    (
        "B bids 185, won B 235 / A 65",
        4,
        {},
        {"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}},
        [65, 235, 65, 235],
    ),
    (
        "A bids 250 and takes every trick",
        4,
        {},
        {"bidder": 2, "bid": 250, "won": {"A": 300, "B": 0}, "all_tricks": "A"},
        [400, 0, 400, 0],
    ),
    (
        "A bids 170, B takes every trick",
        4,
        {},
        {"bidder": 0, "bid": 170, "won": {"A": 0, "B": 300}, "all_tricks": "B"},
        [-170, 400, -170, 400],
    ),
    (
        "5 players: seat 0 bids 180 with seat 3, won 175",
        5,
        {},
        {"bidder": 0, "bid": 180, "partners": [3], "won": {"bidder": 175, "opponents": 125}},
        [-180, 125, 125, -180, 125],
    ),
    (
        "5 players twofer slam: seat 1 bids 300 alone and takes every trick",
        5,
        {},
        {
            "bidder": 1,
            "bid": 300,
            "partners": [],
            "won": {"bidder": 300, "opponents": 0},
            "all_tricks": "bidder",
        },
        [0, 500, 0, 0, 0],
    ),
    (
        "three_pairs: A bids 110; A 120, B 100, C 80",
        6,
        {"six_player": "three_pairs"},
        {"bidder": 3, "bid": 110, "won": {"A": 120, "B": 100, "C": 80}},
        [120, 100, 80, 120, 100, 80],
    ),
    (
        "3 players: seat 0 bids 200, won 210",
        3,
        {},
        {"bidder": 0, "bid": 200, "won": {"bidder": 210, "opponents": 90}},
        [210, 90, 90],
    ),
]


@pytest.mark.parametrize(
    ("name", "players", "options", "entry", "deltas"), RULES_CASES, ids=[c[0] for c in RULES_CASES]
)
def test_rules_vectors(
    name: str, players: int, options: dict[str, Any], entry: dict[str, Any], deltas: list[int]
) -> None:
    scored = score(record(players, [entry], **options))
    assert scored.rounds[0].deltas == deltas
    assert scored.totals == deltas


def _nine_hundred_to_980() -> list[dict[str, Any]]:
    """Four-player rounds leaving A (seats 0, 2) at 900 and B (1, 3) at 980."""
    return [
        {"bidder": 0, "bid": 170, "won": {"A": 300, "B": 0}, "all_tricks": "A"},  # 400 / 0
        {"bidder": 1, "bid": 170, "won": {"A": 0, "B": 300}, "all_tricks": "B"},  # 400 / 400
        {"bidder": 2, "bid": 170, "won": {"A": 300, "B": 0}, "all_tricks": "A"},  # 800 / 400
        {"bidder": 3, "bid": 170, "won": {"A": 0, "B": 300}, "all_tricks": "B"},  # 800 / 800
        {
            "bidder": 1,
            "bid": 180,
            "won": {"A": 120, "B": 180},
            "penalties": [{"player": 2, "points": 20, "reason": "revoke"}],
        },  # 900 / 980
    ]


def test_rules_end_vector_non_bidder_reaches_target() -> None:
    rounds = _nine_hundred_to_980()
    before = score(record(4, rounds))
    assert before.totals == [900, 980, 900, 980]
    assert not before.finished
    last = {"bidder": 0, "bid": 180, "won": {"A": 120, "B": 180}}
    after = score(record(4, [*rounds, last]))
    assert after.totals == [720, 1160, 720, 1160]
    assert after.finished
    assert after.winners == [1, 3]


def test_rules_end_vector_must_reach_on_bid_goes_on() -> None:
    last = {"bidder": 0, "bid": 180, "won": {"A": 120, "B": 180}}
    scored = score(record(4, [*_nine_hundred_to_980(), last], must_reach_on_bid=True))
    assert scored.totals == [720, 1160, 720, 1160]
    assert not scored.finished
    assert scored.winners == []
    # B then bids and makes it: B is the only candidate and wins.
    more = {"bidder": 1, "bid": 170, "won": {"A": 100, "B": 200}}
    scored = score(record(4, [*_nine_hundred_to_980(), last, more], must_reach_on_bid=True))
    assert scored.totals == [820, 1360, 820, 1360]
    assert scored.finished and scored.winners == [1, 3]


# --------------------------------------------------------------------------- sides and modes


def test_two_players_bidder_against_the_other() -> None:
    scored = score(
        record(
            2,
            [
                {"bidder": 1, "bid": 175, "won": {"bidder": 160, "opponents": 140}},
                {"bidder": 0, "bid": 250, "won": {"bidder": 255, "opponents": 45}},
            ],
        )
    )
    assert [r.deltas for r in scored.rounds] == [[140, -175], [255, 45]]
    assert scored.teams == {}
    assert scored.rounds[0].details["sides"] == {"bidder": [1], "opponents": [0]}


def test_four_players_called_partner_is_individual() -> None:
    entry = {"bidder": 2, "bid": 200, "partners": [1], "won": {"bidder": 220, "opponents": 80}}
    scored = score(record(4, [entry], called_partner=True))
    assert scored.teams == {}
    assert scored.rounds[0].deltas == [80, 220, 220, 80]
    assert scored.rounds[0].details["sides"] == {"bidder": [2, 1], "opponents": [0, 3]}


def test_four_players_called_partner_bidder_holding_the_card_plays_alone() -> None:
    # The called card is in the bidder's hand or the widow: partners [] is the bidder
    # alone against three, scored individually; not a twofer (no extra slam bonus).
    entry = {"bidder": 1, "bid": 180, "partners": [], "won": {"bidder": 200, "opponents": 100}}
    scored = score(record(4, [entry], called_partner=True))
    assert scored.rounds[0].deltas == [100, 200, 100, 100]
    assert scored.rounds[0].details["sides"] == {"bidder": [1], "opponents": [0, 2, 3]}
    assert "twofer" not in scored.rounds[0].details
    set_ = {"bidder": 1, "bid": 250, "partners": [], "won": {"bidder": 200, "opponents": 100}}
    assert score(record(4, [set_], called_partner=True)).rounds[0].deltas == [100, -250, 100, 100]
    slam = {**entry, "won": {"bidder": 300, "opponents": 0}, "all_tricks": "bidder"}
    assert score(record(4, [slam], called_partner=True)).rounds[0].deltas == [0, 400, 0, 0]
    table = table_for(4, called_partner=True)
    assert ENGINE.round_summary(table, entry) == "Ben bid 180 alone, made: 200 to 100"


def test_four_player_called_partner_slam_has_no_twofer_bonus() -> None:
    entry = {
        "bidder": 0,
        "bid": 170,
        "partners": [3],
        "won": {"bidder": 300, "opponents": 0},
        "all_tricks": "bidder",
    }
    assert score(record(4, [entry], called_partner=True)).rounds[0].deltas == [400, 0, 0, 400]


def test_six_player_teams() -> None:
    entry = {"bidder": 3, "bid": 205, "won": {"A": 100, "B": 200}}
    scored = score(record(6, [entry]))
    assert scored.teams == {"A": [0, 2, 4], "B": [1, 3, 5]}
    assert scored.rounds[0].deltas == [100, -205, 100, -205, 100, -205]


def test_three_pairs_teams_and_minimum_bid() -> None:
    assert ENGINE.teams(6, {"six_player": "three_pairs"}) == {
        "A": [0, 3],
        "B": [1, 4],
        "C": [2, 5],
    }
    entry = {"bidder": 2, "bid": 115, "won": {"A": 100, "B": 90, "C": 110}}
    assert score(record(6, [entry], six_player="three_pairs")).rounds[0].deltas == [
        100,
        90,
        -115,
        100,
        90,
        -115,
    ]


@pytest.mark.parametrize(
    ("partners", "deltas", "twofer"),
    [
        ([2, 4], [0, 400, 400, 0, 400, 0], False),  # normal: three against three
        ([2], [0, 500, 500, 0, 0, 0], True),  # one player holds both cards: a twofer
        ([], [0, 400, 0, 0, 0, 0], False),  # the bidder holds both: alone, not a twofer
    ],
)
def test_two_calls_partners_and_slam(partners: list[int], deltas: list[int], twofer: bool) -> None:
    entry = {
        "bidder": 1,
        "bid": 250,
        "partners": partners,
        "won": {"bidder": 300, "opponents": 0},
        "all_tricks": "bidder",
    }
    scored = score(record(6, [entry], six_player="two_calls"))
    assert scored.rounds[0].deltas == deltas
    assert scored.rounds[0].details["twofer"] is twofer


def test_twofer_set() -> None:
    entry = {"bidder": 4, "bid": 220, "partners": [], "won": {"bidder": 200, "opponents": 100}}
    assert score(record(5, [entry])).rounds[0].deltas == [100, 100, 100, 100, -220]


def test_opponents_slam_against_a_twofer_gets_plain_bonus() -> None:
    entry = {
        "bidder": 0,
        "bid": 170,
        "partners": [],
        "won": {"bidder": 0, "opponents": 300},
        "all_tricks": "opponents",
    }
    assert score(record(5, [entry])).rounds[0].deltas == [-170, 400, 400, 400, 400]


def test_penalties_team_and_individual() -> None:
    team = {
        "bidder": 1,
        "bid": 185,
        "won": {"A": 65, "B": 235},
        "penalties": [{"player": 2, "points": 50, "reason": "revoke"}],
    }
    assert score(record(4, [team])).rounds[0].deltas == [15, 235, 15, 235]
    alone = {
        "bidder": 0,
        "bid": 200,
        "won": {"bidder": 210, "opponents": 90},
        "penalties": [{"player": 2, "points": 50}, {"player": 2, "points": 10, "reason": ""}],
    }
    assert score(record(3, [alone])).rounds[0].deltas == [210, 90, 30]


def test_misdeal_same_dealer_then_rotation() -> None:
    rounds = [
        {"misdeal": True},
        {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}},
        {"misdeal": True},
        {"misdeal": True},
        {"misdeal": False, "bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}},
    ]
    data = record(4, rounds)
    data["first_dealer"] = 3
    scored = score(data)
    assert [r.dealer for r in scored.rounds] == [3, 3, 0, 0, 0]
    assert scored.upcoming["dealer"] == 1
    assert scored.rounds[0].deltas == [0, 0, 0, 0]
    assert scored.rounds[0].as_dict()["misdeal"] is True


def test_details_and_upcoming() -> None:
    entry = {"bidder": 0, "bid": 180, "partners": [3], "won": {"bidder": 175, "opponents": 125}}
    scored = score(record(5, [entry]))
    details = scored.rounds[0].details
    assert details["bidder"] == 0
    assert details["bid"] == 180
    assert details["made"] is False
    assert details["sides"] == {"bidder": [0, 3], "opponents": [1, 2, 4]}
    assert scored.upcoming == {"dealer": 1, "min_bid": 170, "sides": ["bidder", "opponents"]}
    pairs = score(record(6, [], six_player="three_pairs")).as_dict()
    assert pairs["next"] == {"dealer": 0, "min_bid": 110, "sides": ["A", "B", "C"]}
    assert pairs["teams"] == {"A": [0, 3], "B": [1, 4], "C": [2, 5]}


def test_point_discards_allows_a_slam_without_300() -> None:
    entry = {"bidder": 0, "bid": 200, "won": {"A": 270, "B": 30}, "all_tricks": "A"}
    assert score(record(4, [entry], point_discards=True)).rounds[0].deltas == [370, 30, 370, 30]
    found = problems(record(4, [entry]))
    assert [(p.round, p.field) for p in found] == [(1, "all_tricks")]


def test_play_only_options_are_recorded_without_effect() -> None:
    entry = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}
    play_only = {
        "blank_points": True,
        "break_both_trumps": True,
        "lead_trump_any_time": True,
        "no_slough": True,
        "pass_cards": True,
        "blank_leads": True,
        "misdeals": True,
    }
    scored = score(record(4, [entry], **play_only))
    assert scored.rounds[0].deltas == [-200, 110, -200, 110]
    assert all(scored.options[name] is True for name in play_only)
    specs = {spec.name: spec for spec in ENGINE.option_specs()}
    for name in play_only:
        assert specs[name].play_only and specs[name].group == "Play only"
        assert specs[name].default is False


def test_option_defaults() -> None:
    specs = {spec.name: spec.default for spec in ENGINE.option_specs()}
    assert specs["target"] == 1000
    assert specs["must_reach_on_bid"] is False
    assert specs["called_partner"] is False
    assert specs["six_player"] == "teams"
    assert specs["point_discards"] is False


# --------------------------------------------------------------------------- game end


def test_target_option_ends_the_game() -> None:
    rounds = [{"bidder": 0, "bid": 170, "won": {"A": 300, "B": 0}, "all_tricks": "A"}]
    assert score(record(4, rounds, target=400)).finished
    assert not score(record(4, rounds, target=405)).finished


def test_tied_sides_at_the_top_play_on() -> None:
    first = {"bidder": 0, "bid": 110, "won": {"A": 150, "B": 150, "C": 0}}
    scored = score(record(6, [first], six_player="three_pairs", target=150))
    assert scored.totals == [150, 150, 0, 150, 150, 0]
    assert not scored.finished
    second = {"bidder": 0, "bid": 110, "won": {"A": 120, "B": 100, "C": 80}}
    scored = score(record(6, [first, second], six_player="three_pairs", target=150))
    assert scored.finished and scored.winners == [0, 3]


def test_three_players_defenders_who_tie_at_the_top_win_together() -> None:
    # Three players: both defenders score 200 and tie above the target. They played
    # together in the deciding round, so they are one side and win together.
    entry = {"bidder": 0, "bid": 170, "won": {"bidder": 100, "opponents": 200}}
    scored = score(record(3, [entry], target=200))
    assert scored.totals == [-170, 200, 200]
    assert scored.finished and scored.winners == [1, 2]


def test_individual_end_counts_seats_when_not_tied() -> None:
    first = {"bidder": 1, "bid": 170, "won": {"bidder": 100, "opponents": 200}}
    third = {"bidder": 0, "bid": 170, "won": {"bidder": 200, "opponents": 100}}
    scored = score(record(3, [first, third], target=300))
    assert scored.totals == [400, -70, 300]
    assert scored.finished and scored.winners == [0]  # the highest total wins alone


def test_players_of_different_sides_tied_at_the_top_play_on() -> None:
    # Five players, target 450: after round 3 seats 0 and 1 (the bidder's side) and
    # seats 2 and 3 (defenders) all stand at 450: two different sides, play goes on.
    rounds = [
        {"bidder": 2, "bid": 200, "partners": [3], "won": {"bidder": 300, "opponents": 0}},
        {"bidder": 0, "bid": 170, "partners": [1], "won": {"bidder": 250, "opponents": 50}},
        {"bidder": 0, "bid": 200, "partners": [1], "won": {"bidder": 200, "opponents": 100}},
    ]
    scored = score(record(5, rounds, target=450))
    assert scored.totals == [450, 450, 450, 450, 150]
    assert scored.finished is False and scored.winners == []
    rounds.append(
        {"bidder": 2, "bid": 170, "partners": [3], "won": {"bidder": 170, "opponents": 130}}
    )
    scored = score(record(5, rounds, target=450))
    assert scored.totals == [580, 580, 620, 620, 280]
    assert scored.finished and scored.winners == [2, 3]


def test_five_players_partners_reaching_the_target_together_win_together() -> None:
    # The case: 5 players, target 500; seats 0 and 1 together reach 600.
    first = {"bidder": 0, "bid": 300, "partners": [1], "won": {"bidder": 300, "opponents": 0}}
    second = {"bidder": 1, "bid": 300, "partners": [0], "won": {"bidder": 300, "opponents": 0}}
    scored = score(record(5, [first, second], target=500))
    assert scored.totals == [600, 600, 0, 0, 0]
    assert scored.finished and scored.as_dict()["winners"] == [0, 1]


def test_must_reach_on_bid_individual_only_bidding_side() -> None:
    # Five players, target 300: the opponents reach 300 but are not the bidding side.
    entry = {"bidder": 0, "bid": 200, "partners": [1], "won": {"bidder": 0, "opponents": 300}}
    scored = score(record(5, [entry], target=300, must_reach_on_bid=True))
    assert not scored.finished
    # Seat 2 bids with seat 3 and makes it: both reach 600, tied at the top.
    made = {"bidder": 2, "bid": 300, "partners": [3], "won": {"bidder": 300, "opponents": 0}}
    scored = score(record(5, [entry, made], target=300, must_reach_on_bid=True))
    assert scored.totals == [-200, -200, 600, 600, 300]
    # Partners tied at the top of the side that made its bid win together.
    assert scored.finished and scored.winners == [2, 3]
    # With a partner further behind, the bidder alone wins.
    ahead = {"bidder": 2, "bid": 300, "partners": [0], "won": {"bidder": 300, "opponents": 0}}
    scored = score(record(5, [entry, ahead], target=300, must_reach_on_bid=True))
    assert scored.totals == [100, -200, 600, 300, 300]
    assert scored.finished and scored.winners == [2]


def test_no_round_after_the_end() -> None:
    rounds = [
        {"bidder": 0, "bid": 170, "won": {"A": 300, "B": 0}, "all_tricks": "A"},
        {"bidder": 1, "bid": 170, "won": {"A": 100, "B": 200}},
    ]
    found = problems(record(4, rounds, target=400))
    assert found[0].round == 2


def test_a_finished_game_with_a_misdeal_after_it_is_rejected() -> None:
    rounds = [
        {"bidder": 0, "bid": 170, "won": {"A": 300, "B": 0}, "all_tricks": "A"},
        {"misdeal": True},
    ]
    assert problems(record(4, rounds, target=400))[0].round == 2


# --------------------------------------------------------------------------- checks

GOOD4 = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}
GOOD5 = {"bidder": 0, "bid": 180, "partners": [3], "won": {"bidder": 175, "opponents": 125}}


def changed(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    entry = copy.deepcopy(base)
    for key, value in changes.items():
        if value is _DROP:
            entry.pop(key, None)
        else:
            entry[key] = value
    return entry


_DROP = object()

BAD_ROUNDS = [
    # (id, players, options, entry, field)
    ("bid not a multiple of 5", 4, {}, changed(GOOD4, bid=172), "bid"),
    ("bid below 170", 4, {}, changed(GOOD4, bid=165), "bid"),
    ("bid 110 without three_pairs", 4, {}, changed(GOOD4, bid=110), "bid"),
    ("bid above 300", 4, {}, changed(GOOD4, bid=305), "bid"),
    ("bid huge", 4, {}, changed(GOOD4, bid=10**40), "bid"),
    ("bid a string", 4, {}, changed(GOOD4, bid="200"), "bid"),
    ("bid a float", 4, {}, changed(GOOD4, bid=200.0), "bid"),
    ("bid a boolean", 4, {}, changed(GOOD4, bid=True), "bid"),
    ("bid null", 4, {}, changed(GOOD4, bid=None), "bid"),
    ("bid missing", 4, {}, changed(GOOD4, bid=_DROP), "bid"),
    ("bid a list", 4, {}, changed(GOOD4, bid=[200]), "bid"),
    ("three_pairs bid 105", 6, {"six_player": "three_pairs"}, {
        "bidder": 0, "bid": 105, "won": {"A": 120, "B": 100, "C": 80}}, "bid"),
    ("bidder out of range", 4, {}, changed(GOOD4, bidder=4), "bidder"),
    ("bidder negative", 4, {}, changed(GOOD4, bidder=-1), "bidder"),
    ("bidder a string", 4, {}, changed(GOOD4, bidder="Ann"), "bidder"),
    ("bidder a boolean", 4, {}, changed(GOOD4, bidder=False), "bidder"),
    ("bidder null", 4, {}, changed(GOOD4, bidder=None), "bidder"),
    ("bidder missing", 4, {}, changed(GOOD4, bidder=_DROP), "bidder"),
    ("won missing", 4, {}, changed(GOOD4, won=_DROP), "won"),
    ("won a list", 4, {}, changed(GOOD4, won=[190, 110]), "won"),
    ("won null", 4, {}, changed(GOOD4, won=None), "won"),
    ("won missing a side", 4, {}, changed(GOOD4, won={"A": 300}), "won"),
    ("won unknown side", 4, {}, changed(GOOD4, won={"A": 190, "B": 100, "C": 10}), "won"),
    ("won individual keys in teams", 4, {}, changed(
        GOOD4, won={"bidder": 190, "opponents": 110}), "won"),
    ("won team keys individually", 5, {}, changed(GOOD5, won={"A": 175, "B": 125}), "won"),
    ("won a string", 4, {}, changed(GOOD4, won={"A": "190", "B": 110}), "won"),
    ("won a float", 4, {}, changed(GOOD4, won={"A": 190.0, "B": 110}), "won"),
    ("won null value", 4, {}, changed(GOOD4, won={"A": None, "B": 300}), "won"),
    ("won negative", 4, {}, changed(GOOD4, won={"A": -10, "B": 310}), "won"),
    ("won above 300", 4, {}, changed(GOOD4, won={"A": 305, "B": 0}), "won"),
    ("won huge", 4, {}, changed(GOOD4, won={"A": 10**30, "B": 0}), "won"),
    ("won not a multiple of 5", 4, {}, changed(GOOD4, won={"A": 192, "B": 108}), "won"),
    ("won not adding up", 4, {}, changed(GOOD4, won={"A": 190, "B": 100}), "won"),
    ("all_tricks unknown side", 4, {}, changed(GOOD4, all_tricks="C"), "all_tricks"),
    ("all_tricks a number", 4, {}, changed(GOOD4, all_tricks=1), "all_tricks"),
    ("all_tricks a list", 4, {}, changed(GOOD4, all_tricks=["A"]), "all_tricks"),
    ("all_tricks without 300", 4, {}, changed(GOOD4, all_tricks="A"), "all_tricks"),
    ("all_tricks individual", 5, {}, changed(GOOD5, all_tricks="opponents"), "all_tricks"),
    ("partners in a fixed-team game", 4, {}, changed(GOOD4, partners=[2]), "partners"),
    ("partners with three players", 3, {}, {
        "bidder": 0, "bid": 200, "partners": [1], "won": {"bidder": 210, "opponents": 90}},
     "partners"),
    ("partners missing with five", 5, {}, changed(GOOD5, partners=_DROP), "partners"),
    ("partners not a list", 5, {}, changed(GOOD5, partners=3), "partners"),
    ("partners null", 5, {}, changed(GOOD5, partners=None), "partners"),
    ("partner out of range", 5, {}, changed(GOOD5, partners=[5]), "partners"),
    ("partner a string", 5, {}, changed(GOOD5, partners=["3"]), "partners"),
    ("partner a boolean", 5, {}, changed(GOOD5, partners=[True]), "partners"),
    ("partner is the bidder", 5, {}, changed(GOOD5, partners=[0]), "partners"),
    ("two partners with five", 5, {}, changed(GOOD5, partners=[1, 3]), "partners"),
    ("two partners under called_partner", 4, {"called_partner": True}, {
        "bidder": 0, "bid": 200, "partners": [1, 2], "won": {"bidder": 200, "opponents": 100}},
     "partners"),
    ("three partners in two_calls", 6, {"six_player": "two_calls"}, {
        "bidder": 0, "bid": 200, "partners": [1, 2, 3],
        "won": {"bidder": 200, "opponents": 100}}, "partners"),
    ("same partner twice in two_calls", 6, {"six_player": "two_calls"}, {
        "bidder": 0, "bid": 200, "partners": [2, 2],
        "won": {"bidder": 200, "opponents": 100}}, "partners"),
    ("unknown field", 4, {}, changed(GOOD4, trumps="red"), "trumps"),
    ("misdeal with a bid", 4, {}, {"misdeal": True, "bidder": 0}, "bidder"),
    ("misdeal not a boolean", 4, {}, {"misdeal": "yes"}, "misdeal"),
    ("misdeal null", 4, {}, {"misdeal": None}, "misdeal"),
    ("misdeal false needs a round", 4, {}, {"misdeal": False}, "bidder"),
    ("empty round", 4, {}, {}, "bidder"),
    ("penalties not a list", 4, {}, changed(GOOD4, penalties={"player": 0}), "penalties"),
    ("penalty not an object", 4, {}, changed(GOOD4, penalties=[5]), "penalties"),
    ("penalty without player", 4, {}, changed(GOOD4, penalties=[{"points": 50}]), "penalties"),
    ("penalty player out of range", 4, {}, changed(
        GOOD4, penalties=[{"player": 9, "points": 50}]), "penalties"),
    ("penalty negative", 4, {}, changed(
        GOOD4, penalties=[{"player": 0, "points": -5}]), "penalties"),
    ("penalty points a string", 4, {}, changed(
        GOOD4, penalties=[{"player": 0, "points": "50"}]), "penalties"),
    ("penalty unknown key", 4, {}, changed(
        GOOD4, penalties=[{"player": 0, "points": 5, "why": "x"}]), "penalties"),
    ("penalty reason not text", 4, {}, changed(
        GOOD4, penalties=[{"player": 0, "points": 5, "reason": 7}]), "penalties"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "players", "options", "entry", "field"), BAD_ROUNDS, ids=[c[0] for c in BAD_ROUNDS]
)
def test_bad_round_is_rejected(
    name: str, players: int, options: dict[str, Any], entry: dict[str, Any], field: str
) -> None:
    # The bad round is the second one: the problem must name round 2 and the field.
    first = {"misdeal": True}
    found = problems(record(players, [first, entry], **options))
    assert (2, field) in [(p.round, p.field) for p in found], found


def test_every_problem_of_a_round_is_reported() -> None:
    entry = {"bidder": 7, "bid": 172, "won": {"A": 1, "B": 2}, "extra": 1}
    fields = {p.field for p in problems(record(4, [entry]))}
    assert {"bidder", "bid", "won", "extra"} <= fields


def test_bad_round_messages_read_well() -> None:
    found = problems(record(4, [changed(GOOD4, bid=172)]))
    assert str(found[0]) == "round 1: bid 172 is not a multiple of 5"
    found = problems(record(4, [changed(GOOD4, won={"A": 190, "B": 100})]))
    assert "300" in found[0].message and "290" in found[0].message


def test_round_not_an_object() -> None:
    found = problems(record(4, [["bidder", 0]]))
    assert found[0].round == 1


BAD_OPTIONS = [
    ("called_partner with five players", 5, {"called_partner": True}, "options.called_partner"),
    ("called_partner with six players", 6, {"called_partner": True}, "options.called_partner"),
    ("two_calls with four players", 4, {"six_player": "two_calls"}, "options.six_player"),
    ("three_pairs with five players", 5, {"six_player": "three_pairs"}, "options.six_player"),
    ("six_player unknown", 6, {"six_player": "four_pairs"}, "options.six_player"),
    ("target a string", 4, {"target": "1000"}, "options.target"),
    ("target too low", 4, {"target": 0}, "options.target"),
    ("target huge", 4, {"target": 10**40}, "options.target"),
    ("must_reach_on_bid not a boolean", 4, {"must_reach_on_bid": 1}, "options.must_reach_on_bid"),
    ("point_discards null", 4, {"point_discards": None}, "options.point_discards"),
    ("play-only not a boolean", 4, {"no_slough": "yes"}, "options.no_slough"),
    ("unknown option", 4, {"deals": 8}, "options.deals"),
]


@pytest.mark.parametrize(
    ("name", "players", "options", "field"), BAD_OPTIONS, ids=[c[0] for c in BAD_OPTIONS]
)
def test_bad_options_are_rejected(
    name: str, players: int, options: dict[str, Any], field: str
) -> None:
    found = problems(record(players, [], **options))
    assert field in [p.field for p in found], found


@pytest.mark.parametrize("players", [1, 7, 8])
def test_player_counts(players: int) -> None:
    data = record(players, [])
    data["players"] = [f"P{i}" for i in range(players)]
    assert [p.field for p in problems(data)] == ["players"]


def test_allowed_player_counts_follow_options() -> None:
    assert ENGINE.allowed_player_counts({}) == (2, 3, 4, 5, 6)
    assert ENGINE.allowed_player_counts({"called_partner": True}) == (4,)
    assert ENGINE.allowed_player_counts({"six_player": "two_calls"}) == (6,)
    assert ENGINE.allowed_player_counts({"six_player": "teams"}) == (2, 3, 4, 5, 6)


def test_first_dealer_checked() -> None:
    data = record(4, [])
    data["first_dealer"] = 4
    assert [p.field for p in problems(data)] == ["first_dealer"]


# --------------------------------------------------------------------------- descriptions


def _fields(players: int, **options: Any) -> dict[str, Any]:
    return {f.name: f for f in ENGINE.round_fields(players, options)}


def test_round_fields_team_mode() -> None:
    fields = _fields(4)
    assert list(fields) == ["misdeal", "bidder", "bid", "won", "all_tricks", "penalties"]
    assert (fields["bid"].minimum, fields["bid"].maximum, fields["bid"].step) == (170, 300, 5)
    assert fields["won"].kind == "per_side" and fields["won"].keys == ("A", "B")
    assert (fields["won"].minimum, fields["won"].maximum, fields["won"].step) == (0, 300, 5)
    assert fields["all_tricks"].choices == ("A", "B") and not fields["all_tricks"].required
    assert not fields["misdeal"].required and not fields["penalties"].required
    assert fields["bidder"].kind == "seat" and fields["bidder"].column
    assert all(fields[name].column for name in ("bidder", "bid", "won"))


def test_round_fields_depend_on_options() -> None:
    assert "partners" not in _fields(2)
    assert "partners" not in _fields(3)
    assert "partners" not in _fields(6)
    assert _fields(6)["won"].keys == ("A", "B")
    pairs = _fields(6, six_player="three_pairs")
    assert pairs["won"].keys == ("A", "B", "C")
    assert pairs["bid"].minimum == 110
    assert pairs["all_tricks"].choices == ("A", "B", "C")
    called = _fields(4, called_partner=True)
    assert called["partners"].kind == "seats" and called["partners"].count == 1
    assert called["won"].keys == ("bidder", "opponents")
    five = _fields(5)
    assert five["partners"].kind == "seats" and "twofer" in five["partners"].help
    two = _fields(6, six_player="two_calls")
    assert two["partners"].label == "Partners"
    assert "300" in _fields(4)["all_tricks"].help
    assert "300" not in _fields(4, point_discards=True)["all_tricks"].help


def test_describe_lists_every_option() -> None:
    names = {o["name"] for o in ENGINE.describe()["options"]}
    assert names == {
        "target",
        "must_reach_on_bid",
        "called_partner",
        "six_player",
        "point_discards",
        "blank_points",
        "break_both_trumps",
        "lead_trump_any_time",
        "no_slough",
        "pass_cards",
        "blank_leads",
        "misdeals",
    }
    assert ENGINE.describe()["player_counts"] == [2, 3, 4, 5, 6]


def test_round_summary() -> None:
    table = table_for(4)
    text = ENGINE.round_summary(table, {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}})
    assert text == "Ann bid 200, set: A 190, B 110"
    text = ENGINE.round_summary(
        table,
        {
            "bidder": 1,
            "bid": 170,
            "won": {"A": 0, "B": 300},
            "all_tricks": "B",
            "penalties": [{"player": 2, "points": 50}],
        },
    )
    assert text == "Ben bid 170, made: A 0, B 300; B took every trick; penalty Cat -50"
    assert "Misdeal" in ENGINE.round_summary(table, {"misdeal": True})
    five = table_for(5)
    assert ENGINE.round_summary(five, GOOD5) == "Ann bid 180 with Dan, set: 175 to 125"
    twofer = {"bidder": 1, "bid": 300, "partners": [], "won": {"bidder": 300, "opponents": 0}}
    assert ENGINE.round_summary(five, twofer) == "Ben bid 300, twofer, made: 300 to 0"
    six = table_for(6, six_player="two_calls")
    both = {"bidder": 2, "bid": 200, "partners": [4], "won": {"bidder": 250, "opponents": 50}}
    assert ENGINE.round_summary(six, both) == "Cat bid 200 with Eve (twofer), made: 250 to 50"


# --------------------------------------------------------------------------- properties


def _side_of(details: dict[str, Any], seat: int) -> str:
    return next(label for label, seats in details["sides"].items() if seat in seats)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_records())
def test_properties(data: dict[str, Any]) -> None:
    scored = score(data)
    options = data["options"]
    players = len(data["players"])
    totals = [0] * players
    dealer = data.get("first_dealer", 0)
    for result, entry in zip(scored.rounds, data["rounds"], strict=True):
        # Totals are the running sum of deltas; the dealer rotates except after misdeals.
        totals = [a + b for a, b in zip(totals, result.deltas, strict=True)]
        assert result.totals == totals
        assert result.dealer == dealer
        if entry.get("misdeal"):
            assert result.deltas == [0] * players
            continue
        dealer = (dealer + 1) % players
        details = result.details
        won = entry["won"]
        assert sum(won.values()) == 300
        # Undo penalties (on the seat individually, on the whole team in team games).
        raw = list(result.deltas)
        for penalty in entry.get("penalties", []):
            hit = details["sides"][_side_of(details, penalty["player"])]
            for seat in hit if scored.teams else [penalty["player"]]:
                raw[seat] += penalty["points"]
        bidding = _side_of(details, entry["bidder"])
        for label, seats in details["sides"].items():
            values = {raw[s] for s in seats}
            assert len(values) == 1  # every member of a side gets the side's delta
            value = values.pop()
            if entry.get("all_tricks") == label:
                twofer = label == bidding and details.get("twofer", False)
                value -= 200 if twofer else 100
            if label == bidding:
                made = won[label] >= entry["bid"]
                assert details["made"] is made
                assert value == (won[label] if made else -entry["bid"])
            else:
                assert value == won[label]
        # The sides cover every seat exactly once.
        assert sorted(s for seats in details["sides"].values() for s in seats) == list(
            range(players)
        )
    assert scored.totals == totals
    assert scored.upcoming["dealer"] == dealer
    if scored.finished:
        assert scored.winners
        assert all(scored.totals[s] >= options["target"] for s in scored.winners)
        assert len({scored.totals[s] for s in scored.winners}) == 1
    else:
        assert scored.winners == []
    # Scoring twice gives the same result.
    assert score(copy.deepcopy(data)).as_dict() == scored.as_dict()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_records())
def test_only_the_last_round_can_end_the_game(data: dict[str, Any]) -> None:
    for cut in range(1, len(data["rounds"])):
        assert not score({**data, "rounds": data["rounds"][:cut]}).finished


@pytest.mark.parametrize("players", [None, 2, 3, 4, 5, 6])
def test_sample_record_is_valid(players: int | None) -> None:
    for seed in range(51):
        data = sample_record(seed=seed, players=players)
        scored = score(data)
        assert len(scored.rounds) == 20
        assert not scored.finished
        if players is not None:
            assert len(data["players"]) == players
        assert sample_record(seed=seed, players=players) == data  # deterministic


def test_sample_record_sizes() -> None:
    assert len(score(sample_record(rounds=3, seed=1, players=4)).rounds) == 3
    assert len(score(sample_record(rounds=200, seed=2, players=6)).rounds) == 200
    assert len(score(sample_record(rounds=0, seed=2, players=2)).rounds) == 0


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.sampled_from(["A", "B", "C", "bidder", "opponents", ""]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["A", "B", "bidder", "opponents", "player", "points"]), inner
        )
    ),
    max_leaves=8,
)
MODES = [
    (2, {}),
    (3, {}),
    (4, {}),
    (4, {"called_partner": True}),
    (5, {}),
    (6, {}),
    (6, {"six_player": "two_calls"}),
    (6, {"six_player": "three_pairs"}),
]
KEYS = ["misdeal", "bidder", "bid", "partners", "won", "all_tricks", "penalties", "other"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(MODES),
    st.dictionaries(st.sampled_from(KEYS), JSON, max_size=6),
)
def test_any_input_is_scored_or_rejected_cleanly(
    mode: tuple[int, dict[str, Any]], entry: dict[str, Any]
) -> None:
    players, options = mode
    try:
        scored = score(record(players, [entry], **options))
    except InvalidRecord as invalid:
        assert all(p.round == 1 and p.field for p in invalid.problems)
    else:
        assert len(scored.rounds) == 1
        assert isinstance(ENGINE.round_summary(table_for(players, **options), entry), str)


@settings(max_examples=50, deadline=None)
@given(valid_records())
def test_round_summary_of_valid_rounds(data: dict[str, Any]) -> None:
    table = ENGINE.table_for(parse_record(data, ENGINES))
    for entry in data["rounds"]:
        text = ENGINE.round_summary(table, entry)
        assert text and "None" not in text


@pytest.mark.parametrize(
    ("players", "options", "says"),
    [
        (5, {}, "there are none with 5 players"),
        (6, {}, "there are none with 6 players"),
        (4, {"misdeals": True}, "highest card is 12 or lower"),
        (3, {}, "misdeals on weak hands are off"),
    ],
)
def test_misdeals_at_every_table_size_and_weak_hands_only_at_two_to_four(
    players: int, options: dict[str, Any], says: str
) -> None:
    # A dealing error needs a re-deal at any size: the misdeal field is always there,
    # its help says what it means at this table; the weak-hand option is 2-4 only.
    fields = {spec.name: spec for spec in ENGINE.round_fields(players, options)}
    assert says in fields["misdeal"].help
    spec = {s.name: s for s in ENGINE.option_specs()}["misdeals"]
    assert spec.player_counts == (2, 3, 4)
    assert "not offered with 5 or 6" in spec.help
    first = {"bidder": 1, "bid": 170, "won": {"bidder": 200, "opponents": 100}}
    if players == 5:
        first["partners"] = [2]
    elif players in (4, 6):
        first = {"bidder": 1, "bid": 170, "won": {"A": 100, "B": 200}}
    scored = score(record(players, [{"misdeal": True}, first], **options))
    assert [r.dealer for r in scored.rounds] == [0, 0]
    assert scored.rounds[0].deltas == [0] * players


def test_no_partner_choice_labels() -> None:
    from scoring.engines.roolz import CALL_FIVE, CALL_ONE, CALL_TWO, no_partner_choice

    assert no_partner_choice(CALL_ONE) == "I hold the called card (bidder alone)"
    assert no_partner_choice(CALL_FIVE) == "Twofer: card in the low hand"
    assert no_partner_choice(CALL_TWO) is None
