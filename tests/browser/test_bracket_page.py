"""The bracket page on a phone: round by round across the screen, live, each table a link."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.tournaments.brackets.test_flow import TEAMS, current_rows, play_derby
from tournaments.brackets import services as brackets
from tournaments.events import services
from tournaments.models import BracketStage

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

LIVE = 15_000  # the board asks every five seconds; the machine is shared


@pytest.fixture
def event():
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:8]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    brackets.stage_create(event=event, kind="single", third_place=True, user=director)
    return event


def test_bracket_page_on_a_phone(page: Page, live_server, event, screenshot):
    page.goto(f"{live_server.url}/e/{event.public_token}/bracket/")
    expect(page.get_by_role("heading", name="Derby Cup")).to_be_visible()
    first = page.locator("#col-main-1")
    expect(first.get_by_text("Quarterfinals")).to_be_visible()
    expect(first.locator(".bracket-name", has_text="Aces")).to_be_visible()
    # The page itself never scrolls sideways: the rounds do, inside their strip.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    final = page.locator("#col-main-3")
    expect(final).not_to_be_in_viewport()
    page.get_by_role("link", name="Final", exact=True).click()
    expect(final).to_be_in_viewport(timeout=5_000)
    screenshot(page, "bracket-phone-final", full_page=False)

    # A table's link leads to its game's scoreboard, read-only.
    stage = BracketStage.objects.get(event=event)
    row = current_rows(stage)["R1-1"]
    link = page.locator('[data-match="R1-1"] .bracket-link')
    expect(link).to_have_attribute("href", f"/v/{row.game.view_token}/")
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44  # a thumb's target

    # The table plays; the page shows who went on without being reloaded.
    play_derby(row.game, "B")  # Hawks beat Aces; each commit calls the tournament hook
    went_on = page.locator('[data-match="R1-1"] li.went-on')
    expect(went_on.locator(".bracket-name")).to_have_text("Hawks", timeout=LIVE)
    expect(went_on.locator(".bracket-score")).to_be_visible()
    expect(page.locator('[data-match="R2-1"] .bracket-name').first).to_have_text(
        "Hawks", timeout=LIVE
    )
    page.goto(f"{live_server.url}/e/{event.public_token}/bracket/")
    screenshot(page, "bracket-phone")
