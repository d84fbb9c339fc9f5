"""The table-side views: whole pages without htmx, named partials with it."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring.models import ChangeRequest, Confirmation, Game, Round, RoundEvent
from scoring.selectors import game_score
from scoring.services import Actor, game_create, round_confirm, round_record
from scoring.web.phone import GAMES_KEY, SEATS_KEY
from tests.games import GAMES, sample_record

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def make_game(kind="roolz", players=NAMES, options=None, rounds=(), confirmation="off"):
    game = game_create(
        record={"game": kind, "players": list(players), "options": options or {}},
        confirmation=confirmation,
    ).game
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    game.refresh_from_db()
    return game


def url(name, game, *args):
    return reverse(f"scoring:{name}", args=[game.table_token, *args])


ROUND_1 = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}
FORM_1 = {"number": "1", "key": "k1", "bidder": "0", "bid": "200", "won-A": "190"}


def is_page(response) -> bool:
    return b"<!doctype html>" in response.content


# --------------------------------------------------------------------------- the table


def test_table_page_is_a_whole_page_with_every_part(client):
    game = make_game(rounds=[ROUND_1])
    response = client.get(url("table", game))
    assert response.status_code == 200
    assert is_page(response)
    html = response.content.decode()
    for part in ('id="identity"', 'id="live"', 'id="entry"', 'id="recent"', "<svg"):
        assert part in html
    assert "Deal 2" in html
    assert 'name="key"' in html
    assert "tablescore_device" in response.cookies
    assert client.session[GAMES_KEY] == [game.table_token]


def test_table_page_with_htmx_answers_partials(client):
    game = make_game()
    response = client.get(url("table", game), headers=HX)
    assert response.status_code == 200
    assert not is_page(response)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="live"')
    assert 'id="entry" class="entry-region" hx-swap-oob="true"' in html


def test_unknown_table_is_404(client):
    assert client.get("/t/nope/").status_code == 404
    assert client.get("/t/nope/live/?rev=1", headers=HX).status_code == 404


def test_live_answers_204_while_nothing_changed(client):
    game = make_game()
    response = client.get(url("table_live", game) + f"?rev={game.revision}", headers=HX)
    assert response.status_code == 204
    assert response.content == b""


def test_live_answers_the_scoreboard_after_a_change(client):
    game = make_game()
    old = game.revision
    round_record(game=game, number=1, entry=ROUND_1, actor=Actor(seat=1))
    response = client.get(url("table_live", game) + f"?rev={old}", headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="live"' in html
    assert 'id="recent" class="card recent" hx-swap-oob="true"' in html
    assert f'data-revision="{old + 1}"' in html
    assert "table-changed" in json.loads(response.headers["HX-Trigger"])


def test_live_without_htmx_goes_to_the_table(client):
    game = make_game()
    response = client.get(url("table_live", game) + "?rev=0")
    assert response.status_code == 302
    assert response.url == url("table", game)


def test_entry_form_partial_and_without_htmx(client):
    game = make_game()
    response = client.get(url("table_entry", game), headers=HX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="entry"')
    assert client.get(url("table_entry", game)).status_code == 302


# --------------------------------------------------------------------------- entering rounds


def test_preview_scores_the_round_without_saving(client):
    game = make_game()
    response = client.post(url("table_entry", game), {**FORM_1, "action": "preview"}, headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Team A \u2212200" in html
    assert "Team B +110" in html
    assert not Round.objects.exists()


def test_preview_of_an_incomplete_form_says_what_is_missing(client):
    game = make_game()
    response = client.post(
        url("table_entry", game), {"number": "1", "action": "preview"}, headers=HX
    )
    html = response.content.decode()
    assert "Not complete yet" in html
    assert "Choose the bidder." in html


def test_preview_without_htmx_is_a_page(client):
    game = make_game()
    response = client.post(url("table_entry", game), {**FORM_1, "action": "preview"})
    assert response.status_code == 200
    assert is_page(response)
    assert "Team B +110" in response.content.decode()


def test_saving_with_htmx_answers_a_fresh_form_and_the_scoreboard(client):
    game = make_game()
    response = client.post(url("table_entry", game), FORM_1, headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Deal 1 saved." in html
    assert "Deal 2" in html
    assert 'id="live" class="live" hx-swap-oob="true"' in html
    round_ = Round.objects.get(game=game)
    assert round_.entry == ROUND_1
    assert round_.entered_by_device == client.cookies["tablescore_device"].value


def test_saving_without_htmx_redirects_to_the_table(client):
    game = make_game()
    response = client.post(url("table_entry", game), FORM_1)
    assert response.status_code == 302
    assert response.url == url("table", game)
    assert Round.objects.filter(game=game).count() == 1


def test_a_retry_with_the_same_key_stores_one_round(client):
    game = make_game()
    first = client.post(url("table_entry", game), FORM_1, headers=HX)
    again = client.post(url("table_entry", game), FORM_1, headers=HX)
    assert first.status_code == again.status_code == 200
    assert "Deal 1 saved." in again.content.decode()
    assert Round.objects.filter(game=game).count() == 1
    assert RoundEvent.objects.filter(game=game, action=RoundEvent.Action.RECORD).count() == 1


def test_an_invalid_round_comes_back_with_the_message_and_what_was_typed(client):
    game = make_game()
    data = {**FORM_1, "won-A": "193"}
    response = client.post(url("table_entry", game), data, headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Points won by team A (193) are not a multiple of 5" in html
    assert 'value="193"' in html
    assert 'name="key" value="k1"' in html  # the same form, the same key
    assert not Round.objects.exists()


def test_an_invalid_round_without_htmx_is_the_whole_page(client):
    game = make_game()
    response = client.post(url("table_entry", game), {"number": "1", "bid": "201"})
    assert response.status_code == 200
    assert is_page(response)
    html = response.content.decode()
    assert "Choose the bidder." in html
    assert 'value="201"' in html


def test_a_second_phone_sending_the_same_round_sees_what_was_recorded(client):
    game = make_game()
    round_record(game=game, number=1, entry=ROUND_1, actor=Actor(seat=2))
    response = client.post(
        url("table_entry", game), {**FORM_1, "key": "k2", "won-A": "220"}, headers=HX
    )
    html = response.content.decode()
    assert "Deal 1 was already recorded by Cat." in html
    assert "Ann bid 200, set: A 190, B 110" in html
    assert 'value="220"' in html
    assert Round.objects.filter(game=game).count() == 1


def test_a_misdeal_is_its_own_action(client):
    game = make_game()
    response = client.post(
        url("table_entry", game), {"number": "1", "key": "m", "action": "misdeal"}, headers=HX
    )
    assert "Misdeal recorded." in response.content.decode()
    assert Round.objects.get(game=game).entry == {"misdeal": True}


def test_saving_needs_a_seat_when_rounds_are_confirmed(client):
    game = make_game(confirmation=Confirmation.OTHER_SIDE)
    response = client.post(url("table_entry", game), FORM_1, headers=HX)
    assert "Say who is holding this phone" in response.content.decode()
    assert not Round.objects.exists()
    client.post(url("table_seat", game), {"seat": "0"}, headers=HX)
    response = client.post(url("table_entry", game), FORM_1, headers=HX)
    assert "A player of another side confirms it." in response.content.decode()
    round_ = Round.objects.get(game=game)
    assert round_.status == Round.Status.PENDING
    assert round_.entered_by_seat == 0


# --------------------------------------------------------------------------- identity, confirmation


def test_the_phone_remembers_its_seat_per_game(client):
    game = make_game()
    response = client.post(url("table_seat", game), {"seat": "2"}, headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="identity"')
    assert "This phone is" in html and "Cat" in html
    assert client.session[SEATS_KEY] == {str(game.pk): 2}
    response = client.post(url("table_seat", game), {"seat": ""})
    assert response.status_code == 302
    assert client.session[SEATS_KEY] == {}


def test_confirming_from_the_other_side(client):
    game = make_game(confirmation=Confirmation.OTHER_SIDE, rounds=[ROUND_1])
    page = client.get(url("table", game)).content.decode()
    assert "Waiting for confirmation" in page
    assert "Confirm as Ben" in page and "Confirm as Cat" not in page

    response = client.post(url("round_confirm", game, 1), {"seat": "2"}, headers=HX)
    assert "A player of another side confirms this round" in response.content.decode()
    assert Round.objects.get(game=game).status == Round.Status.PENDING

    response = client.post(url("round_confirm", game, 1), {"seat": "1"}, headers=HX)
    assert response.status_code == 200
    assert "Waiting for confirmation" not in response.content.decode()
    assert Round.objects.get(game=game).confirmed_by_seat == 1


def test_confirming_needs_to_know_who_confirms(client):
    game = make_game(confirmation=Confirmation.OTHER_SIDE, rounds=[ROUND_1])
    response = client.post(url("round_confirm", game, 1), {"seat": ""}, headers=HX)
    html = response.content.decode()
    assert "Say who is holding this phone (at the top) first" in html
    assert Round.objects.get(game=game).status == Round.Status.PENDING


def test_asking_the_other_side_needs_to_know_who_asks(client):
    game = make_game(confirmation=Confirmation.OTHER_SIDE, rounds=[ROUND_1])
    round_confirm(game=game, number=1, actor=Actor(seat=1))
    game.refresh_from_db()
    asked = {"number": "1", "revision": seen(game)}
    response = client.post(url("round_undo", game), asked, headers=HX)
    assert "Say who is holding this phone (at the top) first: another side agrees" in (
        response.content.decode()
    )
    assert not ChangeRequest.objects.filter(game=game).exists()
    client.post(url("table_seat", game), {"seat": "0"}, headers=HX)
    client.post(url("round_undo", game), asked, headers=HX)
    assert ChangeRequest.objects.get(game=game).asked_by_seat == 0
    assert Round.objects.filter(game=game).count() == 1  # asked, not undone


def test_confirming_without_htmx_redirects(client):
    game = make_game(confirmation=Confirmation.ANY_OTHER_SEAT, rounds=[ROUND_1])
    response = client.post(url("round_confirm", game, 1), {"seat": "3"})
    assert response.status_code == 302
    assert Round.objects.get(game=game).status == Round.Status.CONFIRMED


# --------------------------------------------------------------------------- history, fixes, ends


def test_history_shows_every_round_and_the_audit_trail(client):
    game = make_game(rounds=[ROUND_1, {"misdeal": True}])
    html = client.get(url("history", game)).content.decode()
    assert "Ann bid 200, set: A 190, B 110" in html
    assert "<dt>Points won</dt><dd>A 190, B 110</dd>" in html
    assert "<dt>Bidder</dt><dd>Ann</dd>" in html
    assert "Misdeal" in html
    assert "Audit trail" in html and "Game created" in html
    assert "Correct deal 1" in html
    assert html.count(">Undo<") == 1


def seen(game) -> str:
    """The game's revision as the page shows it (its forms send it back)."""
    return str(Game.objects.get(pk=game.pk).revision)


