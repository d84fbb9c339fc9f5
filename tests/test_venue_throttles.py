"""Throttles that fit a venue: only real creations count, a club behind one address gets
through its night, an event's tables are never counted, a right token always passes,
and every 429 says when to try again (Retry-After matching the window)."""

from __future__ import annotations

import json
import math
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from scoring.models import Game
from tests.games import GAMES
from tests.scoring.factories import ROOLZ_FOUR
from tests.scoring.factories import new_game as stored_game
from tests.test_web_throttles import NEW_GAME
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services

pytestmark = pytest.mark.django_db

NOBODY = "A" * 43  # shaped like a table token, opens no game


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def rates(settings, **changed: str | None) -> None:
    settings.TABLESCORE_RATES = {"games": None, "print_jobs": None, "wrong_tokens": None, **changed}


def start_on_the_page(client, **extra):
    return client.post(reverse("scoring:game_new"), {**NEW_GAME, **extra})


def seconds_left(window: int) -> float:
    return window - time.time() % window


# --------------------------------------------------------------------------- what counts


def test_the_forms_refreshes_and_mistakes_never_count(client, settings):
    rates(settings, games="2/h")
    for choice in [*GAMES] * 5:
        answer = start_on_the_page(client, game=choice, refresh="game")
        assert answer.status_code == 200
    for _ in range(5):
        assert start_on_the_page(client, **{"player-0": ""}).status_code == 200
    assert [start_on_the_page(client).status_code for _ in range(2)] == [302, 302]
    assert start_on_the_page(client).status_code == 429


def test_a_clubs_hundred_games_in_an_hour_from_one_address_pass(client, settings):
    settings.TABLESCORE_RATES = dict(settings.VENUE_RATES)  # the defaults a venue runs with
    before = Game.objects.count()
    for n in range(100):
        client.post(reverse("scoring:game_new"), {**NEW_GAME, "refresh": "players"})
        address = {"REMOTE_ADDR": "192.0.2.7"}
        if n % 2:
            answer = client.post(reverse("scoring:game_new"), NEW_GAME, **address)
            assert answer.status_code == 302, n
        else:
            answer = client.post(
                "/api/games/", json.dumps(ROOLZ_FOUR), content_type="application/json", **address
            )
            assert answer.status_code == 201, n
    assert Game.objects.count() - before == 100


def test_an_events_tables_are_never_counted(client, settings):
    rates(settings, games="1/h")
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join(f"P{i}" for i in range(12)))
    services.tournament_round_generate(event=event, user=director)
    client.force_login(director)
    published = client.post(reverse("tournaments:round_publish", args=[event.pk, 1]))
    assert published.status_code in (200, 302)
    assert event.rounds.get().tables.exclude(game=None).count() == 3
    # The address still has its one game to start.
    assert start_on_the_page(client).status_code == 302
    assert start_on_the_page(client).status_code == 429


# --------------------------------------------------------------------------- when to try again


def test_a_web_429_says_when_with_retry_after_matching_the_window(client, settings):
    rates(settings, games="1/h")
    assert start_on_the_page(client).status_code == 302
    expected = seconds_left(3600)
    refused = start_on_the_page(client)
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert abs(wait - expected) <= 2
    text = refused.content.decode()
    if expected > 62:  # the hour's window ends in minutes: said in minutes, not "a minute"
        assert wait > 60
        assert f"try again in {math.ceil(wait / 60)} minutes" in text or "1 hours" in text
    else:  # asked in the last minute of the hour: its window ends in seconds
        assert f"try again in {wait} second" in text or f"{wait - 1} second" in text


def test_an_api_429_says_when_in_its_envelope_and_retry_after(client, settings):
    rates(settings, games="1/h")
    start = lambda: client.post(  # noqa: E731
        "/api/games/", json.dumps(ROOLZ_FOUR), content_type="application/json"
    )
    assert start().status_code == 201
    refused = start()
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert abs(wait - seconds_left(3600)) <= 2
    [problem] = refused.json()["errors"]
    assert (
        f"try again in {wait} seconds" in problem["message"] or str(wait - 1) in problem["message"]
    )


