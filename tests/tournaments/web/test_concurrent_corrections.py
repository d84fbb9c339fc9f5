"""Two phones and the desk correct the same deal at the same moment (PostgreSQL).

Each made its correction against the revision it saw: one is applied, the other two are
told "changed since you opened it" with what is there now, and nothing is lost: each
refused correction, made again against what is shown, is applied in turn.
"""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.models import Game, RoundEvent
from tests.tournaments.web.conftest import publish_next

pytestmark = pytest.mark.django_db(transaction=True)


def deal(game: Game, bid: int) -> dict:
    won = {"A": 100, "B": 200} if game.seats.count() == 4 else {"bidder": 200, "opponents": 100}
    return {"bidder": 1, "bid": bid, "won": won}


def desk_form(game: Game, bid: int, revision: int) -> dict[str, str]:
    entry = deal(game, bid)
    fields = {"number": "1", "bidder": "1", "bid": str(bid), "revision": str(revision)}
    fields["reason"] = "the captains agree"
    fields.update({f"won-{side}": str(points) for side, points in entry["won"].items()})
    return fields


def at_once(calls):
    """Run every call from its own thread, released together; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)
    errors: list = []

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            answers[index] = call()
        except Exception as error:  # reported below: a thread must not fail silently
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return answers


@pytest.mark.parametrize("attempt", range(3))
def test_two_phones_and_the_desk_correct_one_deal_at_once(postgres, event, director, attempt):
    table = publish_next(event, director).tables.select_related("game").get(number=1)
    game = table.game
    api = Client()
    token = {"HTTP_AUTHORIZATION": f"Bearer {game.table_token}"}
    first = {"bidder": 0, "bid": 170, "won": deal(game, 170)["won"]}
    recorded = api.post(
        f"/api/games/{game.pk}/rounds/",
        json.dumps({"number": 1, "round": first, "seat": 0}),
        content_type="application/json",
        HTTP_X_DEVICE="phone-a",
        **token,
    )
    assert recorded.status_code == 201
    seen = Game.objects.get(pk=game.pk).revision
    put_url = f"/api/games/{game.pk}/rounds/1/"

    def phone(seat: int, bid: int, revision: int):
        def call():
            return Client().put(
                put_url,
                json.dumps({"round": deal(game, bid), "seat": seat, "revision": revision}),
                content_type="application/json",
                HTTP_X_DEVICE=f"phone-{seat}",
                **token,
            )

        return call

    desk_url = reverse("tournaments:result_correct", args=[event.pk, table.pk, 1])

    def desk(bid: int, revision: int):
        def call():
            client = Client()
            client.force_login(director)
            return client.post(desk_url, desk_form(game, bid, revision))

        return call

    bids = {"phone 0": 180, "phone 1": 190, "desk": 200}
    answers = at_once([phone(0, 180, seen), phone(1, 190, seen), desk(200, seen)])
    applied = [
        who
        for who, answer in zip(bids, answers, strict=True)
        if answer.status_code in (200, 302)
        and (answer.status_code == 302 or "changed since" not in answer.content.decode())
    ]
    assert len(applied) == 1, [a.status_code for a in answers]
    now = Game.objects.get(pk=game.pk)
    assert now.rounds.get().entry["bid"] == bids[applied[0]]
    assert RoundEvent.objects.filter(game=game, action="correct").count() == 1
    # The others were told, with what is there now, and redo their change from it.
    for who, answer in zip(bids, answers, strict=True):
        if who in applied:
            continue
        if who == "desk":
            html = answer.content.decode()
            assert "changed since you opened it" in html and f"bid {bids[applied[0]]}" in html
            again = desk(bids[who], Game.objects.get(pk=game.pk).revision)()
            assert again.status_code == 302
        else:
            assert answer.status_code == 409
            current = answer.json()["current"]
            assert current["round"]["round"]["bid"] == bids[applied[0]]
            seat = 0 if who == "phone 0" else 1
            again = phone(seat, bids[who], Game.objects.get(pk=game.pk).revision)()
            assert again.status_code == 200, again.content
        assert Game.objects.get(pk=game.pk).rounds.get().entry["bid"] == bids[who]
    assert RoundEvent.objects.filter(game=game, action="correct").count() == 3
