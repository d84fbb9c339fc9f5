"""The JSON API: create, read, record, correct, undo, confirm, end; tokens and bad input."""

from __future__ import annotations

import json
import re

import pytest

from scoring.engines.registry import score_data
from tests.scoring.factories import ROOLZ_FOUR, roolz_round
from tests.vectors import vector_cases

pytestmark = pytest.mark.django_db


def post(client, url, body, token=None, **headers):
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", **headers)


def create(client, record=None):
    response = post(client, "/api/games/", record or ROOLZ_FOUR)
    assert response.status_code == 201, response.content
    return response.json()


def test_create_returns_id_token_link_and_score(client):
    body = create(client)
    assert set(body) == {"id", "token", "table_url", "score"}
    assert body["table_url"].endswith(f"/t/{body['token']}/")
    assert body["score"] == score_data(ROOLZ_FOUR).as_dict()


def test_read_needs_the_right_token_and_reveals_nothing_without_it(client):
    game = create(client)
    url = f"/api/games/{game['id']}/"
    for header in (
        {},
        {"HTTP_AUTHORIZATION": "Bearer wrong"},
        {"HTTP_AUTHORIZATION": game["token"]},
    ):
        response = client.get(url, **header)
        assert response.status_code == 404
        assert "Ann" not in response.content.decode()
    response = client.get(url, HTTP_AUTHORIZATION=f"Bearer {game['token']}")
    assert response.status_code == 200
    body = response.json()
    assert body["record"]["players"] == ROOLZ_FOUR["players"]
    assert body["rounds"] == []


def test_a_token_reads_and_writes_its_own_game_only(client):
    first, second = create(client), create(client)
    other = first["token"]
    assert (
        client.get(f"/api/games/{second['id']}/", HTTP_AUTHORIZATION=f"Bearer {other}").status_code
        == 404
    )
    response = post(
        client, f"/api/games/{second['id']}/rounds/", {"number": 1, "round": roolz_round()}, other
    )
    assert response.status_code == 404
    own = post(
        client, f"/api/games/{first['id']}/rounds/", {"number": 1, "round": roolz_round()}, other
    )
    assert own.status_code == 201
    read = client.get(f"/api/games/{second['id']}/", HTTP_AUTHORIZATION=f"Bearer {second['token']}")
    assert read.json()["rounds"] == []


