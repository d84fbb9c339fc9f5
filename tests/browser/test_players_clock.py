"""The round clock on the pages players keep open, on a 390x844 phone: the standings and
their own page, counting down by itself."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_tournament_players import SLOW, fits_the_phone, running_event
from tournaments.events.services import tournament_round_clock_start
from tournaments.models import TableSeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_round_clock_on_the_standings_and_a_players_page(live_server, page: Page, screenshot):
    page.set_default_timeout(SLOW)
    event = running_event()
    tournament_round_clock_start(event=event, round=event.rounds.get(), minutes=25)
    seat = TableSeat.objects.get(entrant__name="Ann")
    for name, address in (
        ("players-standings-clock", f"/e/{event.public_token}/standings/"),
        ("players-own-page-clock", f"/e/{event.public_token}/players/{seat.entrant_id}/"),
    ):
        page.goto(f"{live_server.url}{address}")
        clock = page.locator("[data-clock]")
        expect(clock).to_be_visible()
        expect(clock).to_contain_text("Time left")
        expect(clock.locator("[data-clock-text]")).to_have_text(re.compile(r"^2[45]:\d\d$"))
        box = clock.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, "the clock is below the fold"
        first = clock.locator("[data-clock-text]").inner_text()
        # It counts down on the phone, and still does after the live part's polls.
        expect(clock.locator("[data-clock-text]")).not_to_have_text(first, timeout=SLOW)
        fits_the_phone(page)
        screenshot(page, name, full_page=False)
