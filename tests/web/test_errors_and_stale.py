"""The pages a person meets when something is off: a stale correction at a casual table,
an address that is not there, a sign-in whose next page cannot be followed."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse

from scoring.services import Actor, round_correct, round_record
from tests.scoring.factories import new_game, roolz_round

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def visible_text(html: str) -> str:
    """The text a person sees: without what the page holds hidden."""
    html = re.sub(r"<[^>]*\bhidden\b[^>]*>.*?</div>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_a_stale_correction_at_a_casual_table_says_it_changed_since_opened(client):
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=Actor())
    url = reverse("scoring:round_correct", args=[game.table_token, 1])
    form = client.get(url).content.decode()
    opened_at = re.search(r'name="revision" value="(\d+)"', form).group(1)
    game.refresh_from_db()
    round_correct(game=game, number=1, entry=roolz_round(a=250), actor=Actor(device="other"))
    mine = {"number": "1", "revision": opened_at, "bidder": "0", "bid": "200", "won-A": "100"}
    for headers in ({}, HX):
        html = client.post(url, mine, headers=headers).content.decode()
        assert "changed since you opened it" in visible_text(html)
        # Nor does the form's hidden notice speak of a round recorded.
        assert "has just recorded" not in html
    assert game.rounds.get(number=1).entry == roolz_round(a=250)


def test_an_address_that_is_not_there_gets_the_sites_page(client):
    answer = client.get("/desk/999999/")
    assert answer.status_code in (302, 404)
    director = get_user_model().objects.create_user("dee", password="pw", is_staff=True)
    client.force_login(director)
    for path in ["/desk/999999/", "/no/such/page/", f"/t/{'A' * 43}/"]:
        answer = client.get(path)
        assert answer.status_code == 404, path
        html = answer.content.decode()
        assert "<title>Not found · Tablescore</title>" in html
        assert 'class="topbar"' in html and "tablescore.css" in html
        assert reverse("tournaments:desk") in html  # a director is shown the way back


def test_the_error_page_stands_alone():
    html = render_to_string("500.html")
    assert "Something went wrong" in html and "Scores already saved are safe" in html
    assert "{%" not in html and "css/error.css" in html  # its own style sheet, no inline style


@pytest.fixture
def director():
    return get_user_model().objects.create_user("dee", password="pw", is_staff=True)


def sign_in(client, next_url: str | None, referer: str | None = None):
    login = reverse("admin:login")
    query = {"next": next_url} if next_url is not None else {}
    headers = {"Referer": referer} if referer else {}
    page = client.get(login, query, headers=headers)
    assert page.status_code == 200
    kept = re.search(r'name="next" value="([^"]*)"', page.content.decode())
    form = {"username": "dee", "password": "pw"}
    if kept:
        form["next"] = kept.group(1).replace("&amp;", "&")
    return client.post(login, form)


@pytest.mark.parametrize(
    "next_url", ["https://elsewhere.example/", "//elsewhere.example/", "javascript:alert(1)", ""]
)
def test_an_unsafe_next_goes_to_the_desk(client, director, next_url):
    answer = sign_in(client, next_url)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tournaments:desk")


def test_an_unsafe_next_goes_back_to_the_page_the_user_came_from(client, director):
    came_from = "http://testserver" + reverse("tournaments:event_new")
    answer = sign_in(client, "https://elsewhere.example/", referer=came_from)
    assert answer["Location"] == reverse("tournaments:event_new")


def test_a_safe_next_is_followed_and_no_next_never_lands_on_a_profile(client, director):
    assert sign_in(client, reverse("tournaments:event_import"))["Location"] == reverse(
        "tournaments:event_import"
    )
    client.logout()
    answer = sign_in(client, None, referer="https://elsewhere.example/page")
    assert answer["Location"] == reverse("tournaments:desk")
    assert "/accounts/profile/" not in answer["Location"]