def test_record_retry_conflict_and_invalid(client):
    game = create(client)
    url, token = f"/api/games/{game['id']}/rounds/", game["token"]
    first = post(
        client, url, {"number": 1, "round": roolz_round(a=190)}, token, HTTP_IDEMPOTENCY_KEY="abc"
    )
    assert first.status_code == 201
    assert set(first.json()) == {"number", "round", "standing"}
    assert first.json()["round"]["deltas"] == [-200, 110, -200, 110]
    assert first.json()["standing"]["totals"] == [-200, 110, -200, 110]
    assert "rounds" not in first.json()["standing"]
    retry = post(
        client, url, {"number": 1, "round": roolz_round(a=190)}, token, HTTP_IDEMPOTENCY_KEY="abc"
    )
    assert (retry.status_code, retry.json()) == (201, first.json())
    conflict = post(
        client, url, {"number": 1, "round": roolz_round(a=250)}, token, HTTP_IDEMPOTENCY_KEY="xyz"
    )
    assert conflict.status_code == 409
    assert conflict.json()["recorded"]["round"] == roolz_round(a=190)
    invalid = post(
        client,
        url,
        {"number": 2, "round": {"bidder": 1, "bid": 172, "won": {"A": 0, "B": 300}}},
        token,
    )
    assert invalid.status_code == 400
    errors = invalid.json()["errors"]
    assert (
        errors[0]["field"] == "bid"
        and errors[0]["round"] == 2
        and "multiple of 5" in errors[0]["message"]
    )
    detail = client.get(f"/api/games/{game['id']}/", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [r["number"] for r in detail["rounds"]] == [1]


def revision(client, game) -> int:
    """The game's revision as a client reads it before a change (GET)."""
    auth = {"HTTP_AUTHORIZATION": f"Bearer {game['token']}"}
    return client.get(f"/api/games/{game['id']}/", **auth).json()["revision"]


def test_correct_undo_and_confirm(client):
    game = create(client)
    token, base = game["token"], f"/api/games/{game['id']}/rounds/"
    post(client, base, {"number": 1, "round": roolz_round(a=190), "seat": 0}, token)
    post(client, base, {"number": 2, "round": roolz_round(bidder=1, a=100), "seat": 1}, token)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    corrected = client.put(
        f"{base}1/",
        json.dumps({"round": roolz_round(a=200), "seat": 1, "revision": revision(client, game)}),
        content_type="application/json",
        **auth,
    )
    assert corrected.status_code == 200
    assert corrected.json()["score"]["rounds"][0]["deltas"] == [200, 100, 200, 100]
    seen = json.dumps({"revision": revision(client, game)})
    not_last = client.delete(f"{base}1/", seen, content_type="application/json", **auth)
    assert not_last.status_code == 400
    undone = client.delete(f"{base}2/", seen, content_type="application/json", **auth)
    assert undone.status_code == 200 and len(undone.json()["score"]["rounds"]) == 1
    confirmed = post(client, f"{base}1/confirm/", {"seat": 1}, token)
    assert (
        confirmed.status_code == 200
    )  # already confirmed in a casual game: answered, nothing to do


def test_confirmation_through_the_api(client):
    response = post(client, "/api/games/?confirmation=other_side", ROOLZ_FOUR)
    game = response.json()
    token, base = game["token"], f"/api/games/{game['id']}/rounds/"
    post(client, base, {"number": 1, "round": roolz_round(), "seat": 0}, token)
    rounds = client.get(f"/api/games/{game['id']}/", HTTP_AUTHORIZATION=f"Bearer {token}").json()[
        "rounds"
    ]
    assert rounds[0]["status"] == "pending"
    refused = post(client, f"{base}1/confirm/", {"seat": 2}, token)
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "seat"
    assert post(client, f"{base}1/confirm/", {"seat": 3}, token).status_code == 200
    rounds = client.get(f"/api/games/{game['id']}/", HTTP_AUTHORIZATION=f"Bearer {token}").json()[
        "rounds"
    ]
    assert (rounds[0]["status"], rounds[0]["confirmed_by_seat"]) == ("confirmed", 3)


VALID = [c for c in vector_cases() if not c[1].get("invalid")]


@pytest.mark.parametrize(("case_id", "case"), VALID, ids=[c[0] for c in VALID])
def test_posting_each_vector_round_by_round_gives_the_score_command_result(client, case_id, case):
    record = dict(case["record"])
    rounds = record.pop("rounds", [])
    ending = {key: record.pop(key) for key in ("ended_early", "end") if key in record}
    game = create(client, record)
    for number, entry in enumerate(rounds, start=1):
        response = post(
            client,
            f"/api/games/{game['id']}/rounds/",
            {"number": number, "round": entry},
            game["token"],
        )
        assert response.status_code == 201, (number, response.content)
    if ending:
        response = post(client, f"/api/games/{game['id']}/end/", ending, game["token"])
        assert response.status_code == 200, response.content
    final = client.get(
        f"/api/games/{game['id']}/", HTTP_AUTHORIZATION=f"Bearer {game['token']}"
    ).json()
    assert final["score"] == score_data(case["record"]).as_dict()


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("{nope", 400),
        ("[1, 2]", 400),
        ('"a string"', 400),
        ("", 400),
        ('{"game": "roolz", "players": "Ann"}', 400),
        ('{"game": "roolz", "players": ["A", "B"], "rounds": [{"bid": 1e400}]}', 400),
        ('{"game": "roolz", "players": ["A", "B"], "first_dealer": 99}', 400),
        ("[" * 100_000 + "]" * 100_000, 413),
        ('{"a": "' + "x" * 70_000 + '"}', 413),
    ],
)
def test_malformed_bodies_are_4xx_with_a_message(client, body, status):
    response = post(client, "/api/games/", body)
    assert response.status_code == status
    assert response.json()["errors"][0]["message"]


def test_login_can_be_required_to_create(client, settings):
    settings.TABLESCORE_REQUIRE_LOGIN_TO_CREATE = True
    assert post(client, "/api/games/", ROOLZ_FOUR).status_code == 401


def test_wrong_methods_are_405(client):
    assert client.get("/api/games/").status_code == 405


def every_route(patterns=None, prefix=""):
    """Every URL route of the site, as written in the URL patterns (converters included)."""
    from django.urls import URLResolver, get_resolver

    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from every_route(pattern.url_patterns, route)
        else:
            yield route


