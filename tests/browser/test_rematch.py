"""After the end: one tap starts the same table again; a new game takes a recent table's players."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game
from scoring.services import Actor, game_create, game_end, round_record
from tests.browser.pages import SAVE_TIMEOUT, Phone
from tests.browser.test_table_flows import LIVE, NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def other_phone(browser, browser_context_args):
    """Another phone at the same table: a browser context of its own (cookies, session)."""
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


DERBY_ROUNDS = [
    {"dice": [3, 4], "tricks": 6},
    {"dice": [3, 4], "all_or_nothing": True, "made": False},
    {"dice": [2, 2], "tricks": 4},
]


def finished_derby() -> Game:
    game = game_create(record={"game": "roller_derby", "players": NAMES, "first_dealer": 2}).game
    for number, entry in enumerate(DERBY_ROUNDS, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    game_end(game=game, ending={"ended_early": True}, actor=Actor(seat=0))
    return game


def test_one_tap_starts_the_same_table_with_the_next_dealer(
    live_server, page: Page, other_phone: Page, screenshot
):
    old = finished_derby()
    other_phone.goto(f"{live_server.url}/t/{old.table_token}/")
    Phone(other_phone).i_am("Ben")
    expect(other_phone.locator("#identity")).to_contain_text("Ben")
    page.goto(f"{live_server.url}/t/{old.table_token}/")
    over = page.locator("#entry .game-over")
    rematch = over.get_by_role("button", name="Rematch: Dan deals")
    expect(rematch).to_be_visible()
    over.scroll_into_view_if_needed()
    screenshot(page, "rematch-offer", full_page=False)

    rematch.click()
    page.wait_for_url(lambda url: old.table_token not in url, timeout=SAVE_TIMEOUT)
    new = Game.objects.get(rematch_of=old)
    assert page.url.endswith(f"/t/{new.table_token}/")
    assert (new.kind, new.first_dealer) == ("roller_derby", 3)
    assert list(new.seats.values_list("name", flat=True)) == NAMES
    expect(page.locator("#entry .entry-head h2")).to_have_text("Deal 1")
    expect(page.locator("#entry .entry-head")).to_contain_text("Dan")
    screenshot(page, "rematch-started", full_page=False)

    # The other phone at the old table is offered the same game, not another one.
    go = other_phone.locator("#entry .game-over [data-rematch]")
    expect(go).to_have_text("Go to the rematch", timeout=LIVE)
    go.click()
    other_phone.wait_for_url(f"**/t/{new.table_token}/")
    # ... and keeps saying who holds it: Ben, not "I am ..." again
    expect(other_phone.locator("#identity")).to_contain_text("This phone is Ben")
    assert Game.objects.filter(rematch_of=old).count() == 1


def test_the_new_game_page_offers_players_from_a_recent_game(live_server, page: Page, screenshot):
    old = finished_derby()
    page.goto(f"{live_server.url}/t/{old.table_token}/")  # this phone has been at that table
    page.goto(f"{live_server.url}/games/new/")
    recent = page.locator(".recent-tables")
    expect(recent).to_contain_text("Players from a recent game")
    screenshot(page, "rematch-recent-tables", full_page=False)
    expect(recent.locator("[data-again]")).to_contain_text("Start Roller Derby again")
    recent.get_by_role("link", name="Change players or options").click()
    expect(page.locator("input[name=game][value=roller_derby]")).to_be_checked()
    for seat, name in enumerate(NAMES):
        expect(page.locator(f"#player-{seat}")).to_have_value(name)
    page.locator("button.start").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/"))
    assert Game.objects.count() == 2
