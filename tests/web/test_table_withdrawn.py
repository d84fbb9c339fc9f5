"""A save sent again after its round was undone (or corrected) on another phone: nothing
is stored again, and the phone says so in sight, its entry kept to save again."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.engines.samples import roolz
from scoring.models import IdempotentRequest, RoundEvent
from scoring.services import Actor, game_create, round_correct, round_undo

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def url(name, game):
    return reverse(f"scoring:{name}", args=[game.table_token])


def casual_game():
    record = roolz.sample_record(rounds=1, seed=5, players=4)
    record["options"] = {**record.get("options", {}), "target": 10**6}
    return game_create(record=record).game


def save(client, game, key="k2", won="180"):
    form = {"number": "2", "key": key, "bidder": "1", "bid": "170", "won-A": won}
    return client.post(url("table_entry", game), form, headers=HX)


def key_in(html: str) -> str:
    found = re.search(r'name="key" value="([^"]+)"', html)
    assert found
    return found.group(1)


def test_a_retry_after_an_undo_stores_nothing_and_keeps_the_entry(client):
    game = casual_game()
    assert "Deal 2 saved." in save(client, game).content.decode()
    round_undo(game=game, number=2, actor=Actor(device="other"))
    answer = save(client, game)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'data-withdrawn="undone"' in html
    assert "Deal 2 was undone on another phone after this phone sent it." in html
    assert "Your entry is kept below" in html
    assert game.rounds.count() == 1
    actions = list(game.events.order_by("pk").values_list("action", flat=True))
    assert actions[-2:] == [RoundEvent.Action.RECORD, RoundEvent.Action.UNDO]
    # The entry comes back under a new key: saved again, it is stored.
    assert 'value="180"' in html
    fresh = key_in(html)
    assert fresh != "k2"
    again = save(client, game, key=fresh)
    assert "Deal 2 saved." in again.content.decode()
    assert game.rounds.count() == 2
    assert IdempotentRequest.objects.filter(game=game, key="k2").get().response == {
        "number": 2,
        "withdrawn": "undone",
    }


def test_a_retry_after_a_correction_shows_the_round_as_it_stands(client):
    game = casual_game()
    save(client, game)
    game.refresh_from_db()
    stored = game.rounds.get(number=2).entry
    changed = {**stored, "won": {label: 300 - points for label, points in stored["won"].items()}}
    round_correct(
        game=game, number=2, entry=changed, actor=Actor(device="other"), revision=game.revision
    )
    html = save(client, game).content.decode()
    assert 'data-withdrawn="corrected"' in html
    assert "Deal 2 now:" in html
    assert "Deal 3" in html  # a fresh form for the next deal
    assert game.rounds.count() == 2
