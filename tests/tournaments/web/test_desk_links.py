"""The desk's players' links page: every link and its code, searchable, reissued with a
confirm step, the check-in-by-pass box and "check in these"; the director's alone."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.club import services as club
from tournaments.events import services
from tournaments.models import Entrant, EventLog

pytestmark = pytest.mark.django_db

SITE = "https://scores.example.org"


@pytest.fixture(autouse=True)
def site(settings):
    settings.TABLESCORE_BASE_URL = SITE


def links_url(event) -> str:
    return reverse("tournaments:desk_links", args=[event.pk])


def test_the_desk_leads_to_the_links_page(desk, event):
    page = desk.get(reverse("tournaments:desk_event", args=[event.pk])).content.decode()
    assert links_url(event) in page


def test_every_player_has_their_link_and_its_code(desk, event):
    answer = desk.get(links_url(event))
    assert answer.status_code == 200
    page = answer.content.decode()
    for entrant in event.entrants.all():
        assert f'href="{SITE}/me/{entrant.private_token}/"' in page
        assert f"scores.example.org/me/{entrant.private_token}/" in page
        assert f"QR code of {entrant.name}'s link" in page
    assert page.count("<svg") >= event.entrants.count()
    # This page alone may use the camera, to scan passes.
    assert "camera=(self)" in answer["Permissions-Policy"]
    assert "microphone=()" in answer["Permissions-Policy"]  # the rest as the site says
    assert "script-src 'self'" in answer["Content-Security-Policy"]
    assert (
        "camera=()"
        in desk.get(reverse("tournaments:desk_event", args=[event.pk]))["Permissions-Policy"]
    )


def test_the_links_are_searchable_like_the_desks_list(desk, event):
    page = desk.get(links_url(event), {"q": "ann", "part": "links"}, HTTP_HX_REQUEST="true")
    html = page.content.decode()
    ann = event.entrants.get(name="Ann")
    ben = event.entrants.get(name="Ben")
    assert ann.private_token in html and ben.private_token not in html
    assert "<html" not in html  # the partial alone
    assert "1 player matches" in html


def test_reissue_needs_its_confirm_step(desk, event, director):
    ann = event.entrants.get(name="Ann")
    url = reverse("tournaments:entrant_link_reissue", args=[event.pk, ann.pk])
    page = desk.get(links_url(event)).content.decode()
    assert f'action="{url}"' in page and "Revoke and give a new link" in page
    answer = desk.post(url, HTTP_HX_REQUEST="true")
    assert "confirm the new link first" in answer.content.decode()
    assert Entrant.objects.get(pk=ann.pk).private_token == ann.private_token


def test_reissue_shows_the_new_link_and_logs_it(desk, event, director):
    ann = event.entrants.get(name="Ann")
    url = reverse("tournaments:entrant_link_reissue", args=[event.pk, ann.pk])
    answer = desk.post(url, {"confirm": "1"})
    assert answer.status_code == 302
    page = desk.get(answer["Location"]).content.decode()
    new = Entrant.objects.get(pk=ann.pk).private_token
    assert new != ann.private_token
    assert new in page and ann.private_token not in page
    assert "Ann has a new link" in page
    assert EventLog.objects.filter(event=event, action="entrant_link_reissue").count() == 1
    log = desk.get(reverse("tournaments:desk_log", args=[event.pk])).content.decode()
    assert "Player&#x27;s link reissued" in log or "Player's link reissued" in log


def check_in(desk, event, text: str) -> str:
    url = reverse("tournaments:check_in_by_pass", args=[event.pk])
    answer = desk.post(url, {"pass": text}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_pass_box_checks_in_and_says_who(desk, event):
    ann = event.entrants.get(name="Ann")
    page = desk.get(links_url(event)).content.decode()
    assert 'name="pass"' in page
    html = check_in(desk, event, f"{SITE}/me/{ann.private_token}/")
    assert "Ann is checked in." in html
    assert 'hx-swap-oob="true"' in html and f'id="link-{ann.pk}"' in html  # the row follows
    assert Entrant.objects.get(pk=ann.pk).checked_in
    assert "Ann was already checked in." in check_in(desk, event, ann.private_token)


def test_the_pass_box_refuses_by_a_clear_message(desk, event, director):
    other = services.event_create(owner=director, name="Another night", game="roolz")
    stranger = services.entrant_add(event=other, name="Zed", user=director)
    ann = event.entrants.get(name="Ann")
    old = ann.private_token
    services.entrant_link_reissue(event=event, entrant=ann, user=director)
    cases = {
        f"{SITE}/me/{stranger.private_token}/": "This pass is for another event, not this one.",
        f"{SITE}/me/{old}/": "This pass was revoked",
        "Ann": "That is not a player&#x27;s link or pass code",
    }
    for text, message in cases.items():
        html = check_in(desk, event, text)
        assert message in html, text
        assert 'role="alert"' in html
    assert not Entrant.objects.filter(checked_in=True).exists()


def test_the_pass_box_without_script_answers_the_whole_page(desk, event):
    ann = event.entrants.get(name="Ann")
    url = reverse("tournaments:check_in_by_pass", args=[event.pk])
    page = desk.post(url, {"pass": ann.private_token}).content.decode()
    assert "<html" in page and "Ann is checked in." in page


def test_check_in_these_ticked(desk, event):
    ids = [str(event.entrants.get(name=n).pk) for n in ("Ann", "Ben")]
    url = reverse("tournaments:check_in_these", args=[event.pk])
    html = desk.post(url, {"entrant": ids}, HTTP_HX_REQUEST="true").content.decode()
    assert "2 players checked in." in html
    assert set(Entrant.objects.filter(checked_in=True).values_list("name", flat=True)) == {
        "Ann",
        "Ben",
    }
    html = desk.post(url, {}, HTTP_HX_REQUEST="true").content.decode()
    assert "Tick the players to check in." in html


def test_the_links_and_passes_are_the_directors_alone(client, event, other_director):
    ann = event.entrants.get(name="Ann")
    gets = [links_url(event)]
    posts = [
        reverse("tournaments:check_in_by_pass", args=[event.pk]),
        reverse("tournaments:check_in_these", args=[event.pk]),
        reverse("tournaments:passes_print", args=[event.pk]),
        reverse("tournaments:entrant_link_reissue", args=[event.pk, ann.pk]),
    ]
    data = {"pass": ann.private_token, "entrant": [ann.pk], "confirm": "1"}
    for url in gets:
        assert client.get(url).status_code == 302  # to the login page
    for url in posts:
        assert client.post(url, data).status_code == 302
    player = get_user_model().objects.create_user("player", password="pw")
    client.force_login(player)  # an account, but no director
    for url in gets:
        assert client.get(url).status_code == 403
    for url in posts:
        assert client.post(url, data).status_code == 403
    client.force_login(other_director)  # a director, not of this event
    for url in gets:
        assert client.get(url).status_code == 404
    for url in posts:
        assert client.post(url, data).status_code == 404
    assert Entrant.objects.get(pk=ann.pk).private_token == ann.private_token
    assert not Entrant.objects.filter(checked_in=True).exists()
    for url in (
        reverse("club:roster_links"),
        reverse("club:roster_passes"),
    ):
        client.logout()
        assert client.get(url).status_code in (302, 405)
        client.force_login(player)
        assert client.get(url).status_code in (403, 405)


def test_the_club_desk_shows_each_roster_players_link(desk, event, director):
    club.club_night_set(event=event, rated=False, user=director)
    roster = club.roster_for(owner=director)
    assert reverse("club:roster_links") in desk.get(reverse("club:club")).content.decode()
    page = desk.get(reverse("club:roster_links")).content.decode()
    for player in roster.players.all():
        assert f'href="{SITE}/me/{player.private_token}/"' in page
    ann = roster.players.get(name="Ann")
    url = reverse("club:player_link_reissue", args=[ann.pk])
    assert desk.post(url, {"confirm": "1"}).status_code == 302
    ann_now = roster.players.get(name="Ann")
    assert ann_now.private_token != ann.private_token
    page = desk.get(reverse("club:roster_links"), {"q": "an"}).content.decode()
    assert ann_now.private_token in page and ann.private_token not in page
    assert len(re.findall(r"/me/[-\w]+/", page)) >= 1


def test_another_director_cannot_reissue_a_roster_link(
    client, desk, event, director, other_director
):
    club.club_night_set(event=event, rated=False, user=director)
    ann = club.roster_for(owner=director).players.get(name="Ann")
    client.force_login(other_director)
    url = reverse("club:player_link_reissue", args=[ann.pk])
    assert client.post(url, {"confirm": "1"}).status_code == 404
    ann.refresh_from_db()
    assert (
        ann.private_token == club.roster_for(owner=director).players.get(name="Ann").private_token
    )


def test_a_scorer_sees_no_players_link_and_a_co_director_does(client, event, director):
    for name, role in (("scorer", "scorer"), ("co", "co_director")):
        get_user_model().objects.create_user(name, password="pw", is_staff=True)
        services.event_staff_add(event=event, username=name, role=role, user=director)
    ann = event.entrants.get(name="Ann")
    client.force_login(get_user_model().objects.get(username="scorer"))
    desk = client.get(reverse("tournaments:desk_event", args=[event.pk]))
    assert desk.status_code == 200 and links_url(event) not in desk.content.decode()
    assert client.get(links_url(event)).status_code == 404
    url = reverse("tournaments:check_in_by_pass", args=[event.pk])
    assert client.post(url, {"pass": ann.private_token}).status_code == 404
    client.force_login(get_user_model().objects.get(username="co"))
    assert ann.private_token in client.get(links_url(event)).content.decode()
    assert "Ann is checked in." in client.post(url, {"pass": ann.private_token}).content.decode()


def test_a_big_event_shows_its_links_a_page_at_a_time(desk, director):
    event = services.event_create(owner=director, name="Big night", game="roolz")
    names = [f"Player {n:02d}" for n in range(1, 36)]
    services.entrants_import_csv(event=event, text="\n".join(names), user=director)
    first = desk.get(links_url(event)).content.decode()
    second = desk.get(links_url(event), {"page": "2"}).content.decode()
    assert len(re.findall(r'class="link-item', first)) == 30 and "page 1 of 2" in first
    assert len(re.findall(r'class="link-item', second)) == 5 and "page 2 of 2" in second
    for entrant in event.entrants.all():
        assert (entrant.private_token in first) != (entrant.private_token in second)
