"""What the table pages say after a change: a correction saved, tricks that add up to too
many, a recent table started again (and only one of this phone's)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Confirmation, Game, Round
from scoring.services import Actor, game_create, round_record

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
NAMES = ["Ann", "Ben", "Cat", "Dan"]
SLUFF = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def test_a_saved_correction_is_announced_on_the_history_page(client):
    game = game_create(record={"game": "roolz", "players": NAMES}).game
    round_record(
        game=game,
        number=1,
        entry={"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}},
        actor=Actor(seat=0),
    )
    url = reverse("scoring:round_correct", args=[game.table_token, 1])
    game.refresh_from_db()
    form = {"number": "1", "bidder": "0", "bid": "200", "won-A": "210", "won-B": "90"}
    form["revision"] = str(game.revision)  # the revision the page showed
    answer = client.post(url, {**form, "action": "save"})
    assert answer.status_code == 302
    assert answer["Location"].endswith("?corrected=1#corrected")
    page = client.get(answer["Location"]).content.decode()
    assert 'id="corrected"' in page
    assert "Deal 1 corrected and saved" in page


def test_a_correction_waiting_for_confirmation_says_so(client):
    game = game_create(
        record={"game": "roolz", "players": NAMES}, confirmation=Confirmation.OTHER_SIDE
    ).game
    round_record(
        game=game,
        number=1,
        entry={"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}},
        actor=Actor(seat=0),
    )
    Round.objects.filter(game=game).update(status=Round.Status.PENDING)
    page = client.get(
        reverse("scoring:history", args=[game.table_token]) + "?corrected=1"
    ).content.decode()
    assert "Deal 1 corrected: it counts once another side confirms it" in page


@pytest.mark.parametrize("wrong", ["99", "x", ""])
def test_the_history_page_ignores_a_correction_it_does_not_know(client, wrong):
    game = game_create(record={"game": "roolz", "players": NAMES}).game
    page = client.get(reverse("scoring:history", args=[game.table_token]), {"corrected": wrong})
    assert page.status_code == 200
    assert 'id="corrected"' not in page.content.decode()


def test_team_tricks_adding_up_wrong_say_so_naming_the_sum_on_the_team_boxes(client):
    game = game_create(record={"game": "rook_sluff", "players": SLUFF}).game
    data = {"number": "1", "action": "save"}
    data |= {f"bids-{seat}": "2" for seat in range(6)}
    data |= {"team_tricks-A": "7", "team_tricks-B": "6"}  # 13 of 14
    html = client.post(
        reverse("scoring:table_entry", args=[game.table_token]), data, headers=HX
    ).content.decode()
    assert "Team tricks add up to 13, not the 14 tricks of a deal of 6 players" in html
    teams = html.split('class="sluff-teams')[1].split("</fieldset>")[0]
    assert teams.startswith(" has-error") and 'id="e-team_tricks"' in teams
    bids = html.split('class="sluff-bids')[1].split("</fieldset>")[0]
    assert "has-error" not in bids.split(">")[0] and 'aria-invalid="true"' not in bids
    assert not Round.objects.filter(game=game).exists()


def test_a_recent_table_starts_again_with_its_players_and_options(client):
    old = game_create(
        record={"game": "roller_derby", "players": NAMES, "options": {"deals": 8}},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    client.get(reverse("scoring:table", args=[old.table_token]))  # this phone was there
    answer = client.post(reverse("scoring:game_new"), {"again": old.table_token})
    assert answer.status_code == 302
    new = Game.objects.exclude(pk=old.pk).get()
    assert answer["Location"].startswith(reverse("scoring:table", args=[new.table_token]))
    assert list(new.seats.order_by("number").values_list("name", flat=True)) == NAMES
    assert (new.options["deals"], new.confirmation, new.first_dealer) == (
        8,
        Confirmation.OTHER_SIDE,
        (old.first_dealer + 1) % 4,
    )


def test_a_table_this_phone_never_saw_is_not_started_again(client):
    old = game_create(record={"game": "roolz", "players": NAMES}).game
    answer = client.post(reverse("scoring:game_new"), {"again": old.table_token})
    assert answer.status_code == 200
    assert "is not among this phone" in answer.content.decode()
    assert Game.objects.count() == 1


def test_the_history_shows_a_deal_as_it_was_entered_per_team_or_per_player(client):
    """A deal entered per team is shown with its team tricks and its Sluff that took a
    trick; one recorded per player with its tricks per player: nothing invented."""
    game = game_create(
        record={
            "game": "rook_sluff",
            "players": SLUFF,
            "rounds": [
                {"bids": [3, 2, 0, 2, 3, 1], "tricks": [3, 3, 2, 2, 2, 2]},
                {"bids": [3, 2, 0, 2, 3, 1], "team_tricks": {"A": 7, "B": 7}, "failed_sluffs": [2]},
            ],
        }
    ).game
    page = client.get(reverse("scoring:history", args=[game.table_token])).content.decode()
    assert "Ann 3, Ben 3, Cat 2, Dan 2, Eve 2, Fay 2" in page  # deal 1, per player
    assert "A 7, B 7" in page and "Sluffs that took a trick" in page  # deal 2, per team
    assert "Cat&#x27;s Sluff failed (2 tricks)" in page
    assert "Cat&#x27;s Sluff failed (took a trick)" in page
