"""A 16-team double elimination fits the whole bracket on a 1080p projector and a
1280-px desktop: the final (the grand final) is never cut off."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import drawn
from tests.tournaments.brackets.test_flow import TEAMS
from tournaments.brackets import services as brackets
from tournaments.events import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"1080p": {"width": 1920, "height": 1080}, "desktop": {"width": 1280, "height": 800}}


@pytest.fixture
def event():
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:16]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    brackets.stage_create(event=event, kind="double", user=director)
    return event


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("big", [False, True])
def test_the_whole_double_elimination_is_on_screen(live_server, browser, event, screen, big):
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    page.goto(f"{live_server.url}/bracket/{event.public_token}/{'?big=1' if big else ''}")
    expect(page.locator(".bracket-match").first).to_be_visible()
    drawn(page)  # the fit runs once the page has laid out
    width = SCREENS[screen]["width"]
    for section in page.locator(".bracket-section .bracket-columns").all():
        last = section.locator(".bracket-column").last.locator(".bracket-match").last
        box = last.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if big and screen == "1080p":  # the projector size: every section on one screen
        bottom = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.bracket-match')]"
            ".map(e => e.getBoundingClientRect().bottom))"
        )
        assert bottom <= SCREENS[screen]["height"] + 1
    expect(page.get_by_role("link", name="The event")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bracket-{screen}{'-big' if big else ''}.png"))
    context.close()
