"""A saved round's answer shows the table exactly as a fresh read of the game shows it.

The answer to a save is built from the score read before the round and the round the
service scored, so each case here compares it with the scoreboard and the recent rounds
that polling phones get from a fresh read.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.engines.samples import roolz
from scoring.models import Round
from scoring.selectors import game_score
from scoring.services import Actor, game_create, round_record, round_save
from tests.games import GAMES, samples

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
SAMPLES = {game: samples(game) for game in GAMES}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def url(name, game, *args):
    return reverse(f"scoring:{name}", args=[game.table_token, *args])


def shown_after_save(html: str) -> str:
    """The scoreboard and recent rounds of a save's answer, as the poll renders them."""
    start = html.index('<section id="live"')
    live = html[start:].replace(
        'id="live" class="live" hx-swap-oob="true"', 'id="live" class="live"'
    )
    return CSRF.sub("csrf", live).strip()


def shown_fresh(client, game) -> str:
    response = client.get(url("table_live", game) + "?rev=-1", headers=HX)
    assert response.status_code == 200
    return CSRF.sub("csrf", response.content.decode()).strip()


def game_of(kind: str, rounds: int, confirmation: str = "off"):
    if kind == "roolz":  # four players in two teams, as the form below fills it
        record = roolz.sample_record(rounds=rounds, seed=5, players=4)
        record["options"] = {**record.get("options", {}), "target": 10**6}
    else:
        record = SAMPLES[kind].sample_record(rounds=rounds, seed=5)
    return game_create(record=record, confirmation=confirmation).game


@pytest.mark.parametrize("rounds", [0, 1, 2, 7])
def test_a_saved_round_shows_what_a_fresh_read_shows(client, rounds):
    game = game_of("roolz", rounds)
    number = game.rounds.count() + 1
    form = {"number": str(number), "key": f"k{number}", "bidder": str(number % 4)}
    response = client.post(
        url("table_entry", game), {**form, "bid": "170", "won-A": "180"}, headers=HX
    )
    html = response.content.decode()
    assert f"Deal {number} saved." in html
    assert game.rounds.count() == number
    assert shown_after_save(html) == shown_fresh(client, game)


def test_a_misdeal_shows_what_a_fresh_read_shows(client):
    game = game_of("roolz", 6)
    response = client.post(
        url("table_entry", game), {"number": "7", "key": "m", "action": "misdeal"}, headers=HX
    )
    html = response.content.decode()
    assert "Misdeal recorded." in html
    assert game.rounds.count() == 7
    assert shown_after_save(html) == shown_fresh(client, game)


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("played", [0, 1, 5])
def test_the_score_after_a_round_is_the_score_read_again(kind, played):
    record = SAMPLES[kind].sample_record(rounds=played + 1, seed=played)
    entries = record["rounds"]
    head = {
        key: record[key]
        for key in ("format", "game", "players", "options", "first_dealer")
        if key in record
    }
    game = game_create(record={**head, "rounds": entries[:-1]}).game
    before = game_score(game)
    saved = round_save(
        game=game, number=len(entries), entry=entries[-1], actor=Actor(seat=0), before=before
    )
    assert saved is not None and saved.alone
    game.refresh_from_db()
    assert saved.score == game_score(game)


def test_a_round_waiting_for_confirmation_shows_what_a_fresh_read_shows(client):
    game = game_of("roolz", 3, confirmation="other_side")
    client.post(url("table_seat", game), {"seat": "0"}, headers=HX)
    response = client.post(
        url("table_entry", game),
        {"number": "4", "key": "k4", "bidder": "0", "bid": "170", "won-A": "180"},
        headers=HX,
    )
    html = response.content.decode()
    assert "Deal 4 saved." in html
    assert Round.objects.get(game=game, number=4).status == Round.Status.PENDING
    assert shown_after_save(html) == shown_fresh(client, game)


def test_a_round_saved_after_another_phones_round_shows_both(client):
    game = game_of("roolz", 2)
    page = client.get(url("table", game))
    assert page.status_code == 200
    # Another phone records deal 3 between this phone's read and its save of deal 4.
    round_record(
        game=game,
        number=3,
        entry={"bidder": 1, "bid": 170, "won": {"A": 100, "B": 200}},
        actor=Actor(seat=1),
    )
    response = client.post(
        url("table_entry", game),
        {"number": "4", "key": "k4", "bidder": "2", "bid": "170", "won-A": "180"},
        headers=HX,
    )
    html = response.content.decode()
    assert "Deal 4 saved." in html
    assert shown_after_save(html) == shown_fresh(client, game)


def test_a_replayed_save_shows_what_a_fresh_read_shows(client):
    game = game_of("roolz", 2)
    form = {"number": "3", "key": "k3", "bidder": "1", "bid": "170", "won-A": "180"}
    client.post(url("table_entry", game), form, headers=HX)
    again = client.post(url("table_entry", game), form, headers=HX).content.decode()
    assert "Deal 3 saved." in again
    assert game.rounds.count() == 3
    assert shown_after_save(again) == shown_fresh(client, game)
