"""What the table pages say and offer: results, endings, wording, the start page."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from scoring.entry.fields import and_list
from scoring.games import kit_for
from scoring.models import Confirmation, Game, RoundEvent
from scoring.services import Actor, game_end, round_confirm, round_record
from scoring.web.presenters import seat_infos
from tests.games import GAMES
from tests.web.test_table_views import HX, ROUND_1, make_game, seen, url

pytestmark = pytest.mark.django_db

DERBY_ROUNDS = [
    {"dice": [3, 4], "tricks": 6},
    {"dice": [3, 4], "all_or_nothing": True, "made": False},
    {"dice": [2, 2], "tricks": 4},
]
RUMMOLI_HAND = {"went_out": 1, "cards_left": [3, 0, 5, 2]}


def ended_derby() -> Game:
    game = make_game("roller_derby", rounds=DERBY_ROUNDS)
    game_end(game=game, ending={"ended_early": True}, actor=Actor(seat=0))
    game.refresh_from_db()
    return game


def ended_rummoli() -> Game:
    game = make_game("rummoli", rounds=[RUMMOLI_HAND])
    game_end(game=game, ending={"end": {"leftovers_to": 3}}, actor=Actor(seat=0))
    game.refresh_from_db()
    return game


# --------------------------------------------------------------------------- the result


def test_the_result_waits_for_the_last_round_to_be_confirmed(client):
    game = make_game(options={"target": 300}, confirmation=Confirmation.ANY_OTHER_SEAT)
    slam = {"bidder": 1, "bid": 185, "won": {"A": 0, "B": 300}, "all_tricks": "B"}
    round_record(game=game, number=1, entry=slam, actor=Actor(seat=1))
    html = client.get(url("table", game)).content.decode()
    assert "Team B wins (Ben &amp; Dan) once deal 1 is confirmed." in html
    assert "Game over" not in html
    assert "is-winner" not in html

    round_confirm(game=game, number=1, actor=Actor(seat=0))
    html = client.get(url("table", game)).content.decode()
    assert "Game over" in html
    assert "Team B wins (Ben &amp; Dan)." in html
    assert "once round" not in html


def test_my_games_and_history_wait_for_confirmation_too(client):
    game = make_game(options={"target": 300}, confirmation=Confirmation.ANY_OTHER_SEAT)
    round_record(game=game, number=1, entry={"misdeal": True}, actor=Actor(seat=1))
    slam = {"bidder": 1, "bid": 185, "won": {"A": 0, "B": 300}, "all_tricks": "B"}
    round_record(game=game, number=2, entry=slam, actor=Actor(seat=1))
    client.get(url("table", game))
    expected = "Team B wins (Ben &amp; Dan) once deals 1 &amp; 2 are confirmed."
    assert expected in client.get(reverse("scoring:my_games")).content.decode()
    assert expected in client.get(url("history", game)).content.decode()


def test_totals_print_a_true_minus_sign(client):
    game = make_game(rounds=[ROUND_1])
    html = client.get(url("table", game)).content.decode()
    assert re.search(r"data-total>\N{MINUS SIGN}200<", html)
    assert not re.search(r">-\d", html)
    history = client.get(url("history", game)).content.decode()
    assert "<strong>\N{MINUS SIGN}200</strong>" in history
    assert "→ \N{MINUS SIGN}200" in history
    preview = client.post(
        url("table_entry", game),
        {"number": "2", "bidder": "0", "bid": "200", "won-A": "100", "action": "preview"},
        headers=HX,
    ).content.decode()
    assert "→ \N{MINUS SIGN}400" in preview


def test_three_names_read_as_a_list():
    assert and_list(["Ann"]) == "Ann"
    assert and_list(["Ann", "Cat"]) == "Ann & Cat"
    assert and_list(["Ann", "Cat", "Eve"]) == "Ann, Cat & Eve"


def test_a_team_of_three_is_named_with_commas(client):
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    game = make_game("rook_sluff", players=players)
    client.get(url("table", game))
    html = client.get(reverse("scoring:my_games")).content.decode()
    assert "Team A (Ann, Cat &amp; Eve)" in html
    assert "Ann &amp; Cat &amp; Eve" not in html


# --------------------------------------------------------------------------- endings


def test_an_early_finish_can_be_taken_back(client):
    game = ended_derby()
    html = client.get(url("table", game)).content.decode()
    assert "Reopen the game" in html
    assert "Undo deal" not in html
    response = client.post(
        url("table_end", game), {"how": "reopen", "revision": seen(game)}, headers=HX
    )
    assert response.headers["HX-Redirect"] == url("table", game)
    game.refresh_from_db()
    assert game.ending == {}
    assert game.status == Game.Status.IN_PROGRESS
    assert RoundEvent.objects.filter(game=game, action=RoundEvent.Action.REOPEN).count() == 1
    html = client.get(url("table", game)).content.decode()
    assert "Reopen the game" not in html
    assert "End the game now" in html
    assert "Deal 4" in html


def test_leftovers_can_be_taken_back_from_the_history(client):
    game = ended_rummoli()
    html = client.get(url("history", game)).content.decode()
    assert "Reopen the game" in html
    response = client.post(
        url("table_end", game), {"how": "reopen", "next": "history", "revision": seen(game)}
    )
    assert response.status_code == 302
    assert response.url == url("history", game)
    game.refresh_from_db()
    assert game.ending == {}
    html = client.get(url("history", game)).content.decode()
    assert "Reopen the game" not in html
    assert "leftovers were taken back" in html


def test_reopening_a_game_that_goes_on_shows_it_as_it_is(client):
    game = make_game("roller_derby", rounds=DERBY_ROUNDS)
    response = client.post(
        url("table_end", game), {"how": "reopen", "revision": seen(game)}, headers=HX
    )
    assert response.headers["HX-Redirect"] == url("table", game)
    response = client.post(url("table_end", game), {"how": "reopen", "revision": seen(game)})
    assert "This game was not ended early" in response.content.decode()


def test_the_rummoli_history_shows_the_leftovers_and_the_final_totals(client):
    game = ended_rummoli()
    html = client.get(url("history", game)).content.decode()
    row = re.search(r'<tr id="end" class="end-row">(.*?)</tr>', html, re.S).group(1)
    assert '<th scope="row">End</th>' in row
    # Hand 1 left 32 chips on the board; Dan takes them: 39 + 32.
    assert re.findall(r"<strong>([^<]*)</strong>", row) == ["38", "55", "36", "71"]
    assert "End: 32 chips to Dan" in html
    table = client.get(url("table", game)).content.decode()
    assert "<strong>End:</strong> 32 chips to Dan" in table


def test_an_early_finish_has_its_end_row(client):
    html = client.get(url("history", ended_derby())).content.decode()
    assert "End: ended early, before the final deal" in html


# --------------------------------------------------------------------------- wording and marks


def test_the_widow_buyer_message_reads_well():
    game = make_game("rummoli")
    form = kit_for("rummoli").entry_form(
        engine=game.engine,
        seats=seat_infos(game),
        options=game.options,
        context={"dealer": 0},
        data={"widow": "buy", "went_out": "1"},
    )
    assert form.clean() is None
    assert form.find("widow.buyer").errors == ["Choose who bought the widow."]
    assert form.find("widow.price").errors == ["Enter the price paid for the widow."]


def test_a_missing_sluff_bid_is_outlined(client):
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    game = make_game("rook_sluff", players=players)
    data = {"number": "1", "key": "s"}
    for seat, (bid, took) in enumerate([(3, 3), (2, 3), (0, 2), (2, 2), (3, 2), (None, 2)]):
        data[f"bids-{seat}"] = "" if bid is None else str(bid)
        data[f"tricks-{seat}"] = str(took)
    html = client.post(url("table_entry", game), data, headers=HX).content.decode()
    # The first problem is said in the Save bar, and outlined beside its field.
    bar = re.search(r'<p class="notice error first-problem"[^>]*>(.*?)</p>', html, re.S)
    assert bar is not None
    assert "Bids: enter a number for Fay." in bar.group(1)
    assert "Bids: enter a number for Fay." in html
    assert re.search(r'id="f-bids-5"[^>]*aria-invalid="true"', html, re.S)
    assert not re.search(r'id="f-bids-4"[^>]*aria-invalid', html, re.S)


def test_the_bid_box_has_no_placeholder_and_rummoli_speaks_of_choosing(client):
    html = client.get(url("table", make_game())).content.decode()
    assert re.search(r'<input type="number" id="f-bid"[^>]*>', html, re.S)
    assert "placeholder" not in re.search(r'<input type="number" id="f-bid"[^>]*>', html).group(0)
    html = client.get(url("table", make_game("rummoli"))).content.decode()
    assert "Tap a section" not in html
    assert "choose who laid its card" in html


def test_the_preview_and_the_misdeal_name_their_own_disabled_elements(client):
    html = client.get(url("table", make_game())).content.decode()
    assert re.search(r'id="preview"[^>]*hx-disabled-elt="unset"', html, re.S)
    assert re.search(r'class="misdeal"[^>]*hx-disabled-elt="this, previous \.save"', html, re.S)


def test_the_poll_is_not_inside_what_it_replaces(client):
    html = client.get(url("table", make_game())).content.decode()
    poll = re.search(r"<div hidden data-live-poll[^>]*>", html, re.S).group(0)
    assert 'hx-target="#live"' in poll
    live = re.search(r'<section id="live"[^>]*>', html).group(0)
    assert "hx-get" not in live


# --------------------------------------------------------------------------- starting


@pytest.mark.parametrize("kind", GAMES)
def test_the_home_page_starts_each_game(client, kind):
    home = client.get(reverse("home")).content.decode()
    link = reverse("scoring:game_new") + f"?game={kind}"
    assert f'href="{link}"' in home
    html = client.get(link).content.decode()
    assert f'name="game" value="{kind}" checked' in html
    assert 'name="player-0"' in html
    assert "Start the game" in html


def test_a_correction_without_a_known_seat_asks_who_makes_it(client):
    from scoring.services import Actor, round_record
    from tests.scoring.factories import new_game, roolz_round

    game = new_game(confirmation="other_side")
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=Actor(seat=0))
    url = f"/t/{game.table_token}/rounds/1/correct/"
    page = client.get(url).content.decode()
    assert "Who is making this correction?" in page
    fields = {"bidder": "0", "bid": "200", "won-A": "250", "won-B": "50", "action": "save"}
    fields["revision"] = seen(game)
    refused = client.post(url, fields)
    assert "say who is holding this phone before saving" in refused.content.decode().lower()
    assert game.rounds.get().entry == roolz_round(a=190)
    client.post(url, {**fields, "seat": "1"})
    round_ = game.rounds.get()
    assert (round_.entry["won"], round_.entered_by_seat, round_.status) == (
        {"A": 250, "B": 50},
        1,
        "pending",
    )


def test_confirming_a_round_changed_since_the_page_showed_it_is_refused(client):
    from scoring.services import Actor, round_correct, round_record
    from tests.scoring.factories import new_game, roolz_round

    game = new_game(confirmation="other_side")
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=Actor(seat=0))
    page = client.get(f"/t/{game.table_token}/").content.decode()
    assert 'name="seen"' in page
    round_correct(game=game, number=1, entry=roolz_round(a=250), actor=Actor(seat=0))
    stale = json.dumps(roolz_round(a=190), sort_keys=True)
    url = f"/t/{game.table_token}/rounds/1/confirm/"
    response = client.post(url, {"seat": "1", "seen": stale}, HTTP_HX_REQUEST="true")
    assert "changed since you looked" in response.content.decode()
    assert game.rounds.get().status == "pending"
    fresh = json.dumps(roolz_round(a=250), sort_keys=True)
    client.post(url, {"seat": "1", "seen": fresh}, HTTP_HX_REQUEST="true")
    assert game.rounds.get().status == "confirmed"
