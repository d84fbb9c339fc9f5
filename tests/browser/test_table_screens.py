"""Every game's table page upright and sideways, light and dark: nothing wider than the
screen, the round form and its Save bar on it. Screenshots under test-artifacts/ to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.services import game_create
from tests.browser.pages import still
from tests.browser.test_entry_taps import SIDEWAYS, UPRIGHT
from tests.games import GAMES, expected

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = {game: expected(game).SCREEN_PLAYERS for game in GAMES}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
@pytest.mark.parametrize("kind", list(PLAYERS))
def test_every_table_page_fits_the_phone(live_server, page: Page, kind, held, scheme, screenshot):
    page.set_viewport_size(held)
    page.emulate_media(color_scheme=scheme)
    game = game_create(record={"game": kind, "players": PLAYERS[kind]}).game
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(page.locator("#entry form[data-entry]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= held["width"]
    expect(page.locator("form[data-entry] .actions button.save")).to_be_in_viewport()
    name = f"table-{kind}-{'upright' if held is UPRIGHT else 'sideways'}-{scheme}"
    screenshot(page, name, full_page=False)
    page.locator("#entry .entry-head").scroll_into_view_if_needed()
    page.mouse.wheel(0, 400)
    still(page)
    screenshot(page, name + "-form", full_page=False)
