"""The round clock on a phone at an event's table: it counts down on the table's entry
page and on its view page, says "Last deal" at zero, and takes the director's pause or
extension while the page stays open."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.events.selectors import LAST_DEAL
from tournaments.events.services import (
    tournament_round_clock_extend,
    tournament_round_clock_pause,
    tournament_round_clock_resume,
    tournament_round_clock_start,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def event():
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n}" for n in range(1, 9)), user=director
    )
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    return event


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_round_clock_counts_down_on_a_table_page(live_server, browser, event, scheme):
    round_ = event.rounds.get(number=1)
    tournament_round_clock_start(event=event, round=round_, minutes=1, user=event.owner)
    game = round_.tables.exclude(game=None).first().game
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    page.clock.install()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, address in (("entry", f"/t/{game.table_token}/"), ("view", f"/v/{game.view_token}/")):
        page.goto(live_server.url + address)
        shown = page.locator(".round-clock [data-clock-text]")
        first = shown.text_content()
        assert first is not None and first.startswith(("1:00", "0:5"))
        assert shown.is_visible()
        # The time reads against its box in either scheme.
        ink, ground = page.eval_on_selector(
            ".round-clock", "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
        )
        assert ink != ground
        page.screenshot(path=str(ARTIFACTS / f"table-clock-{name}-{scheme}-running.png"))
        page.clock.fast_forward(20_000)
        later = shown.text_content()
        assert later is not None and later != first and later.startswith("0:")
        page.clock.fast_forward(60_000)
        assert shown.text_content() == LAST_DEAL
        page.screenshot(path=str(ARTIFACTS / f"table-clock-{name}-{scheme}-last-deal.png"))
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_pause_and_an_extension_reach_an_open_table_page_without_a_reload(
    live_server, browser, event, scheme
):
    round_ = event.rounds.get(number=1)
    tournament_round_clock_start(event=event, round=round_, minutes=5, user=event.owner)
    game = round_.tables.exclude(game=None).first().game
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, address in (("entry", f"/t/{game.table_token}/"), ("view", f"/v/{game.view_token}/")):
        page.goto(live_server.url + address)
        page.evaluate("window.notReloaded = true")
        clock = page.locator(".round-clock")
        expect(clock).to_have_attribute("data-clock-state", "running")
        # The director pauses: the open page says so at its next poll, the count stands.
        tournament_round_clock_pause(event=event, round=round_, user=event.owner)
        expect(clock).to_have_attribute("data-clock-state", "paused", timeout=10_000)
        expect(clock).to_contain_text("Clock paused")
        page.screenshot(path=str(ARTIFACTS / f"table-clock-{name}-{scheme}-paused-live.png"))
        # Ten more minutes: the page shows them, still without a reload.
        tournament_round_clock_extend(event=event, round=round_, minutes=10, user=event.owner)
        shown = clock.locator("[data-clock-text]")
        expect(shown).to_have_text(re.compile(r"^1[45]:"), timeout=10_000)
        tournament_round_clock_resume(event=event, round=round_, user=event.owner)
        expect(clock).to_have_attribute("data-clock-state", "running", timeout=10_000)
        assert page.evaluate("window.notReloaded") is True
        tournament_round_clock_start(event=event, round=round_, minutes=5, user=event.owner)
    context.close()
