"""Bracket matches show their score (two sides) or finishing order (tables) on a
projector at 1920x1080, at normal and projector size, and on a phone at 390x844."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import drawn
from tests.tournaments.brackets.test_flow import (
    DERBY_OPENING,
    TEAMS,
    current_rows,
    finish_rummoli,
    play_derby,
)
from tests.tournaments.helpers import enter_and_confirm
from tournaments.brackets import services as brackets
from tournaments.events import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {
    "1080p": {"width": 1920, "height": 1080},
    "1080p-big": {"width": 1920, "height": 1080},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture
def derby():
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:8]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", third_place=True, user=director)
    rows = current_rows(stage)
    play_derby(rows["R1-1"].game, "B")
    play_derby(rows["R1-2"].game, "A")
    enter_and_confirm(rows["R1-3"].game, 1, DERBY_OPENING[0])  # still playing
    return event


@pytest.fixture
def tables():
    director = get_user_model().objects.create_user("tables", password="x", is_staff=True)
    event = services.event_create(owner=director, name="Rummoli Night", game="rummoli")
    names = [f"Player {n:02d}" for n in range(1, 13)]
    services.entrants_import_csv(event=event, text="\n".join(names), user=director)
    stage = brackets.stage_create(
        event=event, kind="tables", table_size=6, advance=3, draw_rule="higher_seed", user=director
    )
    row = current_rows(stage)["R1-T1"]
    finish_rummoli(row.game, list(range(len(row.seats)))[::-1])
    return event


def inside(inner, outer) -> bool:
    a, b = inner.bounding_box(), outer.bounding_box()
    assert a is not None and b is not None
    return a["x"] >= b["x"] - 1 and a["x"] + a["width"] <= b["x"] + b["width"] + 1


@pytest.mark.parametrize("screen", SCREENS)
def test_two_sided_matches_show_both_totals(live_server, browser, derby, screen):
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    big = "?big=1" if screen.endswith("big") else ""
    page.goto(f"{live_server.url}/e/{derby.public_token}/bracket/{big}")
    drawn(page)  # the fit runs once the page has laid out
    for match_id in ("R1-1", "R1-2", "R1-3"):
        match = page.locator(f'[data-match="{match_id}"]')
        scores = match.locator(".bracket-score")
        expect(scores).to_have_count(2)
        if screen != "phone":  # on a phone the later rounds sit to the right, a swipe away
            for score in scores.all():
                expect(score).to_be_visible()
                assert inside(score, match)
    expect(page.locator('[data-match="R1-4"] .bracket-score')).to_have_count(0)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bracket-scores-{screen}.png"))
    context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_a_table_match_shows_its_finishing_order(live_server, browser, tables, screen):
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    big = "?big=1" if screen.endswith("big") else ""
    page.goto(f"{live_server.url}/e/{tables.public_token}/bracket/{big}")
    drawn(page)
    match = page.locator('[data-match="R1-T1"]')
    places = match.locator(".bracket-place")
    expect(places).to_have_count(6)
    expect(match.locator("li.went-on .bracket-place")).to_have_text(["1st", "2nd", "3rd"])
    if screen != "phone":
        assert inside(places.first, match)
    page.screenshot(path=str(ARTIFACTS / f"bracket-places-{screen}.png"))
    context.close()
