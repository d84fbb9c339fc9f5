"""The API of a player's own link (/api/me): the private token is the credential; check
in, my seat, drop out; every refusal the errors envelope naming the field."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import Entrant, Event
from tournaments.models.tokens import new_private_token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    """Wrong tokens are counted per address: each test starts with none counted."""
    cache.clear()
    yield
    cache.clear()


NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x")


@pytest.fixture
def event(director) -> Event:
    event = services.event_create(
        owner=director, name="Friday", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event


def bearer(entrant: Entrant) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {entrant.private_token}"}


def ann(event: Event) -> Entrant:
    return event.entrants.get(name="Ann")


def post(client, path: str, body: dict, entrant: Entrant):
    return client.post(path, body, content_type="application/json", **bearer(entrant))


def test_me_answers_who_the_token_is(client, event):
    answer = client.get("/api/me", **bearer(ann(event)))
    assert answer.status_code == 200
    assert answer.json() == {
        "name": "Ann",
        "event": "Friday",
        "registered": True,
        "checked_in": False,
        "check_in_open": False,
        "dropped": False,
        "drop_asked": False,
        "drop_policy": "ask",
        "seat": None,
        "rank": None,
    }


@pytest.mark.parametrize(
    ("header", "status"),
    [(None, 401), ("Basic abc", 401), ("Bearer nobody", 404), ("Bearer ", 404)],
)
def test_a_missing_or_wrong_token_is_refused_in_the_envelope(client, event, header, status):
    extra = {"HTTP_AUTHORIZATION": header} if header is not None else {}
    for method, path in [("get", "/api/me"), ("get", "/api/me/seat"), ("post", "/api/me/drop")]:
        answer = getattr(client, method)(path, content_type="application/json", **extra)
        assert answer.status_code == status, (method, path)
        [problem] = answer.json()["errors"]
        assert problem["field"] == "authorization"
        assert "game" not in problem["message"]


def test_a_reissued_token_is_refused(client, event):
    old = ann(event).private_token
    Entrant.objects.filter(name="Ann").update(private_token=new_private_token())
    assert client.get("/api/me", HTTP_AUTHORIZATION=f"Bearer {old}").status_code == 404
    assert client.get("/api/me", **bearer(ann(event))).status_code == 200


def test_check_in_by_the_api(client, event, director):
    refused = post(client, "/api/me/check-in", {"checked_in": True}, ann(event))
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "checked_in"
    services.event_self_service_set(event=event, self_check_in="open", user=director)
    done = post(client, "/api/me/check-in", {}, ann(event))
    assert done.status_code == 200 and done.json()["checked_in"] is True
    assert ann(event).checked_in
    undone = post(client, "/api/me/check-in", {"checked_in": False}, ann(event))
    assert undone.json()["checked_in"] is False


def test_a_bad_body_names_its_field(client, event):
    answer = post(client, "/api/me/check-in", {"checked_in": "perhaps"}, ann(event))
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "checked_in"


def test_my_seat_appears_when_the_round_is_published(client, event, director):
    assert client.get("/api/me/seat", **bearer(ann(event))).json() == {"seat": None}
    draft = services.tournament_round_generate(event=event, user=director)
    assert client.get("/api/me/seat", **bearer(ann(event))).json() == {"seat": None}
    services.tournament_round_publish(event=event, round=draft, user=director)
    seat = client.get("/api/me/seat", **bearer(ann(event))).json()["seat"]
    assert seat["round"] == 1 and seat["table"] >= 1 and 1 <= seat["seat"] <= 4
    assert len(seat["mates"]) == 3 and "Ann" not in {m["name"] for m in seat["mates"]}
    assert sum(m["partner"] for m in seat["mates"]) == 1  # Roolz: two teams of two
    assert seat["view_path"].startswith("/v/")
    assert "/t/" not in str(seat)  # never the table's entry link


def test_drop_by_the_api_as_the_event_says(client, event, director):
    asked = post(client, "/api/me/drop", {}, ann(event))
    assert asked.status_code == 200 and asked.json()["drop_asked"] is True
    stayed = post(client, "/api/me/drop", {"stay": True}, ann(event))
    assert stayed.json()["drop_asked"] is False
    services.event_self_service_set(
        event=event, self_check_in="closed", self_drop="now", user=director
    )
    dropped = post(client, "/api/me/drop", {}, ann(event))
    assert dropped.json()["dropped"] is True
    again = post(client, "/api/me/drop", {}, ann(event))
    assert again.status_code == 400 and again.json()["errors"][0]["field"] == "entrant"


def test_the_document_lists_the_own_link_endpoints(client):
    document = client.get("/api/openapi.json").json()
    for method, path in [
        ("get", "/api/me"),
        ("get", "/api/me/seat"),
        ("post", "/api/me/check-in"),
        ("post", "/api/me/drop"),
    ]:
        operation = document["paths"][path][method]
        assert operation["security"] == [{"PrivateToken": []}]
        assert {"200", "400", "404"} <= set(operation["responses"])
