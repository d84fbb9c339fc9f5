"""The pages that create work answer 429 past their rate, and let the address back later."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from printing.models import PrintJob
from scoring.models import Game

pytestmark = pytest.mark.django_db

NEW_GAME = {
    "game": "roller_derby",
    "players": "4",
    **{f"player-{seat}": name for seat, name in enumerate(["Ann", "Ben", "Cat", "Dan"])},
}


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def new_game(client, **headers):
    return client.post(reverse("scoring:game_new"), NEW_GAME, **headers)


def test_new_games_past_the_rate_get_a_429_page_then_recover(client, settings):
    # an hour's window: a burst never crosses its end (windows are fixed)
    settings.TABLESCORE_RATES = {**settings.TABLESCORE_RATES, "games": "2/h"}
    before = Game.objects.count()
    answers = [new_game(client).status_code for _ in range(3)]
    assert answers[2] == 429
    assert answers[:2] == [302, 302]
    assert Game.objects.count() - before == 2
    refused = new_game(client)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 3600
    assert "Too many new games from this address: try again in" in refused.content.decode()
    cache.clear()  # the hour has passed: the count starts again
    assert new_game(client).status_code != 429


def test_print_jobs_past_the_rate_are_refused_and_nothing_is_queued(client, settings):
    settings.TABLESCORE_RATES = {**settings.TABLESCORE_RATES, "print_jobs": "1/h"}
    url = reverse("printing:blank_sheets")
    first = client.post(url, {"sheet": "roolz:4", "copies": "1", "paper": "A4"})
    assert first.status_code != 429
    jobs = PrintJob.objects.count()
    second = client.post(
        url, {"sheet": "roolz:4", "copies": "2", "paper": "A4"}, HTTP_ACCEPT="application/json"
    )
    assert second.status_code == 429
    assert second.json()["errors"][0]["message"].startswith("Too many print requests")
    assert PrintJob.objects.count() == jobs


def test_a_limit_set_to_none_is_off(client, settings):
    settings.TABLESCORE_RATES = {**settings.TABLESCORE_RATES, "games": None}
    assert all(new_game(client).status_code != 429 for _ in range(5))
