"""Roller Derby (rules.md section 2): vectors, options, checks, descriptions, properties."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.base import InvalidRecord, parse_record
from scoring.engines.registry import score_data
from scoring.engines.roller_derby import RollerDerby
from scoring.engines.samples.roller_derby import sample_record
from tests.scoring.engines.strategies.roller_derby import valid_records
from tests.vectors import assert_matches, vector_cases

ENGINE = RollerDerby()
ENGINES = {"roller_derby": ENGINE}
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def record(rounds: list[Any], options: dict[str, Any] | None = None, **extra: Any) -> dict:
    data: dict[str, Any] = {
        "format": 1,
        "game": "roller_derby",
        "players": list(NAMES),
        "options": options or {},
        "rounds": rounds,
    }
    data.update(extra)
    return data


def score(data: dict) -> dict[str, Any]:
    return ENGINE.score(parse_record(data, ENGINES)).as_dict()


def problems(data: dict) -> list[dict[str, Any]]:
    with pytest.raises(InvalidRecord) as raised:
        ENGINE.score(parse_record(data, ENGINES))
    found = [p.as_dict() for p in raised.value.problems]
    assert found and all(p["message"] for p in found)
    return found


def table_for(options: dict[str, Any] | None = None):
    return ENGINE.table_for(parse_record(record([], options), ENGINES))


# --------------------------------------------------------------------------- rules.md vectors

# (dice giving the target, tricks, jokers, expected score) from rules.md section 2.
TRICK_VECTORS = [
    ([3, 4], 7, 0, 100),
    ([3, 4], 9, 0, 80),
    ([5, 6], 6, 0, 50),
    ([1, 1], 13, 0, 0),
    ([4, 4], 8, 2, 82),
    ([2, 3], 7, 1, 71),
    ([1, 2], 12, 2, 0),
]


@pytest.mark.parametrize(("dice", "tricks", "jokers", "expected"), TRICK_VECTORS)
def test_trick_vectors(dice, tricks, jokers, expected):
    entry: dict[str, Any] = {"dice": dice, "tricks": tricks}
    options: dict[str, Any] = {}
    if jokers:
        entry["jokers"] = jokers
        options["jokers_for_sale"] = True
    out = score(record([entry], options))
    round_ = out["rounds"][0]
    # Dealer seat 0: the Roller is seat 1, team B (seats 1 and 3) scores.
    assert round_["dealer"] == 0
    assert round_["roller"] == 1
    assert round_["target"] == sum(dice)
    assert round_["team"] == "B"
    assert round_["deltas"] == [0, expected, 0, expected]


@pytest.mark.parametrize(("made", "expected"), [(True, 150), (False, 0)])
def test_all_or_nothing_vectors(made, expected):
    out = score(record([{"dice": [3, 4], "all_or_nothing": True, "made": made}]))
    assert out["rounds"][0]["deltas"] == [0, expected, 0, expected]
    assert out["rounds"][0]["all_or_nothing"] is True
    assert out["next"]["all_or_nothing_used"] == {"A": False, "B": True}


WHOLE_GAME = [
    {"dice": [3, 4], "tricks": 6},  # dealer 0, B rolls 7 takes 6: +90
    {"dice": [2, 2], "all_or_nothing": True, "made": False},  # dealer 1, A fails: 0
    {"dice": [1, 3], "tricks": 4},  # dealer 2, B rolls 4 takes 4: +100
]


def test_whole_game_vector_can_end_early():
    out = score(record(WHOLE_GAME))
    assert [r["dealer"] for r in out["rounds"]] == [0, 1, 2]
    assert [r["team"] for r in out["rounds"]] == ["B", "A", "B"]
    assert out["totals"] == [0, 190, 0, 190]
    assert out["can_end_early"] is True
    assert out["ended_early"] is False
    assert out["finished"] is False
    assert out["winners"] == []
    assert out["next"] == {
        "dealer": 3,
        "roller": 0,
        "roller_team": "A",
        "all_or_nothing_used": {"A": True, "B": False},
        "deals_left": 1,
    }


def test_whole_game_vector_ended_early():
    out = score(record(WHOLE_GAME, ended_early=True))
    assert out["finished"] is True
    assert out["ended_early"] is True
    assert out["can_end_early"] is True
    assert out["winners"] == [1, 3]
    assert out["next"]["deals_left"] == 0


def test_whole_game_vector_played_out():
    out = score(record([*WHOLE_GAME, {"dice": [6, 6], "tricks": 12}]))
    assert out["totals"] == [100, 190, 100, 190]
    assert out["finished"] is True
    assert out["can_end_early"] is False
    assert out["winners"] == [1, 3]


@pytest.mark.parametrize(
    ("case_id", "case"),
    vector_cases("roller_derby"),
    ids=[c[0] for c in vector_cases("roller_derby")],
)
def test_json_vectors(case_id, case):
    if case.get("invalid"):
        problems(case["record"])
    else:
        assert_matches(case["output"], score(case["record"]))


# --------------------------------------------------------------------------- options


def test_option_specs_and_defaults():
    specs = {spec.name: spec for spec in ENGINE.option_specs()}
    assert {name: spec.default for name, spec in specs.items()} == {
        "deals": 4,
        "dodecahedron": False,
        "jokers_for_sale": False,
        "joker_cost": 9,
        "counter_clockwise": False,
        "early_finish_gap": 150,
        "rollers_privilege": False,
    }
    assert specs["deals"].choices == (4, 8)
    assert specs["early_finish_gap"].kind == "int_or_null"
    assert (specs["joker_cost"].minimum, specs["joker_cost"].maximum) == (0, 100)
    assert specs["rollers_privilege"].play_only is True
    assert specs["rollers_privilege"].group == "Play only"
    for spec in specs.values():
        assert spec.label and spec.help
        if spec.name != "rollers_privilege":
            assert spec.group == "Scoring" and not spec.play_only
    described = ENGINE.describe()
    assert described["key"] == "roller_derby"
    assert described["title"] == "Roller Derby"
    assert described["player_counts"] == [4]


def test_options_echoed_with_defaults():
    out = score(record([]))
    assert out["options"] == {
        "deals": 4,
        "dodecahedron": False,
        "jokers_for_sale": False,
        "joker_cost": 9,
        "counter_clockwise": False,
        "early_finish_gap": 150,
        "rollers_privilege": False,
    }
    assert out["teams"] == {"A": [0, 2], "B": [1, 3]}
    assert out["finished"] is False
    assert out["can_end_early"] is False
    assert out["next"] == {
        "dealer": 0,
        "roller": 1,
        "roller_team": "B",
        "all_or_nothing_used": {"A": False, "B": False},
        "deals_left": 4,
    }


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"deals": 5}, "options.deals"),
        ({"deals": "4"}, "options.deals"),
        ({"dodecahedron": "yes"}, "options.dodecahedron"),
        ({"jokers_for_sale": 1}, "options.jokers_for_sale"),
        ({"joker_cost": -1}, "options.joker_cost"),
        ({"joker_cost": 101}, "options.joker_cost"),
        ({"joker_cost": 9.0}, "options.joker_cost"),
        ({"counter_clockwise": None}, "options.counter_clockwise"),
        ({"early_finish_gap": -1}, "options.early_finish_gap"),
        ({"early_finish_gap": "150"}, "options.early_finish_gap"),
        ({"rollers_privilege": "on"}, "options.rollers_privilege"),
        ({"target": 1000}, "options.target"),
    ],
)
def test_bad_options(options, field):
    assert field in [p["field"] for p in problems(record([], options))]


@pytest.mark.parametrize("count", [3, 5])
def test_only_four_players(count):
    data = record([])
    data["players"] = ["P" + str(i) for i in range(count)]
    assert [p["field"] for p in problems(data)] == ["players"]


@pytest.mark.parametrize("deals", [4, 8])
def test_deals_option_ends_the_game(deals):
    rounds = [{"dice": [3, 4], "tricks": 7}] * deals
    out = score(record(rounds, {"deals": deals}))
    assert out["finished"] is True
    assert out["totals"] == [deals // 2 * 100] * 4
    assert out["winners"] == [0, 1, 2, 3]  # a draw: every seat with the top total
    assert out["next"]["deals_left"] == 0
    found = problems(record([*rounds, {"dice": [3, 4], "tricks": 7}], {"deals": deals}))
    assert found[0]["round"] == deals + 1


def test_unfinished_long_game():
    out = score(record([{"dice": [3, 4], "tricks": 7}] * 4, {"deals": 8}))
    assert out["finished"] is False
    assert out["winners"] == []
    assert out["next"]["deals_left"] == 4


def test_dodecahedron_one_die():
    out = score(
        record([{"dice": [12], "tricks": 12}, {"dice": [1], "tricks": 3}], {"dodecahedron": True})
    )
    assert [r["target"] for r in out["rounds"]] == [12, 1]
    assert out["totals"] == [80, 100, 80, 100]


@pytest.mark.parametrize(
    ("cost", "expected"),
    [(9, 82), (20, 60), (0, 100), (50, 0), (100, 0)],
)
def test_joker_cost(cost, expected):
    entry = {"dice": [4, 4], "tricks": 8, "jokers": 2}
    out = score(record([entry], {"jokers_for_sale": True, "joker_cost": cost}))
    # 100 for the exact target minus cost x 2, never below zero.
    assert out["rounds"][0]["deltas"] == [0, expected, 0, expected]


def test_jokers_absent_or_zero_under_jokers_for_sale():
    rounds = [{"dice": [3, 4], "tricks": 5}, {"dice": [3, 4], "tricks": 5, "jokers": 0}]
    out = score(record(rounds, {"jokers_for_sale": True}))
    assert out["totals"] == [80, 80, 80, 80]


def test_jokers_zero_allowed_with_all_or_nothing():
    entry = {"dice": [3, 4], "all_or_nothing": True, "made": True, "jokers": 0}
    out = score(record([entry], {"jokers_for_sale": True}))
    assert out["totals"] == [0, 150, 0, 150]


@pytest.mark.parametrize(
    ("options", "first_dealer", "dealers", "rollers"),
    [
        ({}, 0, [0, 1, 2, 3], [1, 2, 3, 0]),
        ({}, 2, [2, 3, 0, 1], [3, 0, 1, 2]),
        ({"counter_clockwise": True}, 0, [0, 3, 2, 1], [3, 2, 1, 0]),
        ({"counter_clockwise": True}, 1, [1, 0, 3, 2], [0, 3, 2, 1]),
    ],
)
def test_rotation(options, first_dealer, dealers, rollers):
    rounds = [{"dice": [3, 4], "tricks": 7}] * 3
    out = score(record(rounds, options, first_dealer=first_dealer))
    assert [r["dealer"] for r in out["rounds"]] == dealers[:3]
    assert [r["roller"] for r in out["rounds"]] == rollers[:3]
    assert [r["team"] for r in out["rounds"]] == ["A" if s % 2 == 0 else "B" for s in rollers[:3]]
    assert out["next"]["dealer"] == dealers[3]
    assert out["next"]["roller"] == rollers[3]
    # Only the roller's team scored 100 each deal.
    for result, roller in zip(out["rounds"], rollers, strict=False):
        assert result["deltas"] == [100 if s % 2 == roller % 2 else 0 for s in range(4)]


def test_rollers_privilege_changes_nothing():
    rounds = [{"dice": [3, 4], "tricks": 6}, {"dice": [5, 5], "tricks": 9}]
    plain = score(record(rounds))
    privileged = score(record(rounds, {"rollers_privilege": True}))
    assert privileged["options"]["rollers_privilege"] is True
    assert privileged["rounds"] == plain["rounds"]
    assert privileged["totals"] == plain["totals"]


@pytest.mark.parametrize(
    ("gap", "can_end"),
    [(150, True), (189, True), (190, False), (200, False), (0, True), (None, False)],
)
def test_early_finish_gap(gap, can_end):
    # 0-190 after three deals of a four-deal game.
    out = score(record(WHOLE_GAME, {"early_finish_gap": gap}))
    assert out["can_end_early"] is can_end
    if can_end:
        assert score(record(WHOLE_GAME, {"early_finish_gap": gap}, ended_early=True))["finished"]
    else:
        found = problems(record(WHOLE_GAME, {"early_finish_gap": gap}, ended_early=True))
        assert [(p["field"], p["round"]) for p in found] == [("ended_early", None)]


def test_early_finish_in_a_long_game_only_before_the_eighth_deal():
    big = {"dice": [3, 4], "tricks": 7}
    miss = {"dice": [6, 6], "tricks": 2}  # 0 points
    # B scores 100 in deals 1, 3, 5, 7; A nothing: 0-400 after 7 deals.
    rounds = [big, miss] * 3 + [big]
    assert score(record(rounds[:6], {"deals": 8}))["can_end_early"] is False
    out = score(record(rounds, {"deals": 8}, ended_early=True))
    assert out["totals"] == [0, 400, 0, 400]
    assert out["finished"] is True
    assert out["winners"] == [1, 3]
    found = problems(record(rounds[:6], {"deals": 8}, ended_early=True))
    assert found[0]["field"] == "ended_early"


def test_early_finish_gap_counts_penalties():
    rounds = [
        {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 0, "points": 60}]},
        {"dice": [6, 6], "tricks": 0},
        {"dice": [6, 6], "tricks": 0},
    ]
    # B 100, A -60 after three deals (two deals of 0 points): 160 apart.
    out = score(record(rounds))
    assert out["totals"] == [-60, 100, -60, 100]
    assert out["can_end_early"] is True


@pytest.mark.parametrize("value", [False])
def test_ended_early_false_is_not_ended(value):
    out = score(record(WHOLE_GAME, ended_early=value))
    assert out["finished"] is False
    assert out["ended_early"] is False


@pytest.mark.parametrize(
    ("rounds", "value"),
    [
        (WHOLE_GAME, "yes"),
        (WHOLE_GAME, 1),
        (WHOLE_GAME, None),
        (WHOLE_GAME[:2], True),
        ([*WHOLE_GAME, {"dice": [1, 1], "tricks": 2}], True),
        ([], True),
    ],
)
def test_bad_ended_early(rounds, value):
    found = problems(record(rounds, ended_early=value))
    assert [p["field"] for p in found] == ["ended_early"]


def test_penalty_below_zero_and_on_each_team():
    entry = {
        "dice": [3, 4],
        "tricks": 7,
        "penalties": [
            {"player": 3, "points": 50, "reason": "revoke"},
            {"player": 2, "points": 50},
            {"player": 0, "points": 25},
        ],
    }
    out = score(record([entry]))
    # B (roller's team) 100 - 50; A 0 - 50 - 25.
    assert out["rounds"][0]["deltas"] == [-75, 50, -75, 50]
    assert out["winners"] == []


def test_penalty_below_zero_on_a_zero_score():
    entry = {"dice": [1, 1], "tricks": 13, "penalties": [{"player": 1, "points": 50}]}
    out = score(record([entry]))
    assert out["totals"] == [0, -50, 0, -50]


def test_winners_lower_team():
    rounds = [
        {"dice": [6, 6], "tricks": 0},  # B 0
        {"dice": [3, 4], "tricks": 7},  # A 100
        {"dice": [6, 6], "tricks": 0},  # B 0
        {"dice": [3, 4], "tricks": 6},  # A 90
    ]
    out = score(record(rounds, {"early_finish_gap": None}))
    assert out["winners"] == [0, 2]


# --------------------------------------------------------------------------- checks

BAD_ROUNDS = [
    # (options, entry, field)
    ({}, {"tricks": 7}, "dice"),
    ({}, {"dice": None, "tricks": 7}, "dice"),
    ({}, {"dice": "3,4", "tricks": 7}, "dice"),
    ({}, {"dice": 7, "tricks": 7}, "dice"),
    ({}, {"dice": [3], "tricks": 7}, "dice"),
    ({}, {"dice": [3, 4, 1], "tricks": 7}, "dice"),
    ({}, {"dice": [], "tricks": 7}, "dice"),
    ({}, {"dice": [3.0, 4], "tricks": 7}, "dice"),
    ({}, {"dice": [True, 4], "tricks": 7}, "dice"),
    ({}, {"dice": ["3", 4], "tricks": 7}, "dice"),
    ({}, {"dice": [None, 4], "tricks": 7}, "dice"),
    ({}, {"dice": [0, 4], "tricks": 7}, "dice"),
    ({}, {"dice": [3, 7], "tricks": 7}, "dice"),
    ({}, {"dice": [10**30, 1], "tricks": 7}, "dice"),
    ({}, {"dice": {"a": 3}, "tricks": 7}, "dice"),
    ({}, {"dice": [12], "tricks": 7}, "dice"),
    ({"dodecahedron": True}, {"dice": [3, 4], "tricks": 7}, "dice"),
    ({"dodecahedron": True}, {"dice": [13], "tricks": 7}, "dice"),
    ({"dodecahedron": True}, {"dice": [0], "tricks": 7}, "dice"),
    ({"dodecahedron": True}, {"dice": [[7]], "tricks": 7}, "dice"),
    ({}, {"dice": [3, 4]}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": 14}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": -1}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": "7"}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": 7.0}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": None}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": True}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": [7]}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": 10**40}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": 7, "all_or_nothing": "yes"}, "all_or_nothing"),
    ({}, {"dice": [3, 4], "tricks": 7, "all_or_nothing": None}, "all_or_nothing"),
    ({}, {"dice": [3, 4], "tricks": 7, "all_or_nothing": 1}, "all_or_nothing"),
    ({}, {"dice": [3, 4], "all_or_nothing": True}, "made"),
    ({}, {"dice": [3, 4], "all_or_nothing": True, "made": "true"}, "made"),
    ({}, {"dice": [3, 4], "all_or_nothing": True, "made": None}, "made"),
    ({}, {"dice": [3, 4], "all_or_nothing": True, "made": 1}, "made"),
    ({}, {"dice": [3, 4], "tricks": 7, "made": True}, "made"),
    ({}, {"dice": [3, 4], "tricks": 7, "all_or_nothing": False, "made": False}, "made"),
    ({}, {"dice": [3, 4], "all_or_nothing": True, "made": True, "tricks": 13}, "tricks"),
    ({}, {"dice": [3, 4], "tricks": 7, "jokers": 1}, "jokers"),
    ({}, {"dice": [3, 4], "tricks": 7, "jokers": 0}, "jokers"),
    ({"jokers_for_sale": True}, {"dice": [3, 4], "tricks": 7, "jokers": 3}, "jokers"),
    ({"jokers_for_sale": True}, {"dice": [3, 4], "tricks": 7, "jokers": -1}, "jokers"),
    ({"jokers_for_sale": True}, {"dice": [3, 4], "tricks": 7, "jokers": "1"}, "jokers"),
    ({"jokers_for_sale": True}, {"dice": [3, 4], "tricks": 7, "jokers": None}, "jokers"),
    ({"jokers_for_sale": True}, {"dice": [3, 4], "tricks": 7, "jokers": 1.5}, "jokers"),
    (
        {"jokers_for_sale": True},
        {"dice": [3, 4], "all_or_nothing": True, "made": True, "jokers": 1},
        "jokers",
    ),
    ({}, {"dice": [3, 4], "tricks": 7, "bid": 7}, "bid"),
    ({}, {"dice": [3, 4], "tricks": 7, "misdeal": True}, "misdeal"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": "50"}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": {"player": 1}}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": [50]}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 4, "points": 50}]}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": [{"player": "1", "points": 50}]}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 1, "points": -5}]}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 1, "points": "5"}]}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 1}]}, "penalties"),
    ({}, {"dice": [3, 4], "tricks": 7, "penalties": [{"points": 50}]}, "penalties"),
    (
        {},
        {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 1, "points": 5, "why": "x"}]},
        "penalties",
    ),
    (
        {},
        {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 1, "points": 5, "reason": 3}]},
        "penalties",
    ),
    (
        {},
        {"dice": [3, 4], "tricks": 7, "penalties": [{"player": 1, "points": 10**9}]},
        "penalties",
    ),
]


@pytest.mark.parametrize(("options", "entry", "field"), BAD_ROUNDS)
def test_bad_round_is_rejected_naming_round_and_field(options, entry, field):
    first = {"dice": [4] if options.get("dodecahedron") else [2, 2], "tricks": 4}
    found = problems(record([first, entry], options))
    assert (2, field) in [(p["round"], p["field"]) for p in found], found
    assert all(p["round"] == 2 for p in found)


@pytest.mark.parametrize("entry", [None, 7, "dice", [3, 4], True])
def test_round_not_an_object(entry):
    found = problems(record([entry]))
    assert [(p["round"], p["field"]) for p in found] == [(1, "round")]


def test_second_all_or_nothing_by_a_team_is_rejected():
    aon = {"dice": [3, 4], "all_or_nothing": True, "made": True}
    rounds = [aon, aon, {"dice": [1, 1], "tricks": 2}, aon]  # B, A, B(normal), A again
    found = problems(record(rounds))
    assert [(p["round"], p["field"]) for p in found] == [(4, "all_or_nothing")]
    assert "team A" in found[0]["message"]
    # Each team once is fine.
    out = score(record(rounds[:3]))
    assert out["totals"] == [150, 250, 150, 250]
    assert out["next"]["all_or_nothing_used"] == {"A": True, "B": True}


def test_all_problems_of_a_round_are_collected():
    entry = {"dice": [0, 9], "tricks": 20, "jokers": 1, "color": "red"}
    found = problems(record([entry]))
    assert {p["field"] for p in found} == {"dice", "tricks", "jokers", "color"}
    assert all(p["round"] == 1 for p in found)


def test_messages_read_well():
    found = problems(record([{"dice": [7, 1], "tricks": 5}]))
    assert found[0]["message"].startswith("dice: die 1 shows 7")
    found = problems(record([{"dice": [3, 4], "tricks": 14}]))
    assert found[0]["message"] == "tricks 14 is above 13"


def test_unknown_record_key():
    found = problems(record([], ended_late=True))
    assert [p["field"] for p in found] == ["ended_late"]


# --------------------------------------------------------------------------- descriptions


def fields_of(options: dict[str, Any]) -> dict[str, Any]:
    table = table_for(options)
    return {f.name: f for f in ENGINE.round_fields(4, table.options)}


def test_round_fields_default():
    fields = fields_of({})
    assert list(fields) == ["dice", "tricks", "all_or_nothing", "made", "penalties"]
    dice = fields["dice"]
    assert (dice.kind, dice.count, dice.minimum, dice.maximum) == ("dice", 2, 1, 6)
    tricks = fields["tricks"]
    assert (tricks.kind, tricks.minimum, tricks.maximum) == ("int", 0, 13)
    assert fields["all_or_nothing"].kind == "bool"
    assert fields["made"].kind == "bool"
    assert fields["penalties"].kind == "penalties"
    assert "50" in fields["penalties"].help
    for spec in fields.values():
        assert spec.column and spec.label and spec.help
        assert spec.as_dict()["name"] == spec.name


def test_round_fields_dodecahedron():
    dice = fields_of({"dodecahedron": True})["dice"]
    assert (dice.count, dice.minimum, dice.maximum) == (1, 1, 12)


def test_round_fields_jokers():
    fields = fields_of({"jokers_for_sale": True, "joker_cost": 15})
    jokers = fields["jokers"]
    assert (jokers.kind, jokers.minimum, jokers.maximum, jokers.required) == ("int", 0, 2, False)
    assert "15" in jokers.help
    assert "jokers" not in fields_of({"jokers_for_sale": False})


def test_round_summary():
    table = table_for({"jokers_for_sale": True})
    assert (
        ENGINE.round_summary(table, {"dice": [3, 4], "tricks": 6})
        == "Rolled 3+4 = 7, the Roller's team took 6 tricks: 90 points"
    )
    assert (
        ENGINE.round_summary(table, {"dice": [4, 4], "tricks": 8, "jokers": 2})
        == "Rolled 4+4 = 8, bought 2 jokers, the Roller's team took 8 tricks: 82 points"
    )
    assert (
        ENGINE.round_summary(table, {"dice": [2, 2], "all_or_nothing": True, "made": False})
        == "Rolled 2+2 = 4, all or nothing, failed: 0 points"
    )
    line = ENGINE.round_summary(
        table,
        {
            "dice": [1, 1],
            "tricks": 1,
            "penalties": [{"player": 1, "points": 50, "reason": "revoke"}],
        },
    )
    assert (
        line
        == "Rolled 1+1 = 2, the Roller's team took 1 trick: 90 points; penalty: Ben -50 (revoke)"
    )
    dodeca = table_for({"dodecahedron": True})
    assert (
        ENGINE.round_summary(dodeca, {"dice": [9], "all_or_nothing": True, "made": True})
        == "Rolled 9, all or nothing, made: 150 points"
    )


# --------------------------------------------------------------------------- properties

PROPERTY_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def penalty_by_team(entry: dict[str, Any]) -> dict[str, int]:
    lost = {"A": 0, "B": 0}
    for item in entry.get("penalties", []):
        lost["A" if item["player"] % 2 == 0 else "B"] += item["points"]
    return lost


def expected_score(entry: dict[str, Any], options: dict[str, Any]) -> int:
    """The Roller's team's score straight from rules.md."""
    if entry.get("all_or_nothing"):
        return 150 if entry["made"] else 0
    miss = abs(entry["tricks"] - sum(entry["dice"]))
    return max(0, 100 - 10 * miss - options["joker_cost"] * entry.get("jokers", 0))


@PROPERTY_SETTINGS
@given(valid_records())
def test_property_deltas_follow_the_rules(data):
    out = score(data)
    options = data["options"]
    step = -1 if options["counter_clockwise"] else 1
    for index, (entry, result) in enumerate(zip(data["rounds"], out["rounds"], strict=True)):
        dealer = (data["first_dealer"] + step * index) % 4
        roller = (dealer + step) % 4
        team = "A" if roller % 2 == 0 else "B"
        other = "B" if team == "A" else "A"
        assert result["dealer"] == dealer
        assert result["roller"] == roller
        assert result["team"] == team
        # all or nothing needs no dice: a deal without them has no target
        assert result["target"] == (sum(entry["dice"]) if "dice" in entry else None)
        lost = penalty_by_team(entry)
        seats = {"A": (0, 2), "B": (1, 3)}
        # The dealer's team scores nothing but its penalties.
        for seat in seats[other]:
            assert result["deltas"][seat] == -lost[other]
        # The Roller's team gains between 0 and 150 before penalties, as the rules say.
        for seat in seats[team]:
            gained = result["deltas"][seat] + lost[team]
            assert 0 <= gained <= 150
            assert gained == expected_score(entry, options)


@PROPERTY_SETTINGS
@given(valid_records())
def test_property_totals_are_running_sums(data):
    out = score(data)
    running = [0, 0, 0, 0]
    for result in out["rounds"]:
        running = [a + b for a, b in zip(running, result["deltas"], strict=True)]
        assert result["totals"] == running
        assert result["totals"][0] == result["totals"][2]
        assert result["totals"][1] == result["totals"][3]
    assert out["totals"] == running


@PROPERTY_SETTINGS
@given(valid_records())
def test_property_all_or_nothing_once_per_team(data):
    out = score(data)
    declared = [r["team"] for r in out["rounds"] if r["all_or_nothing"]]
    assert len(declared) == len(set(declared))
    assert out["next"]["all_or_nothing_used"] == {t: t in declared for t in ("A", "B")}


@PROPERTY_SETTINGS
@given(valid_records())
def test_property_end_and_winners(data):
    out = score(data)
    deals = data["options"]["deals"]
    played = len(data["rounds"])
    ended = data.get("ended_early", False)
    assert out["ended_early"] is ended
    assert out["finished"] is (played == deals or ended)
    assert out["next"]["deals_left"] == (0 if out["finished"] else deals - played)
    gap = data["options"]["early_finish_gap"]
    a, b = out["totals"][0], out["totals"][1]
    assert out["can_end_early"] is (gap is not None and played == deals - 1 and abs(a - b) > gap)
    if out["finished"]:
        best = max(a, b)
        assert out["winners"] == [s for s in range(4) if out["totals"][s] == best]
    else:
        assert out["winners"] == []


@PROPERTY_SETTINGS
@given(valid_records())
def test_property_scoring_twice_is_stable(data):
    before = copy.deepcopy(data)
    first = score(data)
    assert data == before  # the record is not modified
    assert score(data) == first


def test_sample_record_is_valid():
    for seed in range(51):
        for rounds in (0, 1, 4, 5, 8, 20):
            data = sample_record(rounds, seed)
            assert data == sample_record(rounds, seed, players=4)
            out = score(data)
            expected_rounds = min(rounds, 8 if rounds > 4 else 4)
            assert len(out["rounds"]) == expected_rounds
    assert score(sample_record())["finished"] is True
    with pytest.raises(ValueError):
        sample_record(players=5)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@PROPERTY_SETTINGS
@given(
    valid_records(),
    st.data(),
    st.sampled_from(["dice", "tricks", "all_or_nothing", "made", "jokers", "penalties", "x"]),
    JSON_VALUES,
)
def test_property_junk_gives_clean_problems(data, draw, key, junk):
    index = draw.draw(st.integers(0, len(data["rounds"]) - 1))
    data["rounds"][index][key] = junk
    try:
        score(data)
    except InvalidRecord as invalid:
        assert invalid.problems
        for problem in invalid.problems:
            assert problem.message
            assert problem.field


def test_scored_rounds_name_the_roller_in_their_summary():
    record = {
        "game": "roller_derby",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "options": {"counter_clockwise": True},
        "rounds": [{"dice": [3, 4], "tricks": 6}, {"dice": [2, 2], "tricks": 4}],
    }
    rounds = score_data(record).as_dict()["rounds"]
    # Counter-clockwise: Ann deals, Dan (on her right) rolls; then Dan deals and Cat rolls.
    assert rounds[0]["summary"].startswith("Dan rolled 3+4 = 7")
    assert rounds[1]["summary"].startswith("Cat rolled 2+2 = 4")
