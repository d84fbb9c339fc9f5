"""The director's word at a closed table, from the desk's table page: undo the last deal,
remove any deal, end the game at the totals, and a correction that would change how the
game ended offered as "end here" or "undo the later deals"; each with a reason, in the
game's audit and the event's log; a stale page refused. A table's "why" reaches the desk."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engines.base import AT_TOTALS
from scoring.models import ChangeRequest, Game, RoundEvent
from tests.tournaments.helpers import DEALS, enter_and_confirm, play_table
from tests.tournaments.web.conftest import publish_next
from tournaments.events import services
from tournaments.models import EventLog

pytestmark = pytest.mark.django_db

ALL_TO_A = {"bidder": "0", "bid": "300", "won-A": "300", "won-B": "0", "all_tricks": "A"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def revision(game: Game) -> str:
    return str(Game.objects.get(pk=game.pk).revision)


@pytest.fixture
def table(event, director):
    table = publish_next(event, director).tables.select_related("game").get(number=1)
    assert table.game.seats.count() == 4
    return table


@pytest.fixture
def finished(table):
    play_table(table)
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.FINISHED
    return table


def change(desk, event, table, **form):
    return desk.post(
        url("table_change", event.pk, table.pk), {"revision": revision(table.game), **form}
    )


def test_the_table_page_offers_the_directors_word(desk, event, finished):
    page = desk.get(url("desk_table", event.pk, finished.pk)).content.decode()
    assert "The director's word" in page
    assert "Undo deal 2" in page and "Remove this deal" in page
    assert "End the game at the totals" not in page  # the game is over already
    assert "round 2" not in page.lower().replace("round 1, table", "")


def test_undo_the_last_deal_with_a_reason(desk, event, finished):
    response = change(
        desk, event, finished, action="undo", last="2", reason="deal 2 was never played"
    )
    assert response.status_code == 302 and response["Location"].endswith("?done=undo")
    game = Game.objects.get(pk=finished.game_id)
    assert game.rounds.count() == 1 and game.status == Game.Status.IN_PROGRESS
    audit = game.events.get(action=RoundEvent.Action.UNDO)
    assert audit.reason == "deal 2 was never played"
    log = EventLog.objects.get(event=event, action="result_undo")
    assert log.after["reason"] == "deal 2 was never played" and log.after["removed"] == [2]
    page = desk.get(response["Location"]).content.decode()
    assert "The last deal was undone." in page
    history = Client().get(reverse("scoring:history", args=[game.table_token])).content.decode()
    assert "Why: deal 2 was never played" in history


def test_remove_any_deal(desk, event, finished):
    response = change(desk, event, finished, action="remove", number="1", reason="other table")
    assert response.status_code == 302
    game = Game.objects.get(pk=finished.game_id)
    assert [r.number for r in game.rounds.all()] == [1]
    assert game.events.get(action=RoundEvent.Action.REMOVE).reason == "other table"
    log = EventLog.objects.get(event=event, action="result_remove")
    assert log.before["number"] == 1 and log.after["reason"] == "other table"


def test_end_the_game_at_the_totals(desk, event, table):
    game = table.game
    enter_and_confirm(game, 1, DEALS[4][0])
    page = desk.get(url("desk_table", event.pk, table.pk)).content.decode()
    assert "End the game at the totals" in page
    response = change(desk, event, table, action="end", reason="time was called")
    assert response.status_code == 302
    game = Game.objects.get(pk=game.pk)
    assert game.ending == {AT_TOTALS: True} and game.status == Game.Status.FINISHED
    log = EventLog.objects.get(event=event, action="result_end")
    assert log.after["reason"] == "time was called"
    page = desk.get(response["Location"]).content.decode()
    assert "Ended by the director at the totals standing" in page
    table_page = Client().get(reverse("scoring:table", args=[game.table_token])).content.decode()
    assert "ended by the event&#x27;s director at the totals standing" in table_page


def test_a_reason_is_required_beside_its_field(desk, event, finished):
    response = change(desk, event, finished, action="undo", last="2", reason="  ")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="change-reason-error"' in html and "Say why" in html
    assert Game.objects.get(pk=finished.game_id).rounds.count() == 2


def test_a_stale_page_is_refused_never_applied(desk, event, finished):
    opened = revision(finished.game)
    change(desk, event, finished, action="undo", last="2", reason="first tab")
    response = desk.post(
        url("table_change", event.pk, finished.pk),
        {"revision": opened, "action": "undo", "last": "2", "reason": "second tab"},
    )
    html = response.content.decode()
    assert "changed since you opened it" in html
    assert "second tab" in html  # the reason typed is kept
    game = Game.objects.get(pk=finished.game_id)
    assert game.rounds.count() == 1  # only the first undo


def test_a_correction_that_would_end_the_game_earlier_is_offered_to_end_here(desk, event, finished):
    correct = url("result_correct", event.pk, finished.pk, 1)
    form = {"number": "1", **ALL_TO_A, "revision": revision(finished.game), "reason": "sheet"}
    offered = desk.post(correct, form).content.decode()
    assert "Correct it and end the game at deal 1" in offered
    assert "would make deal 2 invalid" in offered
    assert "round 2" not in offered
    assert Game.objects.get(pk=finished.game_id).rounds.count() == 2
    made = desk.post(correct, {**form, "later": "end"})
    assert made.status_code == 302
    game = Game.objects.get(pk=finished.game_id)
    assert game.rounds.count() == 1 and game.status == Game.Status.FINISHED
    log = EventLog.objects.get(event=event, action="result_correct")
    assert log.after["reason"] == "sheet" and log.after["removed"] == [2]
    assert game.events.get(action=RoundEvent.Action.CORRECT).reason == "sheet"


def test_a_correction_without_a_reason_is_refused_beside_the_reason(desk, event, finished):
    correct = url("result_correct", event.pk, finished.pk, 1)
    form = {"number": "1", "bidder": "1", "bid": "170", "won-A": "100", "won-B": "200"}
    html = desk.post(correct, {**form, "revision": revision(finished.game)}).content.decode()
    assert "data-reason-error" in html and "Say why" in html
    assert Game.objects.get(pk=finished.game_id).rounds.get(number=1).entry["bidder"] == 0


def test_a_players_why_reaches_the_desk_from_the_page_and_the_api(desk, event, finished):
    game = Game.objects.get(pk=finished.game_id)
    phone = Client()
    phone.post(reverse("scoring:table_seat", args=[game.table_token]), {"seat": "1"})
    table_page = phone.get(reverse("scoring:table", args=[game.table_token])).content.decode()
    assert 'name="why"' in table_page
    phone.post(
        reverse("scoring:round_undo", args=[game.table_token]),
        {"number": "2", "revision": revision(game), "why": "we scored deal 2 twice"},
    )
    asked = ChangeRequest.objects.get(game=game, to_desk=True)
    assert asked.why == "we scored deal 2 twice"
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "we scored deal 2 twice" in page
    desk.post(
        url("table_request_answer", event.pk, asked.pk),
        {"answer": "decline", "reason": "it stands", "revision": revision(game)},
    )
    # The API: the same request with its why, answered 202.
    answer = Client().delete(
        f"/api/games/{game.pk}/rounds/2/",
        json.dumps({"seat": 1, "revision": int(revision(game)), "why": "deal 2 twice"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.table_token}",
    )
    assert answer.status_code == 202, answer.content
    assert ChangeRequest.objects.get(pk=answer.json()["request"]["id"]).why == "deal 2 twice"


def test_a_game_ended_at_the_totals_travels_in_the_events_export(event, director, table):
    enter_and_confirm(table.game, 1, DEALS[4][0])
    services.result_end_at_totals(
        event=event, table=table, user=director, reason="time", revision=None
    )
    document = json.loads(json.dumps(services.event_export(event=event)))
    copy = services.event_import(data=document, owner=director)
    copied = Game.objects.get(event_table__round__event=copy, event_table__number=1)
    assert copied.ending == {AT_TOTALS: True} and copied.status == Game.Status.FINISHED
    assert services.event_export(event=copy)["rounds"] == document["rounds"]


def test_a_players_correction_asked_of_the_desk_carries_its_why(desk, event, finished):
    game = Game.objects.get(pk=finished.game_id)
    phone = Client()
    phone.post(reverse("scoring:table_seat", args=[game.table_token]), {"seat": "1"})
    correct = reverse("scoring:round_correct", args=[game.table_token, 1])
    assert 'name="why"' in phone.get(correct).content.decode()
    form = {"number": "1", "bidder": "1", "bid": "170", "won-A": "100", "won-B": "200"}
    phone.post(correct, {**form, "revision": revision(game), "why": "Ben bid, not Ann"})
    asked = ChangeRequest.objects.get(game=game, to_desk=True)
    assert asked.kind == "correct" and asked.why == "Ben bid, not Ann"


# --------------------------------------------------------------------------- later deals

NORMAL = {"dice": [3, 4], "tricks": 7}
B_ALL_OR_NOTHING = {"dice": [3, 4], "all_or_nothing": True, "made": False}
# Deal 1 played all or nothing and made (team B rolls deals 1 and 3): a later all or
# nothing of team B's no longer stands.
ALL_OR_NOTHING_MADE = {"number": "1", "all_or_nothing": "yes", "made": "yes"}


@pytest.fixture
def derby_table(director):
    event = services.event_create(
        owner=director, name="Derby night", game="roller_derby", format="swiss", rounds_planned=2
    )
    for name, members in (("Aces", ["Ann", "Abe"]), ("Bears", ["Ben", "Bo"])):
        services.entrant_add(event=event, name=name, members=members, user=director)
    table = publish_next(event, director).tables.select_related("game").get(number=1)
    assert table.game.kind == "roller_derby" and table.game.seats.count() == 4
    return table


def test_removing_a_deal_that_breaks_a_later_one_offers_its_choices_at_the_desk(desk, derby_table):
    table, event = derby_table, derby_table.round.event
    for number, entry in enumerate([B_ALL_OR_NOTHING, NORMAL, NORMAL, B_ALL_OR_NOTHING], 1):
        enter_and_confirm(table.game, number, entry)
    offered = change(desk, event, table, action="remove", number="2", reason="other table")
    html = offered.content.decode()
    assert offered.status_code == 200 and "data-later-choices" in html
    assert "would make deal 4 invalid" in html and "round 4" not in html
    assert "Remove it and end the game at deal 1" in html
    assert "Remove it and undo the later deals" in html
    assert 'name="reason" value="other table"' in html  # the reason goes with the choice
    game = Game.objects.get(pk=table.game_id)
    assert game.rounds.count() == 4  # nothing done yet
    made = change(
        desk, event, table, action="remove", number="2", reason="other table", later="undo"
    )
    assert made.status_code == 302
    game = Game.objects.get(pk=table.game_id)
    assert [r.number for r in game.rounds.all()] == [1]
    assert game.status == Game.Status.IN_PROGRESS and not game.ending
    log = EventLog.objects.get(event=event, action="result_remove")
    assert log.after["reason"] == "other table" and log.after["removed"] == [2, 3, 4]


def test_a_correction_at_the_desk_may_undo_the_later_deals_and_the_table_plays_on(
    desk, derby_table
):
    table, event = derby_table, derby_table.round.event
    for number, entry in enumerate([NORMAL, NORMAL, B_ALL_OR_NOTHING], 1):
        enter_and_confirm(table.game, number, entry)
    correct = url("result_correct", event.pk, table.pk, 1)
    form = {**ALL_OR_NOTHING_MADE, "revision": revision(table.game), "reason": "the sheet"}
    offered = desk.post(correct, form).content.decode()
    assert "would make deal 3 invalid" in offered and "round 3" not in offered
    assert "Correct it and end the game at deal 1" in offered
    assert "Correct it and undo the later deals" in offered
    assert Game.objects.get(pk=table.game_id).rounds.count() == 3
    made = desk.post(correct, {**form, "later": "undo"})
    assert made.status_code == 302 and made["Location"].endswith("?done=correct")
    game = Game.objects.get(pk=table.game_id)
    assert [r.number for r in game.rounds.all()] == [1]
    assert game.rounds.get().entry["all_or_nothing"] is True
    assert game.status == Game.Status.IN_PROGRESS and not game.ending
    log = EventLog.objects.get(event=event, action="result_correct")
    assert log.after["reason"] == "the sheet" and log.after["removed"] == [2, 3]
    enter_and_confirm(game, 2, NORMAL)  # the table plays on from deal 2
    assert Game.objects.get(pk=game.pk).rounds.count() == 2


def test_a_correction_at_the_desk_may_end_the_game_at_the_totals(desk, derby_table):
    table, event = derby_table, derby_table.round.event
    for number, entry in enumerate([NORMAL, NORMAL, B_ALL_OR_NOTHING], 1):
        enter_and_confirm(table.game, number, entry)
    correct = url("result_correct", event.pk, table.pk, 1)
    form = {**ALL_OR_NOTHING_MADE, "revision": revision(table.game), "reason": "the sheet"}
    made = desk.post(correct, {**form, "later": "end"})
    assert made.status_code == 302
    game = Game.objects.get(pk=table.game_id)
    assert [r.number for r in game.rounds.all()] == [1]
    assert game.ending == {AT_TOTALS: True} and game.status == Game.Status.FINISHED
    page = desk.get(url("desk_table", event.pk, table.pk)).content.decode()
    assert "Ended by the director at the totals standing" in page