def test_correction_form_is_prefilled_and_saves(client):
    game = make_game(rounds=[ROUND_1])
    html = client.get(url("round_correct", game, 1)).content.decode()
    assert 'name="won-A" value="190"' in html
    assert 'name="bidder" value="0" checked' in html

    data = {"number": "1", "bidder": "0", "bid": "200", "won-A": "210", "revision": seen(game)}
    preview = client.post(url("round_correct", game, 1), {**data, "action": "preview"}, headers=HX)
    assert "Team A +210" in preview.content.decode()
    response = client.post(url("round_correct", game, 1), data, headers=HX)
    assert response.headers["HX-Redirect"].startswith(url("history", game))
    assert Round.objects.get(game=game).entry["won"] == {"A": 210, "B": 90}
    assert Round.objects.get(game=game).corrected


def test_a_correction_that_breaks_a_later_round_is_refused(client):
    normal = {"dice": [3, 4], "tricks": 7}
    team_b_all_or_nothing = {"dice": [3, 4], "all_or_nothing": True, "made": False}
    # Team B rolls in deals 1 and 3; all or nothing is once per team.
    game = make_game("roller_derby", rounds=[normal, normal, team_b_all_or_nothing])
    data = {"number": "1", "dice-0": "3", "dice-1": "4", "all_or_nothing": "yes", "made": "yes"}
    data["revision"] = seen(game)
    response = client.post(url("round_correct", game, 1), data, headers=HX)
    assert response.status_code == 200
    assert "would make deal 3 invalid" in response.content.decode()
    assert Round.objects.get(game=game, number=1).entry == normal


