"""The director's desk on a laptop: from creating an event to publishing round 2."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.conftest import WINDOW_TIMEOUT, shoot_whole
from tests.tournaments.helpers import play_table
from tournaments.models import Event, TournamentRound

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Léa"]  # and Zoë


@pytest.fixture
def laptop(own_window):
    return own_window(LAPTOP)


def test_a_director_runs_an_event_to_round_two(live_server, laptop: Page):
    page = laptop
    get_user_model().objects.create_user("director", password="cards-at-eight", is_staff=True)

    # The desk asks for a login, then comes back.
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Director's desk").click()
    page.fill("#id_username", "director")
    page.fill("#id_password", "cards-at-eight")
    page.get_by_role("button", name=re.compile("Log in", re.I)).click()
    expect(page.get_by_role("heading", name="Your events")).to_be_visible()

    # A new event of Roolz: the game's options and default standings appear once chosen.
    page.get_by_role("link", name="New event").click()
    page.fill("#name", "Friday Roolz")
    page.get_by_text("Roolz", exact=True).click()
    expect(page.locator("#option-target")).to_be_visible()
    expect(page.locator("#metric-1")).to_have_value("placement_points")
    page.fill("#option-target", "300")
    page.fill("#rounds_planned", "2")
    shoot_whole(page, "desk-new-event")
    page.get_by_role("button", name="Create the event").click()
    expect(page.get_by_role("heading", name="Friday Roolz")).to_be_visible()
    event = Event.objects.get(name="Friday Roolz")
    assert event.options["target"] == 300

    # A mistake in the file is named by its line; the fixed list registers everyone.
    page.get_by_text("Register many players from a CSV file").click()
    page.fill("#csv-text", "\n".join([*NAMES, "ann"]))
    page.get_by_role("button", name="Read the list").click()
    expect(page.locator("#csv-errors")).to_contain_text(
        "Line 12: ann is repeated in the file (lines 1 and 12)"
    )
    page.fill("#csv-text", "\n".join(NAMES))
    page.get_by_role("button", name="Read the list").click()
    # What the list holds is shown before anyone is registered.
    expect(page.locator("#csv-preview")).to_contain_text("11 players to register")
    assert event.entrants.count() == 0
    page.get_by_role("button", name="Register 11 players").click()
    expect(page.locator("#entrants")).to_contain_text("11 players registered")
    # One more at the desk, by the form.
    page.fill("#entrant-name", "Zoë")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#entrants")).to_contain_text("Zoë is registered")
    page.fill("#entrant-name", "Zoë")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#entrant-name-error")).to_have_text("Zoë is already registered.")
    shoot_whole(page, "desk-entrants")

    # Round 1 as a draft: the report, a swap and its cost change, then publish.
    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_role("heading", name="The draft")).to_be_visible()
    expect(page.locator(".report")).to_contain_text("Repeated table-mates")
    first = page.locator("#draw-table-1 .seat-name").first.inner_text()
    second = page.locator("#draw-table-2 .seat-name").first.inner_text()
    page.select_option("#swap-first", label=first)
    page.select_option("#swap-second", label=second)
    page.get_by_role("button", name="Swap").click()
    expect(page.locator("#swap-result")).to_contain_text(f"{first} and {second} swapped places")
    expect(page.locator("#swap-result")).to_contain_text("Seating cost")
    expect(page.locator("#draw-table-2")).to_contain_text(first)
    shoot_whole(page, "desk-draft-swapped")
    page.get_by_role("button", name="Publish round 1").click()
    expect(page.locator("#live")).to_contain_text("Playing")
    shoot_whole(page, "desk-round-1-published")

    # The tables play round 1 on their phones (through the scoring services here).
    round_one = event.rounds.get(number=1)
    for table in round_one.tables.select_related("game"):
        play_table(table)
    # The desk sees every table done by itself.
    expect(page.locator("#live .badge.state-done")).to_have_count(
        round_one.tables.count(), timeout=WINDOW_TIMEOUT
    )
    expect(page.locator("#live .badge.state-playing")).to_have_count(0)

    page.get_by_role("link", name="← Friday Roolz").click()
    page.get_by_role("button", name="Seat round 2").click()
    expect(page.get_by_role("heading", name="The draft")).to_be_visible()
    page.get_by_role("button", name="Publish round 2").click()
    expect(page.get_by_role("heading", name=re.compile("Round 2"))).to_be_visible()
    expect(page.locator("#live")).to_contain_text("Playing")
    shoot_whole(page, "desk-round-2-published")
    assert event.rounds.get(number=2).status == TournamentRound.Status.PUBLISHED

    page.get_by_role("link", name="← Friday Roolz").click()
    expect(page.locator("#rounds")).to_contain_text("All 2 tournament rounds are published")
    shoot_whole(page, "desk-event")

    # The projector shows the draw in large type (then the standings, in turn).
    page.goto(f"{live_server.url}/e/{event.public_token}/projector/")
    expect(page.locator(".panel-draw")).to_be_visible()
    expect(page.locator(".panel-draw h1")).to_contain_text("Round 2")
    expect(page.locator(".panel-standings")).to_be_hidden()
    shoot_whole(page, "desk-projector")
