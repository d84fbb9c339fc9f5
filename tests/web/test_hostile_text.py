"""Text no database can hold (NUL, lone surrogates) and odd tokens: 4xx or a form message."""

from __future__ import annotations

import json

import pytest

from scoring.models import Game
from tests.scoring.factories import new_game, roolz_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/t/a%00b/", "/t/short/", "/t/" + "x" * 80 + "/", "/print/jobs/a%00/"]
)
def test_malformed_tokens_in_urls_are_404(client, path):
    assert client.get(path).status_code == 404


def test_printing_games_by_a_malformed_token_is_refused_cleanly(client):
    response = client.post("/print/games/", {"token": ["a\x00"]})
    assert response.status_code < 500


def test_idempotency_keys_with_control_characters_are_refused(client):
    game = new_game()
    response = client.post(
        f"/api/games/{game.pk}/rounds/",
        json.dumps({"number": 1, "round": roolz_round()}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.table_token}",
        HTTP_IDEMPOTENCY_KEY="k\x01",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "idempotency_key"
    assert not game.rounds.exists()


def test_names_with_control_characters_are_refused_by_the_engine(client):
    response = client.post(
        "/api/games/",
        json.dumps({"game": "roolz", "players": ["Ann\x00", "Ben"]}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert not Game.objects.exists()
