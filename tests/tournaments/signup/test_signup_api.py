"""The sign-up in the API: register (the page's rules and limit), read one's status; both
in the OpenAPI document."""

from __future__ import annotations

import json

import pytest

from tests.tournaments.signup.conftest import open_signup
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def register(client, event, body, **extra):
    return client.post(
        f"/api/events/{event.public_token}/registrations/",
        json.dumps(body),
        content_type="application/json",
        **extra,
    )


def test_registering_answers_the_status_and_the_private_link(client, event, director):
    open_signup(event, director, cap=1)
    answer = register(client, event, {"name": "Ann", "contact": "ann@example.org"})
    assert answer.status_code == 201
    body = answer.json()
    entrant = Registration.objects.get(name="Ann").entrant
    assert body["status"] == "entrant"
    assert body["private_link"] == f"http://testserver/me/{entrant.private_token}/"
    assert "contact" not in body and "ann@example.org" not in answer.content.decode()
    waiting = register(client, event, {"name": "Ben"}).json()
    assert waiting["status"] == "waiting" and waiting["position"] == 1
    assert waiting["private_link"] is None
    status = client.get(f"/api/events/{event.public_token}/registrations/{waiting['token']}/")
    assert status.status_code == 200
    assert status.json()["position"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 41}, "name"),
        ({"name": "ann"}, "name"),
        ({"name": "Bob", "contact": "c" * 121}, "contact"),
        ({"name": 7}, "name"),
        ({"contact": "x"}, "name"),
        ({"name": "Bob", "age": 3}, "age"),
    ],
)
def test_bad_input_is_refused_by_field(client, event, director, body, field):
    open_signup(event, director)
    register(client, event, {"name": "Ann"})
    answer = register(client, event, body)
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == field
    assert Registration.objects.count() == 1


def test_a_sign_up_that_is_off_is_refused_naming_the_sign_up(client, event):
    answer = register(client, event, {"name": "Ann"})
    assert answer.status_code == 400
    assert answer.json()["errors"] == [
        {"round": None, "field": "signup", "message": "sign-up for this event is not open"}
    ]


def test_unknown_events_and_registrations_are_not_found(client, event, director):
    assert register(client, type(event)(public_token="nothing"), {"name": "Ann"}).status_code == 404
    answer = client.get(f"/api/events/{event.public_token}/registrations/nobody/")
    assert answer.status_code == 404
    assert answer.json()["errors"][0]["message"] == "not found"


def test_the_api_shares_the_pages_limit(client, event, director, settings):
    settings.TABLESCORE_RATES = {**settings.TABLESCORE_RATES, "signups": "1/h"}
    open_signup(event, director)
    assert register(client, event, {"name": ""}).status_code == 400  # given back
    assert register(client, event, {"name": "Ann"}).status_code == 201
    refused = register(client, event, {"name": "Ben"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    page = client.post(f"/e/{event.public_token}/signup/", {"name": "Ben"})
    assert page.status_code == 429


def test_the_openapi_document_describes_the_sign_up(client):
    document = client.get("/api/openapi.json").json()
    paths = document["paths"]
    post = paths["/api/events/{token}/registrations/"]["post"]
    assert {"201", "400", "404", "429"} <= set(post["responses"])
    assert "get" in paths["/api/events/{token}/registrations/{registration}/"]
