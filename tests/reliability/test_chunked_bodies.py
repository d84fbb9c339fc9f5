"""A body sent in chunks (no Content-Length) is held to the same limit as a sized one.

Only a real server takes chunks apart, so gunicorn serves here: past the limit every API
path answers the same 413 JSON as a sized body, and a chunked body within it is read.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import need_service
from tests.reliability.live import Server, the_test_database_url

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

LIMIT = settings.TABLESCORE_MAX_BODY_BYTES
TOO_LARGE = {
    "errors": [
        {"round": None, "field": "body", "message": f"the body is larger than {LIMIT} bytes"}
    ]
}
ROOLZ = {"format": 1, "game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "gunicorn shares the test database")
    with django_db_blocker.unblock():
        web = Server(tmp_path_factory.mktemp("chunked"), database_url=the_test_database_url())
        web.start()
        try:
            yield web
        finally:
            web.stop()
            connection.close()


def padded(data: dict[str, object], size: int) -> bytes:
    """``data`` as JSON, spaces added inside so that it is ``size`` bytes long."""
    text = json.dumps(data)
    return (text[:-1] + " " * (size - len(text)) + "}").encode()


@pytest.fixture
def game(server):
    created = server.post_json("/api/games/", ROOLZ)
    assert created.status == 201, created
    return created.json()


@pytest.mark.parametrize("size", [LIMIT + 1, 3 * 1024 * 1024, 50 * 1024 * 1024])
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/games/"),
        ("POST", "/api/games/{id}/rounds/"),
        ("PUT", "/api/games/{id}/rounds/1/"),
        ("GET", "/api/openapi.json"),
        ("POST", "/api/no/such/path/"),
    ],
)
def test_a_chunked_body_past_the_limit_answers_413_json(server, game, method, path, size):
    entry = {"number": 1, "round": {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}}
    answer = server.request(
        method,
        path.format(id=game["id"]),
        padded(entry, size),
        {"Content-Type": "application/json", "Authorization": f"Bearer {game['token']}"},
        chunked=True,
    )
    assert (answer.status, answer.content_type) == (413, "application/json"), answer
    assert answer.json() == TOO_LARGE
    detail = server.request(
        "GET", f"/api/games/{game['id']}/", headers={"Authorization": f"Bearer {game['token']}"}
    )
    assert detail.status == 200, detail
    assert detail.json()["rounds"] == []  # nothing was stored


def test_a_chunked_body_within_the_limit_is_read(server):
    answer = server.request(
        "POST",
        "/api/games/",
        padded(ROOLZ, LIMIT),
        {"Content-Type": "application/json"},
        chunked=True,
    )
    assert answer.status == 201, answer
    assert answer.json()["score"]["players"] == ROOLZ["players"]
