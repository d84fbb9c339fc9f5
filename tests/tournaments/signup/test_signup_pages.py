"""The sign-up page and a person's status page, over HTTP: no login, refusals beside their
fields, the limit per address, the private link once in, contacts on no public page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.signup.conftest import open_signup
from tournaments.events import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def signup_url(event) -> str:
    return reverse("tournaments:signup", args=[event.public_token])


def post(client, event, name, contact="", **extra):
    return client.post(signup_url(event), {"name": name, "contact": contact}, **extra)


def test_the_page_says_sign_up_is_off_until_the_director_opens_it(client, event, director):
    page = client.get(signup_url(event)).content.decode()
    assert "Sign-up for this event is not open." in page
    assert 'name="name"' not in page
    answer = post(client, event, "Ann")
    assert answer.status_code == 200
    assert "not open" in answer.content.decode()
    assert not Registration.objects.exists()


def test_registering_shows_the_status_and_the_private_link_at_once(client, event, director):
    open_signup(event, director)
    answer = post(client, event, "Ann", "ann@example.org")
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    registration = Registration.objects.get()
    link = f"http://testserver/me/{registration.entrant.private_token}/"
    assert "You are in the event." in page
    assert f'href="{link}"' in page
    assert "Keep this link to yourself" in page
    assert "ann@example.org" not in page


def test_the_private_link_uses_the_sites_configured_address(client, event, director, settings):
    settings.TABLESCORE_BASE_URL = "https://scores.example.org"
    open_signup(event, director)
    page = client.get(post(client, event, "Ann")["Location"]).content.decode()
    token = Registration.objects.get().entrant.private_token
    assert f"https://scores.example.org/me/{token}/" in page


def test_a_waiting_person_sees_their_place_and_moves_up_when_someone_withdraws(
    client, event, director
):
    open_signup(event, director, cap=1)
    first = post(client, event, "Ann")["Location"]
    post(client, event, "Ben")
    third = post(client, event, "Cat")["Location"]
    page = client.get(third).content.decode()
    assert "On the waiting list" in page
    assert re.search(r'id="position">number 2<', page)
    assert "/me/" not in page
    assert (
        "1 of 1 places taken · 2 on the waiting list"
        in client.get(signup_url(event)).content.decode()
    )
    # Ann withdraws from her page: Ben is in, Cat is first on the list.
    assert client.post(first).status_code == 302
    assert "You withdrew" in client.get(first).content.decode()
    assert re.search(r'id="position">number 1<', client.get(third).content.decode())


def test_with_approval_the_person_waits_for_the_director(client, event, director):
    open_signup(event, director, approval=True)
    page = client.get(post(client, event, "Ann")["Location"]).content.decode()
    assert "Waiting for the director's approval." in page
    assert "/me/" not in page


@pytest.mark.parametrize(
    ("name", "contact", "field", "message"),
    [
        ("", "", "name", "The name is empty."),
        ("A" * 41, "", "name", "The name is at most 40 characters."),
        ("ann", "", "name", "Ann is already registered in this event."),
        ("Bob", "c" * 121, "contact", "The contact is at most 120 characters."),
    ],
)
def test_bad_input_is_shown_beside_its_field_and_nothing_is_kept(
    client, event, director, name, contact, field, message
):
    open_signup(event, director)
    post(client, event, "Ann")
    answer = post(client, event, name, contact)
    assert answer.status_code == 200
    page = answer.content.decode()
    assert f'<p class="error" id="{field}-error">{message}</p>' in page
    assert Registration.objects.count() == 1


def test_a_closed_sign_up_says_so(client, event, director):
    open_signup(event, director)
    services.signup_settings_set(
        event=event, open=False, cap=None, approval=False, closes_at=None, user=director
    )
    assert "not open" in post(client, event, "Ann").content.decode()


def test_sign_ups_are_limited_per_address_and_refusals_are_given_back(
    client, event, director, settings
):
    settings.TABLESCORE_RATES = {**settings.TABLESCORE_RATES, "signups": "2/h"}
    open_signup(event, director)
    for _ in range(4):
        answer = post(client, event, "")
        assert answer.status_code == 200  # refused: not counted
    assert post(client, event, "Ann").status_code == 302
    assert post(client, event, "Ben").status_code == 302
    refused = post(client, event, "Cat")
    assert refused.status_code == 429
    assert "Retry-After" in refused
    assert "sign-ups" in refused.content.decode()
    other = post(client, event, "Cat", REMOTE_ADDR="192.0.2.9")
    assert other.status_code == 302


def test_contacts_appear_on_no_public_page(client, event, director):
    open_signup(event, director, cap=1)
    entrant = post(client, event, "Ann", "ann-secret@example.org")["Location"]
    waiting = post(client, event, "Ben", "ben-secret@example.org")["Location"]
    token = event.public_token
    pages = [
        reverse("tournaments:draw", args=[token]),
        reverse("tournaments:standings", args=[token]),
        reverse("tournaments:projector", args=[token]),
        signup_url(event),
        entrant,
        waiting,
    ]
    for address in pages:
        page = client.get(address).content.decode()
        assert "secret@example.org" not in page, address
    # The director sees them on the desk.
    client.force_login(director)
    desk = client.get(reverse("tournaments:desk_signup", args=[event.pk])).content.decode()
    assert "ann-secret@example.org" in desk and "ben-secret@example.org" in desk


def test_a_wrong_registration_token_is_not_found(client, event, director):
    open_signup(event, director)
    post(client, event, "Ann")
    wrong = reverse("tournaments:signup_status", args=[event.public_token, "nobody"])
    assert client.get(wrong).status_code == 404


def test_the_draw_links_to_the_sign_up_while_it_is_open(client, event, director):
    draw = reverse("tournaments:draw", args=[event.public_token])
    assert signup_url(event) not in client.get(draw).content.decode()
    open_signup(event, director)
    assert signup_url(event) in client.get(draw).content.decode()
