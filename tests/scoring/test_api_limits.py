"""Every API path answers a body over the limit with the documented 413 JSON.

Table-driven: every path and method of the OpenAPI document, every size past the
limit (Django's own 2 MiB limit included), every kind of body; nothing is stored.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client

from scoring.models import Game, Round, RoundEvent
from scoring.services import Actor, game_create, round_record
from tests.scoring.factories import ROOLZ_FOUR, roolz_round

pytestmark = pytest.mark.django_db

LIMIT = settings.TABLESCORE_MAX_BODY_BYTES
SIZES = {
    "one byte over": LIMIT + 1,
    "a megabyte": 1024 * 1024,
    "over Django's limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1,
    "three megabytes": 3 * 1024 * 1024,
}
KINDS = {
    "json": "application/json",
    "form": "application/x-www-form-urlencoded",
    "text": "text/plain",
}


def api_operations() -> list[tuple[str, str]]:
    """(method, path) of every operation in the OpenAPI document, and the document itself."""
    document = Client().get("/api/openapi.json").json()
    operations = [
        (method.upper(), path)
        for path, methods in document["paths"].items()
        for method in methods
        if method in {"get", "post", "put", "patch", "delete"}
    ]
    return [*operations, ("GET", "/api/openapi.json")]


def body_of(size: int, kind: str) -> bytes:
    if kind == "json":
        return (json.dumps({"number": 1, "round": {"pad": ""}})[:-3] + "x" * size + '"}}').encode()[
            :size
        ]
    if kind == "form":
        return ("number=1&pad=" + "x" * size).encode()[:size]
    return b"x" * size


@pytest.fixture
def game() -> Game:
    game = game_create(record=ROOLZ_FOUR).game
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=Actor(seat=0))
    return game


def test_every_operation_is_in_the_table(client):
    operations = api_operations()
    assert ("POST", "/api/games/{game_id}/rounds/") in operations
    assert len(operations) >= 8


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
@pytest.mark.parametrize("kind", list(KINDS), ids=list(KINDS))
def test_every_path_answers_an_oversized_body_with_413_json(client, game, size, kind):
    path_values = {"{game_id}": str(game.pk), "{number}": "1"}
    events = RoundEvent.objects.count()
    for method, template in api_operations():
        path = template
        for name, value in path_values.items():
            path = path.replace(name, value)
        response = client.generic(
            method,
            path,
            data=body_of(size, kind),
            content_type=KINDS[kind],
            HTTP_AUTHORIZATION=f"Bearer {game.table_token}",
        )
        where = f"{method} {path} ({kind}, {size} bytes)"
        assert response.status_code == 413, where
        assert response["Content-Type"] == "application/json", where
        assert response.json() == {
            "errors": [
                {
                    "round": None,
                    "field": "body",
                    "message": f"the body is larger than {LIMIT} bytes",
                }
            ]
        }, where
    assert Round.objects.filter(game=game).count() == 1
    assert Game.objects.count() == 1
    assert RoundEvent.objects.count() == events


def test_a_body_at_the_limit_is_read(client, game):
    padding = LIMIT - len(json.dumps({"number": 2, "round": roolz_round(a=100), "seat": 0}))
    body = json.dumps({"number": 2, "round": roolz_round(a=100), "seat": 0})
    body = body[:-1] + " " * padding + "}"
    assert len(body.encode()) == LIMIT
    response = client.post(
        f"/api/games/{game.pk}/rounds/",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.table_token}",
    )
    assert response.status_code == 201, response.content


def test_the_openapi_document_lists_the_413_on_every_operation(client):
    document = client.get("/api/openapi.json").json()
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            assert "413" in operation["responses"], f"{method} {path}"
