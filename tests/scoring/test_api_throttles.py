"""Limits on starting games and on guessing tokens: 429 with the envelope, then recovery.

The rates come from the settings; these tests lower them, hit the limit, wait as long
as Retry-After says and see the API answer again.
"""

from __future__ import annotations

import json
import time

import pytest
from django.core.cache import cache

from tests.scoring.factories import ROOLZ_FOUR, new_game

pytestmark = pytest.mark.django_db

WINDOW = "2/3s"  # two per three seconds: a limit a test can wait out
BURST = "2/h"  # windows are fixed: an hour's is never crossed by a burst of requests


def at_a_window_start(seconds: int = 3) -> None:
    """Just past the start of a fresh window, so that a burst is counted in one window
    (windows are fixed, aligned to multiples of their length)."""
    time.sleep(seconds - time.time() % seconds + 0.05)


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def limit(settings, **rates: str | None) -> None:
    settings.TABLESCORE_RATES = {"games": None, "print_jobs": None, "wrong_tokens": None, **rates}


def start(client, **extra):
    return client.post(
        "/api/games/", json.dumps(ROOLZ_FOUR), content_type="application/json", **extra
    )


def assert_throttled(response, window: int = 3) -> int:
    assert response.status_code == 429
    [problem] = response.json()["errors"]
    assert "too many requests" in problem["message"]
    assert set(problem) == {"round", "field", "message"}
    wait = int(response["Retry-After"])
    assert 1 <= wait <= window
    return wait


def test_starting_games_is_limited_then_allowed_again(client, settings):
    limit(settings, games=WINDOW)
    at_a_window_start()
    assert [start(client).status_code for _ in range(2)] == [201, 201]
    wait = assert_throttled(start(client))
    time.sleep(wait + 0.1)
    assert start(client).status_code == 201


def test_each_address_has_its_own_limit_on_starting_games(client, settings):
    limit(settings, games=BURST)
    for _ in range(2):
        start(client, REMOTE_ADDR="10.0.0.1")
    assert start(client, REMOTE_ADDR="10.0.0.1").status_code == 429
    assert start(client, REMOTE_ADDR="10.0.0.2").status_code == 201


def test_wrong_tokens_are_limited_but_the_right_token_always_passes(client, settings):
    limit(settings, wrong_tokens=WINDOW)
    game = new_game()
    url = f"/api/games/{game.pk}/"
    at_a_window_start()
    assert [client.get(url, HTTP_AUTHORIZATION="Bearer guess").status_code for _ in "ab"] == [
        404,
        404,
    ]
    wait = assert_throttled(client.get(url, HTTP_AUTHORIZATION="Bearer guess"))
    # During the lockout, a phone at the same address with the right token is served.
    assert client.get(url, HTTP_AUTHORIZATION=f"Bearer {game.table_token}").status_code == 200
    assert client.get(url, HTTP_AUTHORIZATION="Bearer x", REMOTE_ADDR="10.9.9.9").status_code == 404
    time.sleep(wait + 0.1)
    assert client.get(url, HTTP_AUTHORIZATION="Bearer guess").status_code == 404


def test_a_refused_record_does_not_count_as_a_game(client, settings):
    limit(settings, games=BURST)
    # Past the schema, refused by the game's rules: no game is created, none counted.
    bad = {**ROOLZ_FOUR, "rounds": [{"bidder": 0, "bid": 172, "won": {"A": 190, "B": 110}}]}
    for _ in range(4):
        answer = client.post("/api/games/", json.dumps(bad), content_type="application/json")
        assert 400 <= answer.status_code < 429
    assert [start(client).status_code for _ in range(2)] == [201, 201]
    assert_throttled(start(client), window=3600)


def test_the_right_token_never_counts_against_the_limit(client, settings):
    limit(settings, wrong_tokens=BURST)
    game = new_game()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {game.table_token}"}
    statuses = {client.get(f"/api/games/{game.pk}/", **auth).status_code for _ in range(6)}
    assert statuses == {200}


def test_a_limit_switched_off_never_answers_429(client, settings):
    limit(settings, games=None)
    assert {start(client).status_code for _ in range(5)} == {201}
