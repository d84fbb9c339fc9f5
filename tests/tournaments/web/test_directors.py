"""The desk checks its director at every request: staff, active, and director of the event."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.web.test_desk import desk_urls, url
from tournaments.events import services
from tournaments.events.directors import directed_events, may_direct
from tournaments.models import Event, EventLog

pytestmark = pytest.mark.django_db


def changes(event: Event) -> int:
    return EventLog.objects.filter(event=event).count()


def test_a_director_loses_the_desk_at_the_next_request_when_staff_is_taken_away(
    desk, director, event
):
    assert desk.get(url("desk_event", event.pk)).status_code == 200
    director.is_staff = False
    director.save(update_fields=["is_staff"])
    before = changes(event)
    for method, address in [("get", url("desk")), ("get", url("event_new")), *desk_urls(event)]:
        assert getattr(desk, method)(address).status_code == 403, address
    # Creating an event is refused too, and nothing was written on the way.
    form = {"name": "Sneaky", "game": "rummoli", "format": "mixer", "rounds_planned": "3"}
    assert desk.post(url("event_new"), form).status_code == 403
    assert not Event.objects.filter(name="Sneaky").exists()
    assert changes(event) == before
    assert not may_direct(director, event)
    assert list(directed_events(director)) == []


def test_an_inactive_director_is_signed_out_at_the_next_request(desk, director, event):
    director.is_active = False
    director.save(update_fields=["is_active"])
    before = changes(event)
    for method, address in desk_urls(event):
        response = getattr(desk, method)(address)
        assert response.status_code == 302, address
        assert response["Location"].startswith(reverse("admin:login")), address
    assert changes(event) == before


def test_a_staff_user_who_is_not_a_director_of_the_event_finds_nothing(client, event):
    colleague = get_user_model().objects.create_user("colleague", password="pw", is_staff=True)
    client.force_login(colleague)
    services.tournament_round_generate(event=event)
    before = changes(event)
    for method, address in desk_urls(event):
        assert getattr(client, method)(address).status_code == 404, address
    assert changes(event) == before
    assert not may_direct(colleague, event)
    # Their own desk opens, without this event.
    page = client.get(url("desk"))
    assert page.status_code == 200
    assert b"Friday Roolz" not in page.content


def test_a_player_account_without_staff_never_reaches_the_desk(client, event):
    player = get_user_model().objects.create_user("player", password="pw")
    client.force_login(player)
    assert client.get(url("desk")).status_code == 403
    assert client.get(url("desk_event", event.pk)).status_code == 403


def sign_in(client, username: str) -> None:
    """Through the login page, as a director signs in."""
    answer = client.post(reverse("admin:login"), {"username": username, "password": "pw"})
    assert answer.status_code == 302


def test_a_director_session_lasts_a_working_day(client, director):
    sign_in(client, "director")
    assert client.session.get_expiry_age() == 12 * 3600


def test_the_director_session_length_is_a_setting(client, director, settings):
    settings.DIRECTOR_SESSION_HOURS = 2
    sign_in(client, "director")
    assert client.session.get_expiry_age() == 2 * 3600


def test_a_player_session_keeps_its_season(client, settings):
    client.force_login(get_user_model().objects.create_user("player", password="pw"))
    assert client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE


def test_the_refusal_says_why_on_a_page(client, event):
    client.force_login(get_user_model().objects.create_user("player", password="pw"))
    page = client.get(url("desk_event", event.pk))
    assert page.status_code == 403
    assert "may not use the director's desk" in page.content.decode()
