"""A player's own page (/me/<token>/): only their own things, a clear 404 for a link that
is nobody's, the poll's contract, check-in and drops from it, their table opened holding
their seat; and the desk's card about players' links."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import RoundEvent, Seat
from tests.tournaments.web.conftest import NAMES, publish_next
from tournaments.events import me_selectors, services
from tournaments.models import ClubNight, Entrant, EntrantPlayer, Event, Player, Roster
from tournaments.models.tokens import new_private_token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    """Wrong links are counted per address: each test starts with none counted."""
    cache.clear()
    yield
    cache.clear()


def me_url(entrant: Entrant) -> str:
    return reverse("tournaments:me", args=[entrant.private_token])


def ann(event: Event) -> Entrant:
    return event.entrants.get(name="Ann")


def test_the_page_shows_the_player_and_no_other_players_link(client, event):
    page = client.get(me_url(ann(event)))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ann" in text and event.name in text
    for other in event.entrants.exclude(name="Ann"):
        assert other.private_token not in text
    assert page["Cache-Control"].startswith("max-age=0") or "no-cache" in page["Cache-Control"]


@pytest.mark.parametrize("token", ["nobody", "x" * 200, "a.b", "--"])
def test_an_unknown_link_is_a_clear_404(client, event, token):
    page = client.get(f"/me/{token}/")
    assert page.status_code == 404
    assert "This link is not known" in page.content.decode()
    for action in ("check-in", "drop", "table"):
        assert client.post(f"/me/{token}/{action}/").status_code == 404


def test_a_reissued_link_is_refused(client, event):
    old = ann(event).private_token
    Entrant.objects.filter(name="Ann").update(private_token=new_private_token())
    assert client.get(f"/me/{old}/").status_code == 404
    assert client.post(f"/me/{old}/check-in/", {"checked_in": "1"}).status_code == 404
    assert client.get(me_url(ann(event))).status_code == 200


def test_a_poll_answers_204_until_what_it_shows_changes(client, event, director):
    url = me_url(ann(event))
    page = client.get(url)
    shown = re.search(r'\?rev=([^"]+)"', page.content.decode()).group(1)
    polled = client.get(url, {"rev": shown}, HTTP_HX_REQUEST="true")
    assert polled.status_code == 204
    publish_next(event, director)
    polled = client.get(url, {"rev": shown}, HTTP_HX_REQUEST="true")
    assert polled.status_code == 200
    assert "data-my-seat" in polled.content.decode()
    assert 'id="live"' in polled.content.decode()


def test_a_player_checks_in_from_their_page_while_check_in_is_open(client, event, director):
    url = reverse("tournaments:me_check_in", args=[ann(event).private_token])
    refused = client.post(url, {"checked_in": "1"})
    assert refused.status_code == 200
    assert "Check-in is not open" in refused.content.decode()
    assert not ann(event).checked_in
    services.event_self_service_set(event=event, self_check_in="open", user=director)
    done = client.post(url, {"checked_in": "1"}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and "You are checked in" in done.content.decode()
    assert ann(event).checked_in
    client.post(url, {"checked_in": "0"}, HTTP_HX_REQUEST="true")
    assert not ann(event).checked_in


def test_a_player_asks_to_drop_and_the_desk_agrees(client, desk, event):
    url = reverse("tournaments:me_drop", args=[ann(event).private_token])
    client.post(url)
    assert ann(event).drop_asked_at is not None
    card = desk.get(reverse("tournaments:desk_event", args=[event.pk])).content.decode()
    assert f'data-drop-asked="{ann(event).pk}"' in card
    answer = desk.post(
        reverse("tournaments:self_drop_answer", args=[event.pk, ann(event).pk]),
        {"agree": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200 and "players-changed" in answer["HX-Trigger"]
    assert ann(event).dropped
    assert "You have dropped out" in client.get(me_url(ann(event))).content.decode()


def test_the_desk_sets_check_in_refusing_bad_times_by_field(desk, event):
    url = reverse("tournaments:self_service_set", args=[event.pk])
    bad = desk.post(
        url,
        {"self_check_in": "window", "check_in_opens_at": "tomorrow", "check_in_closes_at": ""},
        HTTP_HX_REQUEST="true",
    )
    assert bad.status_code == 200
    assert "Give the opening time" in bad.content.decode()
    later = desk.post(
        url,
        {
            "self_check_in": "window",
            "check_in_opens_at": "2030-01-01T20:00",
            "check_in_closes_at": "2030-01-01T19:00",
        },
        HTTP_HX_REQUEST="true",
    )
    assert "Check-in closes after it opens" in later.content.decode()
    desk.post(url, {"self_check_in": "open", "self_drop": "now"}, HTTP_HX_REQUEST="true")
    event.refresh_from_db()
    assert (event.self_check_in, event.self_drop) == ("open", "now")


def test_the_desk_card_polls_with_its_key(desk, client, event, director):
    services.event_self_service_set(event=event, self_check_in="open", user=director)
    event.refresh_from_db()
    live = reverse("tournaments:self_service_live", args=[event.pk])
    key = me_selectors.desk_self_service(event=event).key
    assert desk.get(live, {"key": key}, HTTP_HX_REQUEST="true").status_code == 204
    client.post(reverse("tournaments:me_check_in", args=[ann(event).private_token]))
    changed = desk.get(live, {"key": key}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    assert "Ann checked in" in changed.content.decode()
    assert "players-changed" in changed["HX-Trigger"]


def test_the_desks_own_change_redraws_the_card_but_not_the_list_under_its_form(
    desk, event, director
):
    """A player added at the desk moves the card's counts; the list of players, where the
    director may be typing the next name or reading a refusal, is left as it is."""
    live = reverse("tournaments:self_service_live", args=[event.pk])
    shown = me_selectors.desk_self_service(event=event)
    query = {"key": shown.key, "players": shown.players_key}
    services.entrant_add(event=event, name="Zoë", user=director)
    changed = desk.get(live, query, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    assert "HX-Trigger" not in changed


def test_another_director_sees_nothing_of_the_card(client, other_director, event):
    client.force_login(other_director)
    live = reverse("tournaments:self_service_live", args=[event.pk])
    assert client.get(live, HTTP_HX_REQUEST="true").status_code == 404
    assert (
        client.post(
            reverse("tournaments:self_service_set", args=[event.pk]), {"self_check_in": "open"}
        ).status_code
        == 404
    )


def test_opening_the_table_holds_the_seat_and_names_the_player(client, event, director):
    publish_next(event, director)
    entrant = ann(event)
    seat = me_selectors.my_seat(event, entrant)
    game = me_selectors.table_game(seat.game_id)
    opened = client.post(reverse("tournaments:me_table", args=[entrant.private_token]))
    assert opened.status_code == 302 and opened["Location"] == game.get_absolute_url()
    held = Seat.objects.get(game=game, number=seat.seat_index)
    assert held.held_by_device == client.cookies["tablescore_device"].value
    assert RoundEvent.objects.get(game=game, action="hold").person == "Ann"
    # Another phone that says it is Ann is refused; Ann's own phone enters in her name.
    stranger = Client()
    stranger.post(reverse("scoring:table_seat", args=[game.table_token]), {"seat": seat.seat_index})
    assert Seat.objects.get(pk=held.pk).held_by_device == held.held_by_device


def test_a_stranger_with_one_link_sees_nothing_of_another(client, event, director):
    publish_next(event, director)
    page = client.get(me_url(ann(event))).content.decode()
    for name in NAMES[1:]:
        entrant = event.entrants.get(name=name)
        assert entrant.private_token not in page
        assert f"/e/{event.public_token}/players/{entrant.pk}/" not in page
    assert "/t/" not in page  # no table's entry link either: the table opens by a form


def test_guessing_links_is_counted_with_wrong_table_links(client, event, settings):
    settings.TABLESCORE_RATES = {"games": None, "print_jobs": None, "wrong_tokens": "3/h"}
    for guess in ("aaaa", "bbbb", "cccc"):
        assert client.get(f"/me/{guess}/").status_code == 404
    refused = client.get("/me/dddd/")
    assert refused.status_code == 429 and refused["Retry-After"]
    # The same count as the API's; the player's own link still opens.
    assert client.get("/api/me", HTTP_AUTHORIZATION="Bearer eeee").status_code == 429
    assert client.get(me_url(ann(event))).status_code == 200


def test_the_desk_log_names_the_player_who_acted_from_their_link(client, desk, event, director):
    services.event_self_service_set(event=event, self_check_in="open", user=director)
    client.post(reverse("tournaments:me_check_in", args=[ann(event).private_token]))
    log = desk.get(reverse("tournaments:desk_log", args=[event.pk])).content.decode()
    assert "Check-in from their own link" in log
    assert "Ann (own link)" in log


def test_a_poll_that_finds_nothing_new_reads_little(client, event, director):
    publish_next(event, director)
    url = me_url(ann(event))
    shown = re.search(r'\?rev=([^"]+)"', client.get(url).content.decode()).group(1)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, {"rev": shown}, HTTP_HX_REQUEST="true").status_code == 204
    # the link's player with its event, their tables' key; the standings' version is kept
    assert len(queries) <= 3, [q["sql"] for q in queries]  # 2 measured


def test_a_roster_players_link_says_kindly_when_they_play_no_night(client, event, director):
    roster = Roster.objects.create(owner=director)
    zoe = Player.objects.create(roster=roster, name="Zoë", folded="zoe")
    url = reverse("tournaments:me", args=[zoe.private_token])
    assert "No night is being played for you" in client.get(url).content.decode()
    ClubNight.objects.create(event=event, roster=roster)
    assert "You are not playing in Friday Roolz" in client.get(url).content.decode()
    EntrantPlayer.objects.create(entrant=ann(event), player=zoe)
    page = client.get(url).content.decode()
    assert "data-me-name>Zoë<" in page and "Friday Roolz" in page


def test_the_desks_announcements_show_on_the_players_own_page_at_the_next_poll(
    client, event, director
):
    url = me_url(ann(event))
    shown = re.search(r'\?rev=([^"]+)"', client.get(url).content.decode()).group(1)
    made = services.announcement_add(
        event=event, text="Table 12 moved to the back room", user=director
    )
    polled = client.get(url, {"rev": shown}, HTTP_HX_REQUEST="true")
    assert polled.status_code == 200
    assert "Table 12 moved to the back room" in polled.content.decode()
    shown = re.search(r'\?rev=([^"]+)"', polled.content.decode()).group(1)
    services.announcement_remove(event=event, announcement_id=made.pk, user=director)
    polled = client.get(url, {"rev": shown}, HTTP_HX_REQUEST="true")
    assert polled.status_code == 200
    assert "Table 12 moved" not in polled.content.decode()
