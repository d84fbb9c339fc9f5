"""Hypothesis throws malformed bodies at every API endpoint: never a 5xx."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games import GAMES
from tests.scoring.factories import ROOLZ_FOUR, new_game

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
field_names = st.sampled_from(
    [
        "game",
        "players",
        "options",
        "rounds",
        "first_dealer",
        "format",
        "number",
        "round",
        "seat",
        "bidder",
        "bid",
        "won",
        "dice",
        "tricks",
        "bids",
        "widow",
        "poker",
        "pay_cards",
        "went_out",
        "cards_left",
        "penalties",
        "all_or_nothing",
        "ended_early",
        "end",
    ]
)
bodies = st.one_of(
    json_values.map(json.dumps),
    st.dictionaries(field_names, json_values, max_size=6).map(json.dumps),
    st.fixed_dictionaries(
        {"number": json_values, "round": st.dictionaries(field_names, json_values, max_size=5)}
    ).map(json.dumps),
    st.fixed_dictionaries(
        {
            "game": st.sampled_from(GAMES),
            "players": st.lists(st.text(max_size=8), max_size=9),
            "options": st.dictionaries(field_names, json_values, max_size=3),
            "rounds": st.lists(st.dictionaries(field_names, json_values, max_size=4), max_size=3),
        }
    ).map(json.dumps),
    st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=bodies, target=st.sampled_from(["create", "record", "correct", "confirm", "end", "undo"])
)
def test_no_body_makes_the_api_fail(client, body, target):
    game = new_game(ROOLZ_FOUR)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {game.table_token}"}
    base = f"/api/games/{game.pk}/"
    if target == "create":
        response = client.post("/api/games/", body, content_type="application/json")
    elif target == "record":
        response = client.post(base + "rounds/", body, content_type="application/json", **auth)
    elif target == "correct":
        response = client.put(base + "rounds/1/", body, content_type="application/json", **auth)
    elif target == "confirm":
        response = client.post(
            base + "rounds/1/confirm/", body, content_type="application/json", **auth
        )
    elif target == "end":
        response = client.post(base + "end/", body, content_type="application/json", **auth)
    else:
        response = client.delete(base + "rounds/1/", body, content_type="application/json", **auth)
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert response.json()["errors"][0]["message"]