def test_print_requests_say_when_too(client, settings):
    rates(settings, print_jobs="1/min")
    url = reverse("printing:blank_sheets")
    form = {"sheet": "roolz:4", "copies": "1", "paper": "A4"}
    assert client.post(url, form).status_code != 429
    refused = client.post(url, form)
    assert refused.status_code == 429
    assert abs(int(refused["Retry-After"]) - seconds_left(60)) <= 2


# --------------------------------------------------------------------------- wrong tokens


def test_wrong_tokens_on_table_pages_count_and_lock_out_the_guesser(client, settings):
    rates(settings, wrong_tokens="3/h")
    for path in [f"/t/{NOBODY}/", f"/t/{NOBODY}/history/", f"/t/{NOBODY[:-1]}B/"]:
        assert client.get(path).status_code == 404
    refused = client.get(f"/t/{NOBODY}/")
    assert refused.status_code == 429
    assert abs(int(refused["Retry-After"]) - seconds_left(3600)) <= 2
    # The same count as the API's: this address is past it there too.
    game = stored_game()
    api = client.get(f"/api/games/{game.pk}/", HTTP_AUTHORIZATION="Bearer nope")
    assert api.status_code == 429
    # Another address is not touched.
    assert client.get(f"/t/{NOBODY}/", REMOTE_ADDR="198.51.100.9").status_code == 404


def test_a_valid_token_passes_during_a_wrong_token_lockout(client, settings):
    rates(settings, wrong_tokens="2/h")
    game = stored_game()
    for _ in range(3):
        client.get(f"/t/{NOBODY}/")
    assert client.get(f"/t/{NOBODY}/").status_code == 429
    # A phone behind the same address, at its own table: page, live part and API.
    assert client.get(f"/t/{game.table_token}/").status_code == 200
    assert client.get(f"/t/{game.table_token}/history/").status_code == 200
    auth = {"HTTP_AUTHORIZATION": f"Bearer {game.table_token}"}
    assert client.get(f"/api/games/{game.pk}/", **auth).status_code == 200
    body = {"number": 1, "round": {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}}
    posted = client.post(
        f"/api/games/{game.pk}/rounds/", json.dumps(body), content_type="application/json", **auth
    )
    assert posted.status_code == 201


def test_a_missing_page_of_a_real_table_is_not_a_wrong_token(client, settings):
    rates(settings, wrong_tokens="1/h")
    game = stored_game()
    for _ in range(3):
        assert client.get(f"/t/{game.table_token}/requests/999/").status_code in (404, 405)
    assert client.get(f"/t/{NOBODY}/").status_code == 404


def test_wrong_tokens_on_scoresheets_and_print_jobs_count_too(client, settings):
    rates(settings, wrong_tokens="3/h")
    game = stored_game()
    paths = [
        f"/t/{NOBODY}/scoresheet.pdf",
        f"/print/jobs/{NOBODY}/",
        f"/print/jobs/{NOBODY}/file.pdf",
    ]
    for path in paths:
        assert client.get(path).status_code == 404
    refused = client.get(f"/t/{NOBODY}/scoresheet.pdf")
    assert refused.status_code == 429
    assert abs(int(refused["Retry-After"]) - seconds_left(3600)) <= 2
    # The same count as the table pages', and a right token still passes.
    assert client.get(f"/t/{NOBODY}/").status_code == 429
    assert client.get(f"/t/{game.table_token}/scoresheet.pdf").status_code == 200


def test_every_wrong_token_of_one_print_post_counts(client, settings):
    rates(settings, wrong_tokens="10/h")
    game = stored_game()
    guesses = [f"{i:043d}" for i in range(5)]
    answer = client.post("/print/games/", {"token": [game.table_token, *guesses]})
    assert answer.status_code == 400
    # Five counted in one post: the next post of six wrong ones goes past ten.
    more = [f"{i:043d}" for i in range(5, 11)]
    refused = client.post("/print/games/", {"token": more})
    assert refused.status_code == 429
    assert client.get(f"/t/{NOBODY}/").status_code == 429
    # The right tokens alone still print.
    assert client.post("/print/games/", {"token": [game.table_token]}).status_code == 302
