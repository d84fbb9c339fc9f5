"""The document's shapes of a record and of a round hold every record the engines accept.

The document must never be stricter than the server: every valid record a game's
Hypothesis strategy draws, its sample record and its worked cases validate against the
document's record shape, and each of their rounds against the round shape the round
endpoints show. (That the server refuses what the document refuses is schemathesis's
negative-data check, in test_api_contract.py.)
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.api import api
from scoring.engines.base import InvalidRecord
from scoring.engines.registry import ENGINES, score_data
from tests.vectors import VECTOR_DIR

GAMES = sorted(ENGINES)


@cache
def shapes() -> tuple[Any, Any]:
    """Validators of the record (POST /api/games/) and of a round (POST .../rounds/)."""
    document = json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api/")))
    schemas = document["components"]["schemas"]
    return (
        jsonschema_rs.validator_for(schemas["GameRecordIn"]),
        jsonschema_rs.validator_for(schemas["RoundIn"]["properties"]["round"]),
    )


def assert_documented(record: dict[str, Any]) -> None:
    record_shape, round_shape = shapes()
    errors = [error.message for error in record_shape.iter_errors(record)]
    assert not errors, (record, errors[:3])
    for number, entry in enumerate(record.get("rounds") or [], start=1):
        errors = [error.message for error in round_shape.iter_errors(entry)]
        assert not errors, (number, entry, errors[:3])


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_valid_record_fits_the_document(key, data):
    record = data.draw(
        importlib.import_module(f"tests.scoring.engines.strategies.{key}").valid_records()
    )
    score_data(record)  # the engine accepts it
    assert_documented(record)


@pytest.mark.parametrize("key", GAMES)
def test_every_sample_and_worked_case_fits_the_document(key):
    assert_documented(importlib.import_module(f"scoring.engines.samples.{key}").sample_record())
    cases = json.loads((VECTOR_DIR / f"{key}.json").read_text())
    valid = [case for case in cases if not case.get("invalid")]
    assert valid
    for case in valid:
        assert_documented(case["record"])


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"players": []}, "no players"),
        ({"players": ["Ann", "   "]}, "a blank name"),
        ({"players": ["Ann", "x" * 41]}, "a name too long"),
        ({"format": None}, "a null format"),
        ({"first_dealer": None}, "a null first dealer"),
        ({"ended_early": True}, "another game's ending"),
        ({"options": {"colour": "red"}}, "an unknown option"),
        ({"rounds": [{"bidder": 0, "bid": 172}]}, "a bid off its step"),
    ],
)
def test_what_the_server_refuses_by_shape_the_document_refuses(change, why):
    record = {"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"], **change}
    record_shape, _ = shapes()
    assert not record_shape.is_valid(record), why
    with pytest.raises(InvalidRecord):
        score_data(record)
