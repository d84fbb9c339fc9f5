"""Trust at the table: a correction shows what it was, and undo or an early end is agreed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import ChangeRequest, Confirmation, Game, Round
from scoring.services import Actor, game_create, round_confirm, round_record
from tests.browser.pages import SAVE_TIMEOUT, Phone
from tests.browser.test_table_flows import LIVE, NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def other_phone(browser, browser_context_args):
    """Another phone at the same table: a browser context of its own (cookies, session)."""
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


ROUND_1 = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}
ROUND_2 = {"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}}
DERBY_ROUNDS = [
    {"dice": [3, 4], "tricks": 6},
    {"dice": [3, 4], "all_or_nothing": True, "made": False},
    {"dice": [2, 2], "tricks": 4},
]


def confirmed_game(kind: str, rounds: list[dict], options: dict | None = None) -> Game:
    """Ann (team A) entered every round and Ben (team B) confirmed it."""
    game = game_create(
        record={"game": kind, "players": NAMES, "options": options or {}},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
        round_confirm(game=game, number=number, actor=Actor(seat=1))
    return game


def at_table(page: Page, live_server, game: Game, seat: str) -> None:
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    Phone(page).i_am(seat)


def test_a_correction_shows_was_and_now_to_the_other_side(
    live_server, page: Page, other_phone: Page, screenshot
):
    game = confirmed_game("roolz", [ROUND_1], {"target": 1000})
    at_table(other_phone, live_server, game, "Ben")
    at_table(page, live_server, game, "Ann")

    page.goto(f"{live_server.url}/t/{game.table_token}/rounds/1/correct/")
    page.wait_for_load_state()
    expect(page.locator("#f-won-A")).to_have_value("190")
    page.fill("#f-won-A", "210")
    Phone(page).preview_shows("Team A +210")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(re.compile(r"/history/"))

    card = other_phone.locator("#live .pending[data-pending='1']")
    expect(card).to_be_visible(timeout=LIVE)
    was_now = card.locator("[data-was-now]")
    expect(was_now.locator(".was").first).to_contain_text("was Ann bid 200, set: A 190, B 110")
    expect(was_now.locator(".deltas.was")).to_contain_text("Team A \N{MINUS SIGN}200")
    expect(was_now.locator(".now")).to_contain_text("now Ann bid 200, made: A 210, B 90")
    expect(was_now).to_contain_text("Team A +210")
    card.scroll_into_view_if_needed()
    screenshot(other_phone, "trust-was-now", full_page=False)

    card.get_by_role("button", name="Confirm as Ben").click()
    expect(Phone(other_phone).pending).to_have_count(0, timeout=SAVE_TIMEOUT)
    assert Round.objects.get(game=game, number=1).status == Round.Status.CONFIRMED


def test_undoing_a_confirmed_round_waits_for_the_other_side(
    live_server, page: Page, other_phone: Page, screenshot
):
    game = confirmed_game("roolz", [ROUND_1, ROUND_2], {"target": 1000})
    at_table(page, live_server, game, "Ann")
    at_table(other_phone, live_server, game, "Ben")

    page.get_by_role("button", name="Ask to undo deal 2").click()  # no browser dialog
    ask = page.locator("#live [data-change-request]")
    expect(ask).to_contain_text("Ann asks to undo deal 2", timeout=SAVE_TIMEOUT)
    expect(ask).to_contain_text("Ann cannot agree to this one")
    expect(ask.get_by_role("button", name="Take my request back")).to_be_visible()
    assert Round.objects.filter(game=game).count() == 2

    theirs = other_phone.locator("#live [data-change-request]")
    expect(theirs).to_contain_text("Ann asks to undo deal 2", timeout=LIVE)
    theirs.scroll_into_view_if_needed()
    screenshot(other_phone, "trust-undo-asked", full_page=False)
    assert Round.objects.filter(game=game).count() == 2  # still waiting

    theirs.get_by_role("button", name="Agree as Ben").click()
    expect(other_phone.locator("#live [data-news]")).to_have_text(
        "Deal 2 was undone by Ann.", timeout=SAVE_TIMEOUT
    )
    assert list(Round.objects.filter(game=game).values_list("number", flat=True)) == [1]
    assert ChangeRequest.objects.get(game=game).answered_by_seat == 1

    # Ann's phone is told, and offers deal 2 again.
    expect(page.locator("#live [data-news]")).to_have_text(
        "Deal 2 was undone by Ann.", timeout=LIVE
    )
    expect(page.locator("#live [data-change-request]")).to_have_count(0)
    expect(page.locator("#entry .entry-head h2")).to_have_text("Deal 2", timeout=LIVE)
    screenshot(page, "trust-undo-done", full_page=False)


def test_a_declined_undo_changes_nothing(live_server, page: Page, other_phone: Page):
    game = confirmed_game("roolz", [ROUND_1], {"target": 1000})
    at_table(page, live_server, game, "Ann")
    at_table(other_phone, live_server, game, "Dan")
    page.get_by_role("button", name="Ask to undo deal 1").click()
    theirs = other_phone.locator("#live [data-change-request]")
    theirs.get_by_role("button", name="Decline as Dan").click(timeout=LIVE)
    expect(page.locator("#live [data-news]")).to_have_text(
        "Declined by Dan: undoing a round.", timeout=LIVE
    )
    assert Round.objects.filter(game=game).count() == 1


def test_one_phone_hands_over_to_agree_to_an_early_end(live_server, page: Page, screenshot):
    game = confirmed_game("roller_derby", DERBY_ROUNDS)
    at_table(page, live_server, game, "Ann")
    page.get_by_role("button", name="Ask to end the game now").click()
    ask = page.locator("#live [data-change-request]")
    expect(ask).to_contain_text(
        "Ann asks to end the game now, before the final deal", timeout=SAVE_TIMEOUT * 2
    )
    game.refresh_from_db()
    assert game.ending == {}
    ask.scroll_into_view_if_needed()
    screenshot(page, "trust-end-asked-one-phone", full_page=False)

    ask.get_by_role("button", name="Agree as Ben").click()  # the phone handed over
    expect(page.locator("#entry .game-over")).to_be_visible(timeout=SAVE_TIMEOUT)
    expect(page.locator("#entry .game-over .result")).to_be_in_viewport(timeout=SAVE_TIMEOUT)
    expect(page.locator("#live [data-news]")).to_have_text("The game was ended early by Ann.")
    game.refresh_from_db()
    assert game.ending == {"ended_early": True}
