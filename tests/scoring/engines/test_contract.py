"""What every registered game promises, checked by iterating the registry.

A new game added to the registry is covered here as soon as it has vectors, a
sample record and a Hypothesis strategy (tests/scoring/engines/strategies/<key>.py).
"""

from __future__ import annotations

import copy
import importlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.base import Engine, InvalidRecord
from scoring.engines.registry import ENGINES, score_data
from tests.vectors import VECTOR_DIR

GAMES = sorted(ENGINES)
SCORE_KEYS = {"game", "players", "teams", "rounds", "totals", "finished", "winners"}


def strategy_for(key: str):
    return importlib.import_module(f"tests.scoring.engines.strategies.{key}").valid_records()


def sample_for(key: str):
    return importlib.import_module(f"scoring.engines.samples.{key}").sample_record


@pytest.mark.parametrize("key", GAMES)
def test_every_game_has_vectors(key):
    cases = json.loads((VECTOR_DIR / f"{key}.json").read_text())
    assert any(not c.get("invalid") for c in cases)
    assert any(c.get("invalid") for c in cases)


@pytest.mark.parametrize("key", GAMES)
def test_engine_describes_itself(key):
    engine: Engine = ENGINES[key]
    assert engine.key == key
    description = engine.describe()
    assert description["title"] and description["summary"]
    assert description["player_counts"]
    names = [o["name"] for o in description["options"]]
    assert len(names) == len(set(names))
    for option in engine.option_specs():
        assert option.help, f"{key}.{option.name} needs a line of help"
        assert option.problem(option.default) is None, f"{key}.{option.name} default is invalid"
    for players in engine.player_counts:
        defaults = engine.resolve_options({}, players)
        fields = engine.round_fields(players, defaults)
        assert fields, f"{key} describes no round inputs"
        assert all(f.label for f in fields)
        assert any(f.column for f in fields), f"{key} has no printed columns"


@pytest.mark.parametrize("key", GAMES)
def test_unknown_option_and_unknown_key_are_errors(key):
    record = sample_for(key)(rounds=1)
    with pytest.raises(InvalidRecord, match="unknown option"):
        score_data({**record, "options": {**record["options"], "no_such_option": 1}})
    with pytest.raises(InvalidRecord, match="unknown key"):
        score_data({**record, "colour": "green"})
    broken = copy.deepcopy(record)
    broken["rounds"][0]["no_such_field"] = 1
    with pytest.raises(InvalidRecord) as raised:
        score_data(broken)
    assert any(p.round == 1 for p in raised.value.problems)


@pytest.mark.parametrize("key", GAMES)
def test_sample_games_score_and_follow_the_output_format(key):
    for seed in range(5):
        record = sample_for(key)(rounds=20, seed=seed)
        output = score_data(record).as_dict()
        assert set(output) >= SCORE_KEYS
        players = len(record["players"])
        assert len(output["rounds"]) == len(record["rounds"])
        for number, result in enumerate(output["rounds"], start=1):
            assert result["number"] == number
            assert 0 <= result["dealer"] < players
            assert len(result["deltas"]) == len(result["totals"]) == players
        json.dumps(output)  # plain JSON all the way down


def is_nonsense_for(original, value) -> bool:
    """A replacement is nonsense unless it is another value of the same kind: flipping a
    yes/no or emptying a list (a bidder playing alone) can be a real entry."""
    if value == original:
        return False
    same_kind = (bool, list)
    return not any(isinstance(original, kind) and isinstance(value, kind) for kind in same_kind)


def nonsense_values():
    # null is left out on purpose: for an optional field it means "absent", which is valid.
    return st.sampled_from(["nonsense", -7, 10**9, 3.5, [], {"x": 1}, True])


@pytest.mark.parametrize("key", GAMES)
def test_scoring_twice_gives_the_same_result(key):
    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(record=strategy_for(key))
    def check(record):
        snapshot = copy.deepcopy(record)
        first = score_data(record).as_dict()
        assert record == snapshot, "scoring must not change its input"
        assert score_data(copy.deepcopy(record)).as_dict() == first

    check()


@pytest.mark.parametrize("key", GAMES)
def test_totals_are_running_sums_of_deltas(key):
    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(record=strategy_for(key))
    def check(record):
        output = score_data(record).as_dict()
        previous = None
        for result in output["rounds"]:
            if previous is not None:
                assert result["totals"] == [
                    a + b for a, b in zip(previous, result["deltas"], strict=True)
                ]
            previous = result["totals"]
        if output["rounds"] and not output.get("board"):
            assert output["totals"] == output["rounds"][-1]["totals"]

    check()


@pytest.mark.parametrize("key", GAMES)
def test_one_round_mutated_into_nonsense_is_rejected_naming_that_round(key):
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(record=strategy_for(key), data=st.data())
    def check(record, data):
        if not record["rounds"]:
            return
        index = data.draw(st.integers(0, len(record["rounds"]) - 1), label="round index")
        entry = dict(record["rounds"][index])
        if entry and data.draw(st.booleans(), label="replace a field"):
            field = data.draw(st.sampled_from(sorted(entry)), label="field")
            original = record["rounds"][index][field]
            entry[field] = data.draw(
                nonsense_values().filter(lambda v: is_nonsense_for(original, v)),
                label="value",
            )
            if field in {"penalties"} and entry[field] in ([], None):
                return  # an empty penalty list is valid, not nonsense
        else:
            entry["nonsense"] = data.draw(nonsense_values(), label="value")
        broken = copy.deepcopy(record)
        broken["rounds"][index] = entry
        try:
            score_data(broken)
        except InvalidRecord as invalid:
            assert invalid.problems
            assert invalid.problems[0].round == index + 1, str(invalid)
            assert str(invalid.problems[0]).startswith(f"round {index + 1}: ")
        else:
            raise AssertionError(f"round {index + 1} mutated to {entry!r} was accepted")

    check()