def test_correction_without_htmx(client):
    game = make_game(rounds=[ROUND_1])
    response = client.post(
        url("round_correct", game, 1),
        {"number": "1", "bidder": "1", "bid": "170", "won-B": "200", "revision": seen(game)},
    )
    assert response.status_code == 302
    assert Round.objects.get(game=game).entry["bidder"] == 1


def test_undo_the_last_round(client):
    game = make_game(rounds=[ROUND_1, ROUND_1])
    response = client.post(
        url("round_undo", game), {"number": "2", "revision": seen(game)}, headers=HX
    )
    assert response.headers["HX-Redirect"] == url("table", game)
    assert Round.objects.filter(game=game).count() == 1
    response = client.post(
        url("round_undo", game), {"number": "1", "next": "history", "revision": seen(game)}
    )
    assert response.url == url("history", game)
    assert not Round.objects.filter(game=game).exists()


def test_roller_derby_early_finish(client):
    rounds = [
        {"dice": [3, 4], "tricks": 6},
        {"dice": [3, 4], "all_or_nothing": True, "made": False},
        {"dice": [2, 2], "tricks": 4},
    ]
    game = make_game("roller_derby", rounds=rounds)
    html = client.get(url("table", game)).content.decode()
    assert "190 points apart" in html
    response = client.post(url("table_end", game), {"how": "early"}, headers=HX)
    assert "Team B wins (Ben &amp; Dan)." in response.content.decode()
    game.refresh_from_db()
    assert game.ending == {"ended_early": True}
    assert game.status == Game.Status.FINISHED