def test_openapi_describes_every_api_route(client):
    document = client.get("/api/openapi.json").json()
    described = set(document["paths"])
    routes = {
        "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
        for route in every_route()
        if route.startswith(("api/games", "api/me", "api/events"))
    }
    assert routes == described


@pytest.mark.parametrize(
    "body",
    [
        '{"game": "roolz", "players": ["a", "b"], "first_dealer": 1' + "0" * 5000 + "}",
        '{"game": "roolz", "players": ["\\ud800", "b"]}',
        '{"game": "roolz", "players": ["a\\u0000", "b"]}',
    ],
    ids=["a 5000-digit number", "a lone surrogate", "a NUL"],
)
def test_text_that_cannot_be_stored_is_refused(client, body):
    response = post(client, "/api/games/", body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "body"


def test_penalty_reasons_with_control_characters_are_refused(client):
    game = create(client)
    entry = {**roolz_round(), "penalties": [{"player": 0, "points": 10, "reason": "bad\u0007"}]}
    response = post(
        client, f"/api/games/{game['id']}/rounds/", {"number": 1, "round": entry}, game["token"]
    )
    assert response.status_code == 400
    assert "control character" in response.json()["errors"][0]["message"]


def test_a_record_saying_it_did_not_end_early_is_not_ended(client):
    record = {"game": "roller_derby", "players": ["Ann", "Ben", "Cat", "Dan"], "ended_early": False}
    game = create(client, record)
    response = post(
        client,
        f"/api/games/{game['id']}/rounds/",
        {"number": 1, "round": {"dice": [3, 4], "tricks": 7}},
        game["token"],
    )
    assert response.status_code == 201


def test_a_retry_after_an_undo_is_told_and_stores_nothing(client):
    game = create(client)
    url, token = f"/api/games/{game['id']}/rounds/", game["token"]
    body = {"number": 1, "round": roolz_round()}
    assert post(client, url, body, token, HTTP_IDEMPOTENCY_KEY="K").status_code == 201
    seen = json.dumps({"revision": revision(client, game)})
    undone = client.delete(
        f"{url}1/", seen, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert undone.status_code == 200
    after_undo = revision(client, game)
    retry = post(client, url, body, token, HTTP_IDEMPOTENCY_KEY="K")
    assert retry.status_code == 409, retry.content
    answer = retry.json()
    assert answer["current"] == {"revision": after_undo, "round": None}
    [problem] = answer["errors"]
    assert problem["round"] == 1 and problem["field"] == "number"
    assert "undone" in problem["message"]
    detail = client.get(f"/api/games/{game['id']}/", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert detail["rounds"] == [] and detail["revision"] == after_undo
    # Entered again (a new key), the round is stored; the old key stays refused.
    assert post(client, url, body, token, HTTP_IDEMPOTENCY_KEY="K2").status_code == 201
    again = post(client, url, body, token, HTTP_IDEMPOTENCY_KEY="K")
    assert again.status_code == 409
    assert again.json()["current"]["round"]["round"] == roolz_round()
    detail = client.get(f"/api/games/{game['id']}/", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [r["number"] for r in detail["rounds"]] == [1]


def test_a_retry_after_a_correction_is_told_what_stands_now(client):
    game = create(client)
    url, token = f"/api/games/{game['id']}/rounds/", game["token"]
    body = {"number": 1, "round": roolz_round(a=190)}
    assert post(client, url, body, token, HTTP_IDEMPOTENCY_KEY="K").status_code == 201
    corrected = client.put(
        f"{url}1/",
        json.dumps({"round": roolz_round(a=250), "revision": revision(client, game)}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert corrected.status_code == 200
    retry = post(client, url, body, token, HTTP_IDEMPOTENCY_KEY="K")
    assert retry.status_code == 409
    answer = retry.json()
    assert "corrected" in answer["errors"][0]["message"]
    assert answer["current"]["round"]["round"] == roolz_round(a=250)
    detail = client.get(f"/api/games/{game['id']}/", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [r["round"] for r in detail["rounds"]] == [roolz_round(a=250)]


def test_confirming_what_was_since_corrected_is_refused(client):
    game = post(client, "/api/games/?confirmation=other_side", ROOLZ_FOUR).json()
    token, base = game["token"], f"/api/games/{game['id']}/rounds/"
    post(client, base, {"number": 1, "round": roolz_round(a=190), "seat": 0}, token)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    client.put(
        f"{base}1/",
        json.dumps({"round": roolz_round(a=250), "seat": 0, "revision": revision(client, game)}),
        content_type="application/json",
        **auth,
    )
    stale = post(client, f"{base}1/confirm/", {"seat": 1, "round": roolz_round(a=190)}, token)
    assert stale.status_code == 400 and "changed since" in stale.json()["errors"][0]["message"]
    fresh = post(client, f"{base}1/confirm/", {"seat": 1, "round": roolz_round(a=250)}, token)
    assert fresh.status_code == 200


def test_with_confirmation_on_the_entering_seat_must_be_named(client):
    game = post(client, "/api/games/?confirmation=other_side", ROOLZ_FOUR).json()
    token, base = game["token"], f"/api/games/{game['id']}/rounds/"
    response = post(client, base, {"number": 1, "round": roolz_round()}, token)
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "seat"
    post(client, base, {"number": 1, "round": roolz_round(), "seat": 0}, token)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    seatless = client.put(
        f"{base}1/",
        json.dumps({"round": roolz_round(a=300), "revision": revision(client, game)}),
        content_type="application/json",
        **auth,
    )
    assert seatless.status_code == 400 and seatless.json()["errors"][0]["field"] == "seat"


SCHEMA_MISTAKES = [
    ("rounds/", {"number": "1", "round": {}}, "number"),
    ("rounds/", {"number": 0, "round": {}}, "number"),
    ("rounds/", {"number": True, "round": {}}, "number"),
    ("rounds/", {"number": 1}, "round"),
    ("rounds/", {"number": 1, "round": [1]}, "round"),
    ("rounds/", {"number": 1, "round": {}, "seat": "Ann"}, "seat"),
    ("rounds/", {"number": 1, "round": {}, "colour": "red"}, "colour"),
    ("rounds/", [1, 2], "body"),
    ("rounds/1/confirm/", {"seat": -1}, "seat"),
    ("end/", {"seat": 1.5, "ended_early": True}, "seat"),
]


@pytest.mark.parametrize(("path", "body", "field"), SCHEMA_MISTAKES)
def test_a_body_of_the_wrong_shape_is_refused_naming_the_field(client, path, body, field):
    game = create(client)
    response = post(client, f"/api/games/{game['id']}/{path}", body, game["token"])
    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert set(problem) == {"round", "field", "message"}
    assert problem["field"] == field and field in problem["message"]


def test_a_correction_may_repeat_the_round_number_but_not_another_one(client):
    game = create(client)
    token, base = game["token"], f"/api/games/{game['id']}/rounds/"
    post(client, base, {"number": 1, "round": roolz_round(a=190)}, token)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}

    def put(body):
        return client.put(f"{base}1/", json.dumps(body), content_type="application/json", **auth)

    other = put({"number": 2, "round": roolz_round(a=200), "revision": revision(client, game)})
    assert other.status_code == 400
    assert other.json()["errors"] == [
        {"round": 1, "field": "number", "message": "the body names round 2 but the path round 1"}
    ]
    same = put({"number": 1, "round": roolz_round(a=200), "revision": revision(client, game)})
    assert same.status_code == 200
    assert same.json()["score"]["rounds"][0]["deltas"] == [200, 100, 200, 100]


def test_a_game_deleted_after_its_token_was_known_answers_as_a_wrong_token(client):
    """Each server process keeps the tokens it has read: a game deleted since is still
    refused with the same 404 as a wrong token, whatever the endpoint."""
    from scoring.models import Game

    game = create(client)
    url = f"/api/games/{game['id']}/"
    headers = {"HTTP_AUTHORIZATION": f"Bearer {game['token']}"}
    assert client.get(url, **headers).status_code == 200  # its token is known now
    wrong = client.get(url, HTTP_AUTHORIZATION="Bearer not-the-token")
    assert wrong.status_code == 404
    Game.objects.filter(pk=game["id"]).delete()
    body = {"number": 1, "round": roolz_round(0, 170, 180)}
    for response in (
        client.get(url, **headers),
        post(client, f"{url}rounds/", body, game["token"]),
        post(client, f"{url}rounds/1/confirm/", {"seat": 1}, game["token"]),
    ):
        assert response.status_code == 404
        assert response.json() == wrong.json()
