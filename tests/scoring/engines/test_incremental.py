"""Scoring a round from the state after the one before it equals rescoring the whole game.

Checked for every registered game over its Hypothesis strategy of valid records: at
every round, the round, the standing and the state match the whole record's.
"""

from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.base import CannotResume, InvalidRecord, parse_record
from scoring.engines.registry import ENGINES

GAMES = sorted(ENGINES)


def strategy_for(key: str):
    return importlib.import_module(f"tests.scoring.engines.strategies.{key}").valid_records()


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_by_round_equals_the_whole_game(key, data):
    engine = ENGINES[key]
    record = parse_record(data.draw(strategy_for(key)), ENGINES).with_extras({})
    state = engine.score(record.with_rounds([])).state
    assert state is not None, f"{key} keeps a state that can be resumed"
    for index, entry in enumerate(record.rounds):
        whole = engine.score(record.with_rounds(record.rounds[: index + 1]))
        step = engine.score_next(record.with_rounds([]), state, index + 1, entry)
        assert step.round.as_dict() == whole.rounds[index].as_dict()
        assert step.standing == whole.standing()
        assert step.state == whole.state
        assert json.loads(json.dumps(step.state)) == step.state  # plain data, cacheable
        state = step.state
    if record.rounds and engine.score(record).finished:  # an ended game takes no further round
        with pytest.raises(InvalidRecord) as refused:
            engine.score_next(record, state, len(record.rounds) + 1, record.rounds[-1])
        assert refused.value.problems[0].round == len(record.rounds) + 1


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_round_refused_whole_is_refused_alone(key, data):
    """A round that breaks the rules is refused the same way, naming the same round."""
    engine = ENGINES[key]
    record = parse_record(data.draw(strategy_for(key)), ENGINES).with_extras({})
    if not record.rounds:
        return
    cut = data.draw(st.integers(0, len(record.rounds) - 1))
    head = record.with_rounds(record.rounds[:cut])
    bad = {**dict(record.rounds[cut]), "no_such_field": 1}
    with pytest.raises(InvalidRecord) as whole:
        engine.score(head.with_rounds([*head.rounds, bad]))
    with pytest.raises(InvalidRecord) as alone:
        engine.score_next(head, engine.score(head).state or {}, cut + 1, bad)
    assert [p.as_dict() for p in alone.value.problems] == [
        p.as_dict() for p in whole.value.problems
    ]


@pytest.mark.parametrize("key", GAMES)
def test_a_state_that_does_not_fit_is_refused(key):
    engine = ENGINES[key]
    sample = importlib.import_module(f"scoring.engines.samples.{key}").sample_record
    record = parse_record(sample(rounds=2, seed=1), ENGINES).with_extras({})
    state = dict(engine.score(record).state or {})
    state["not_a_part_of_the_state"] = 1
    with pytest.raises(CannotResume):
        engine.score_next(record, state, len(record.rounds) + 1, record.rounds[0])
