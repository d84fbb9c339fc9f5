"""A match the director overrode is the desk's: its table takes no more deals from the
phones (the table page and the API refuse them, naming why), and the desk still acts."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import Game, Round
from scoring.selectors import table_closed
from scoring.services import Actor, round_record
from tests.tournaments.brackets.test_flow import DERBY_OPENING, TEAMS, current_rows
from tests.tournaments.helpers import enter_and_confirm
from tournaments.brackets import services as brackets
from tournaments.brackets.selectors import bracket_for
from tournaments.events import services

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def overridden(django_capture_on_commit_callbacks):
    """A four-team Roller Derby bracket whose match R1-2 the director decided after one
    deal at the table: (event, director, the match's game, the finish decided)."""
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(owner=director, name="Derby", game="roller_derby")
    for name, members in TEAMS[:4]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", user=director)
    game = current_rows(stage)["R1-2"].game
    with django_capture_on_commit_callbacks(execute=True):
        enter_and_confirm(game, 1, DERBY_OPENING[0])
    bears, cats = event.entrants.get(name="Bears"), event.entrants.get(name="Cats")
    with django_capture_on_commit_callbacks(execute=True):
        brackets.bracket_override(
            event=event,
            match="R1-2",
            finish=[cats.pk, bears.pk],
            reason="Bears left the hall",
            user=director,
        )
    game.refresh_from_db()
    return event, director, game, (cats, bears)


def test_the_overridden_match_table_is_closed(overridden):
    _, _, game, _ = overridden
    assert table_closed(game)


def test_the_table_page_refuses_a_deal_and_keeps_what_was_recorded(client, overridden):
    _, _, game, _ = overridden
    client.post(reverse("scoring:table_seat", args=[game.table_token]), {"seat": "0"}, headers=HX)
    response = client.post(
        reverse("scoring:table_entry", args=[game.table_token]),
        {"number": "2", "key": "k2", "dice-0": "3", "dice-1": "4", "tricks": "9"},
        headers=HX,
    )
    assert response.status_code < 500
    answer = response.content.decode()
    assert "The desk decided this match" in answer and 'name="tricks"' not in answer
    assert list(Round.objects.filter(game=game).values_list("number", flat=True)) == [1]
    # The page says so before anyone tries: no deal form, the desk's word instead.
    page = client.get(f"/t/{game.table_token}/").content.decode()
    assert "The desk decided this match" in page and 'name="tricks"' not in page


def test_the_api_refuses_a_deal(client, overridden):
    _, _, game, _ = overridden
    response = client.post(
        f"/api/games/{game.pk}/rounds/",
        data=json.dumps({"number": 2, "round": DERBY_OPENING[1], "seat": 0}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.table_token}",
    )
    assert 400 <= response.status_code < 500
    errors = response.json()["errors"]
    assert errors[0]["field"] == "table" and errors[0]["round"] == 2
    assert "desk decided this table's match" in errors[0]["message"]
    assert Round.objects.filter(game=game).count() == 1


def test_the_desk_still_acts_on_the_match(overridden):
    event, director, game, (cats, bears) = overridden
    # The desk records at the closed table ...
    round_record(
        game=game, number=2, entry=DERBY_OPENING[1], actor=Actor(seat=0, user=director, desk=True)
    )
    assert Round.objects.filter(game=game).count() == 2
    # ... and decides the match again, the other way.
    brackets.bracket_override(
        event=event,
        match="R1-2",
        finish=[bears.pk, cats.pk],
        reason="Bears came back: the first ruling was wrong",
        user=director,
    )
    page = bracket_for(event=event)
    assert page is not None
    final = page.sections[0].columns[-1].matches[0]
    assert final.seats[1].label == "Bears"
    assert Game.objects.get(pk=game.pk).closed_by_desk
