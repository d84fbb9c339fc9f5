"""The JSON API's refusals in the reader's language: English by default, French on
Accept-Language: fr-CA; an engine's problem names its field and round either way."""

from __future__ import annotations

import json

import pytest

from tests.scoring.factories import ROOLZ_FOUR

pytestmark = pytest.mark.django_db


def post(client, url, body, token=None, **headers):
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client.post(url, data=json.dumps(body), content_type="application/json", **headers)


def test_an_engine_problem_in_the_readers_language(client):
    game = post(client, "/api/games/", ROOLZ_FOUR).json()
    url, token = f"/api/games/{game['id']}/rounds/", game["token"]
    entry = {"number": 1, "round": {"bidder": 1, "bid": 172, "won": {"A": 0, "B": 300}}}
    english = post(client, url, entry, token)
    french = post(client, url, entry, token, HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.8")
    assert english.status_code == french.status_code == 400
    [said_en] = english.json()["errors"]
    [said_fr] = french.json()["errors"]
    assert said_en == {"round": 1, "field": "bid", "message": "bid 172 is not a multiple of 5"}
    assert said_fr == {
        "round": 1,
        "field": "bid",
        "message": "la mise de 172 n'est pas un multiple de 5",
    }


def test_a_nested_phrase_and_the_apis_own_refusals_in_french(client):
    game = post(client, "/api/games/", ROOLZ_FOUR).json()
    url, token = f"/api/games/{game['id']}/rounds/", game["token"]
    french = {"HTTP_ACCEPT_LANGUAGE": "fr-CA"}
    # A side's name is a phrase of its own, translated inside the message.
    missing = {"number": 1, "round": {"bidder": 0, "bid": 170, "won": {"A": 300}}}
    [problem] = post(client, url, missing, token, **french).json()["errors"]
    assert problem["message"] == "il manque les points gagnés par l'équipe B"
    # The body reader's and the token's refusals.
    body = client.post(
        url,
        data="",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        **french,
    )
    assert body.json()["errors"][0]["message"] == "le corps doit être du JSON"
    wrong = client.get("/api/games/1/", HTTP_AUTHORIZATION="Bearer nope", **french)
    assert wrong.json()["errors"][0]["message"] == "aucune partie pour ce jeton"
    # A schema error names the field in French too.
    schema = post(client, url, {"number": "x", "round": {}}, token, **french)
    assert "doit être un nombre entier" in schema.json()["errors"][0]["message"]
