"""Closed event tables ask the desk, the desk answers; stale changes are shown, not applied.

Through the pages and the API, as phones and the director use them.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import ChangeRequest, Game, RoundEvent
from tests.tournaments.helpers import play_table
from tests.tournaments.web.conftest import publish_next
from tournaments.events import services
from tournaments.models import Event, EventLog

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def phone(game: Game, seat: int) -> Client:
    """A phone at the table holding ``seat``."""
    client = Client()
    client.post(reverse("scoring:table_seat", args=[game.table_token]), {"seat": str(seat)})
    return client


def revision(game: Game) -> str:
    return str(Game.objects.get(pk=game.pk).revision)


@pytest.fixture
def finished(event, director) -> Game:
    table = publish_next(event, director).tables.select_related("game").get(number=1)
    play_table(table)
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.FINISHED
    return game


def correction_of(game: Game) -> dict[str, str]:
    if game.seats.count() == 4:
        return {"bidder": "1", "bid": "170", "won-A": "100", "won-B": "200"}
    return {"bidder": "1", "bid": "170", "won-bidder": "200", "won-opponents": "100"}


def test_a_closed_table_asks_the_desk_and_the_director_answers(
    finished, event, desk, other_director
):
    ann = phone(finished, 0)
    page = ann.get(reverse("scoring:table", args=[finished.table_token])).content.decode()
    assert "Ask the desk to undo" in page
    history = ann.get(reverse("scoring:history", args=[finished.table_token])).content.decode()
    assert "Ask the desk to correct" in history and "goes to the event's desk" in history
    correct_url = reverse("scoring:round_correct", args=[finished.table_token, 1])
    form = ann.get(correct_url).content.decode()
    assert "goes to the event's desk" in form
    asked = ann.post(
        correct_url, {"number": "1", **correction_of(finished), "revision": revision(finished)}
    )
    assert asked.status_code == 302
    request = ChangeRequest.objects.get(game=finished)
    assert request.to_desk and request.kind == "correct" and request.entry["bidder"] == 1
    assert Game.objects.get(pk=finished.pk).rounds.get(number=1).entry["bidder"] == 0
    table = ann.get(reverse("scoring:table", args=[finished.table_token])).content.decode()
    assert "Asked of the desk" in table and "asks to correct deal 1" in table

    desk_page = desk.get(reverse("tournaments:desk_event", args=[event.pk])).content.decode()
    assert "Waiting for the desk" in desk_page and "asks to correct deal 1" in desk_page
    answer_url = reverse("tournaments:table_request_answer", args=[event.pk, request.pk])
    # Another director's desk does not see it.
    stranger_desk = Client()
    stranger_desk.force_login(other_director)
    refused = stranger_desk.post(
        answer_url, {"answer": "accept", "reason": "x", "revision": revision(finished)}
    )
    assert refused.status_code == 404
    # No reason: refused, beside the request.
    no_reason = desk.post(
        answer_url, {"answer": "accept", "reason": " ", "revision": revision(finished)}, headers=HX
    )
    assert "Say why" in no_reason.content.decode()
    assert ChangeRequest.objects.get(pk=request.pk).status == "open"
    # An old revision: refused, nothing done.
    stale = desk.post(
        answer_url,
        {"answer": "accept", "reason": "agreed", "revision": str(int(revision(finished)) - 1)},
        headers=HX,
    )
    assert "changed since you opened it" in stale.content.decode()
    made = desk.post(
        answer_url,
        {"answer": "accept", "reason": "both captains agree", "revision": revision(finished)},
        headers=HX,
    )
    assert made.status_code == 200
    assert "Nothing waiting" in made.content.decode()
    request.refresh_from_db()
    assert request.status == "accepted" and request.reason == "both captains agree"
    assert Game.objects.get(pk=finished.pk).rounds.get(number=1).entry["bidder"] == 1
    log = EventLog.objects.get(event=event, action="table_request_answer")
    assert log.after == {"status": "accepted", "reason": "both captains agree"}


def test_an_undo_at_a_closed_table_goes_to_the_desk_and_may_be_declined(finished, event, desk):
    ben = phone(finished, 1)
    ben.post(
        reverse("scoring:round_undo", args=[finished.table_token]),
        {"number": "2", "revision": revision(finished)},
        headers=HX,
    )
    request = ChangeRequest.objects.get(game=finished, to_desk=True)
    assert request.kind == "undo" and request.round_number == 2
    desk.post(
        reverse("tournaments:table_request_answer", args=[event.pk, request.pk]),
        {"answer": "decline", "reason": "the deal stands", "revision": revision(finished)},
    )
    request.refresh_from_db()
    assert request.status == "declined"
    assert Game.objects.get(pk=finished.pk).rounds.count() == 2


def test_a_stale_correction_on_the_table_page_shows_what_is_there_now(event, director):
    table = publish_next(event, director).tables.select_related("game").get(number=1)
    game = table.game
    ann, ben = phone(game, 0), phone(game, 1)
    first = {"number": "1", "bidder": "0", "bid": "170", "key": "k1"}
    first.update(
        {"won-A": "200", "won-B": "100"}
        if game.seats.count() == 4
        else {"won-bidder": "200", "won-opponents": "100"}
    )
    ann.post(reverse("scoring:table_entry", args=[game.table_token]), first, headers=HX)
    correct_url = reverse("scoring:round_correct", args=[game.table_token, 1])
    opened = revision(game)
    mine = {"number": "1", **correction_of(game), "revision": opened}
    theirs = {**mine, "bid": "180"}
    assert ben.post(correct_url, theirs, headers=HX)["HX-Redirect"]
    refused = ann.post(correct_url, mine, headers=HX)
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "changed since you opened it" in html and "bid 180" in html
    assert f'name="revision" value="{revision(game)}"' in html  # redo against what is there
    assert Game.objects.get(pk=game.pk).rounds.get().entry["bid"] == 180
    redo = ann.post(correct_url, {**mine, "revision": revision(game)}, headers=HX)
    assert redo["HX-Redirect"]
    assert Game.objects.get(pk=game.pk).rounds.get().entry["bid"] == 170


def test_at_an_event_table_only_this_phones_own_seat_confirms(event, director):
    table = publish_next(event, director).tables.select_related("game").get(number=1)
    game = table.game
    ann = phone(game, 0)
    entry = {"number": "1", "bidder": "0", "bid": "170", "key": "k1"}
    entry.update(
        {"won-A": "200", "won-B": "100"}
        if game.seats.count() == 4
        else {"won-bidder": "200", "won-opponents": "100"}
    )
    ann.post(reverse("scoring:table_entry", args=[game.table_token]), entry, headers=HX)
    page = ann.get(reverse("scoring:table", args=[game.table_token])).content.decode()
    assert "Hand the phone to" not in page and "on their own phone" in page
    confirm = reverse("scoring:round_confirm", args=[game.table_token, 1])
    # Ann's phone says it confirms as Ben: it is Ann's phone, so it is Ann, who may not.
    ann.post(confirm, {"seat": "1"}, headers=HX)
    assert Game.objects.get(pk=game.pk).rounds.get().status == "pending"
    phone(game, 1).post(confirm, {"seat": "1"}, headers=HX)
    assert Game.objects.get(pk=game.pk).rounds.get().status == "confirmed"


def test_the_phone_that_entered_a_deal_is_not_offered_its_confirmation(event, director):
    """Whichever seat the entering phone then says it holds, it is not offered a Confirm
    the service refuses; a refusal it gets anyway starts with a capital."""
    table = publish_next(event, director).tables.select_related("game").get(number=1)
    game = table.game
    ann = phone(game, 0)
    entry = {"number": "1", "bidder": "0", "bid": "170", "key": "k1"}
    entry.update(
        {"won-A": "200", "won-B": "100"}
        if game.seats.count() == 4
        else {"won-bidder": "200", "won-opponents": "100"}
    )
    ann.post(reverse("scoring:table_entry", args=[game.table_token]), entry, headers=HX)
    ann.post(reverse("scoring:table_seat", args=[game.table_token]), {"seat": "1"})
    page = ann.get(reverse("scoring:table", args=[game.table_token])).content.decode()
    assert "Waiting for confirmation" in page
    assert "Confirm as" not in page
    assert "This phone entered it: a player of the other side confirms it" in page
    confirm = reverse("scoring:round_confirm", args=[game.table_token, 1])
    refused = ann.post(confirm, {"seat": "1"}, headers=HX).content.decode()
    assert "Confirm on a phone of the other side, not the phone that entered it" in refused
    assert Game.objects.get(pk=game.pk).rounds.get().status == "pending"
    other = phone(game, 1).get(reverse("scoring:table", args=[game.table_token])).content.decode()
    assert "Confirm as" in other


# --------------------------------------------------------------------------- the API


def api(client: Client, method: str, url: str, game: Game, body=None, **headers):
    return getattr(client, method)(
        url,
        json.dumps(body) if body is not None else "",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.table_token}",
        **headers,
    )


def test_the_api_refuses_a_stale_change_with_409_and_what_is_there_now(client, event, director):
    game = publish_next(event, director).tables.select_related("game").get(number=1).game
    base = f"/api/games/{game.pk}/rounds/"
    deal = {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}}
    if game.seats.count() == 3:
        deal = {"bidder": 0, "bid": 170, "won": {"bidder": 200, "opponents": 100}}
    api(client, "post", base, game, {"number": 1, "round": deal, "seat": 0}, HTTP_X_DEVICE="a")
    seen = int(revision(game))
    changed = {**deal, "bid": 180}
    ok = api(client, "put", base + "1/", game, {"round": changed, "seat": 1, "revision": seen})
    assert ok.status_code == 200
    stale = api(client, "put", base + "1/", game, {"round": deal, "seat": 0, "revision": seen})
    assert stale.status_code == 409
    body = stale.json()
    assert body["errors"][0]["field"] == "revision" and body["errors"][0]["round"] == 1
    assert "changed since you opened it" in body["errors"][0]["message"]
    assert body["current"]["revision"] == int(revision(game))
    assert body["current"]["round"]["round"] == changed
    no_revision = api(client, "delete", base + "1/", game)
    assert no_revision.status_code == 400
    assert no_revision.json()["errors"][0]["field"] == "revision"
    assert RoundEvent.objects.filter(game=game, action="correct").count() == 1


def test_the_api_at_a_closed_table_asks_the_desk(client, finished):
    base = f"/api/games/{finished.pk}/rounds/"
    asked = api(
        client,
        "delete",
        base + "2/",
        finished,
        {"seat": 1, "revision": int(revision(finished))},
        HTTP_X_DEVICE="b",
    )
    assert asked.status_code == 202
    assert asked.json()["request"]["to"] == "desk" and asked.json()["request"]["kind"] == "undo"
    assert Game.objects.get(pk=finished.pk).rounds.count() == 2


def test_an_event_handing_one_phone_over_gives_its_tables_that_setting(desk, director):
    form = {"name": "Pub night", "game": "roolz", "format": "mixer", "rounds_planned": "2"}
    desk.post(reverse("tournaments:event_new"), {**form, "one_phone": "on"})
    desk.post(reverse("tournaments:event_new"), {**form, "name": "Club night"})
    handed, own = Event.objects.get(name="Pub night"), Event.objects.get(name="Club night")
    assert handed.one_phone and not own.one_phone
    for event, expected in ((handed, True), (own, False)):
        services.entrants_import_csv(
            event=event, text="\n".join(["Ann", "Ben", "Cat", "Dan"]), user=director
        )
        game = publish_next(event, director).tables.get().game
        assert game.one_phone is expected


def test_a_stale_undo_from_the_table_page_says_so_beside_the_game_as_it_is(client):
    from scoring.services import Actor, game_create, round_record

    game = game_create(
        record={"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}, actor=Actor()
    ).game
    entry = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}
    round_record(game=game, number=1, entry=entry, actor=Actor())
    shown = revision(game)
    round_record(game=game, number=2, entry=entry, actor=Actor())  # another phone, meanwhile
    response = client.post(
        reverse("scoring:round_undo", args=[game.table_token]),
        {"number": "1", "revision": shown},
        headers=HX,
    )
    assert response["HX-Retarget"] == "#live"
    html = response.content.decode()
    assert "changed since you opened it" in html and 'id="live"' in html
    assert Game.objects.get(pk=game.pk).rounds.count() == 2