def test_rummoli_end_with_the_leftovers(client):
    hand = {"went_out": 1, "cards_left": [3, 0, 5, 2]}
    game = make_game("rummoli", rounds=[hand])
    assert (
        "Who takes the 32 chips left on the board?"
        in client.get(url("table", game)).content.decode()
    )
    response = client.post(url("table_end", game), {"how": "leftovers"}, headers=HX)
    assert "Choose who takes the chips" in response.content.decode()
    response = client.post(url("table_end", game), {"how": "leftovers", "leftovers_to": "3"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.ending == {"end": {"leftovers_to": 3}}


def test_rummoli_table_shows_the_board(client):
    game = make_game("rummoli", rounds=[{"went_out": 1, "cards_left": [3, 0, 5, 2]}])
    html = client.get(url("table", game)).content.decode()
    assert 'class="rboard"' in html
    assert "Ten of spades" in html
    assert "32 chips on the board" in html


# --------------------------------------------------------------------------- starting, my games


def test_start_page_and_its_refresh_partial(client):
    response = client.get(reverse("scoring:game_new"))
    assert response.status_code == 200
    assert is_page(response)
    response = client.post(
        reverse("scoring:game_new"), {"game": "rook_sluff", "refresh": "game"}, headers=HX
    )
    html = response.content.decode()
    assert not is_page(response)
    assert html.lstrip().startswith('<div id="setup"')
    assert "Sluff bonus" in html and "Default: 50." in html
    assert 'name="player-5"' in html and "Team B" in html


def test_start_refresh_without_htmx_is_the_page(client):
    response = client.post(reverse("scoring:game_new"), {"game": "roolz", "refresh": "game"})
    assert is_page(response)


def test_starting_a_game_goes_to_its_table(client):
    data = {
        "game": "roller_derby",
        "players": "4",
        "option-present": "1",
        "option-deals": "8",
        "option-early_finish_gap": "150",
        "option-joker_cost": "9",
        "confirmation": "any_other_seat",
        **{f"player-{seat}": name for seat, name in enumerate(NAMES)},
    }
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert response.url == url("table", game) + "?new=1"
    assert game.options["deals"] == 8
    assert game.confirmation == Confirmation.ANY_OTHER_SEAT
    assert list(game.seats.values_list("team", flat=True)) == ["A", "B", "A", "B"]
    assert client.session[GAMES_KEY] == [game.table_token]


def test_starting_a_game_with_mistakes_shows_them(client):
    data = {"game": "roolz", "players": "4", "option-present": "1", "option-target": "50"}
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "It must be at least 100" in html
    assert "Type the name of the player in seat 1." in html
    assert not Game.objects.exists()


def test_my_games_lists_this_devices_games_newest_first(client):
    first = make_game()
    second = make_game("rummoli", players=["Ann", "Ben"])
    other = make_game()
    client.get(url("table", first))
    client.get(url("table", second))
    html = client.get(reverse("scoring:my_games")).content.decode()
    assert html.index(second.table_token) < html.index(first.table_token)
    assert other.table_token not in html


@pytest.mark.parametrize("kind", GAMES)
def test_history_of_a_sample_game_of_each_kind(client, kind):
    record = sample_record(kind, rounds=8, seed=3)
    game = game_create(record=record).game
    response = client.get(url("history", game))
    assert response.status_code == 200
    assert response.content.decode().count('class="inputs small"') == len(record["rounds"])
    assert client.get(url("table", game)).status_code == 200


def test_rummoli_with_nobody_holding_chips_asks_who_takes_the_board(client):
    game = make_game(
        "rummoli",
        players=["Ann", "Ben"],
        options={"starting_chips": 9},
        rounds=[{"went_out": None, "cards_left": [3, 3]}],
    )
    html = client.get(url("table", game)).content.decode()
    assert "Nobody has chips left" in html
    assert 'name="key"' not in html  # no round form
    assert 'name="leftovers_to" value="1" disabled' not in html
    client.post(url("table_end", game), {"how": "leftovers", "leftovers_to": "1"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game_score(game).totals == [0, 18]


def test_seeing_a_table_again_leaves_the_session_alone(client):
    """A second look at a table (a reload, the service worker keeping its copy) must not
    write the session: written from a stale read, it would undo a seat chosen meanwhile."""
    game = make_game()
    assert client.get(url("table", game)).cookies.get("sessionid"), "the first look saves it"
    again = client.get(url("table", game))
    assert not again.cookies.get("sessionid")
