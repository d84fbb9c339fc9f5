"""The table between several phones: confirmation, conflicts, corrections, mistakes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Confirmation, Round, RoundEvent
from scoring.services import Actor, game_create, round_record
from tests.browser.conftest import requests_finished
from tests.browser.pages import Phone, settle, shoot, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


NAMES = ["Ann", "Ben", "Cat", "Dan"]
LIVE = 3_500  # another phone shows a change within about three seconds


@pytest.fixture
def second_page(browser, browser_context_args):
    """Another phone at the same table: a browser context of its own (cookies, session)."""
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def roolz_game(confirmation: str = Confirmation.OFF, rounds=()):
    game = game_create(
        record={"game": "roolz", "players": NAMES, "options": {"target": 1000}},
        confirmation=confirmation,
    ).game
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    return game


def test_a_player_of_the_other_side_confirms_on_their_phone(
    live_server, page: Page, second_page: Page, screenshot
):
    game = start_game(page, live_server.url, game="roolz", players=NAMES, confirmation="other_side")
    table_url = page.url.split("?")[0]
    second_page.goto(table_url)
    Phone(second_page).i_am("Ben")

    # Ann enters round 1 on her phone.
    Phone(page).i_am("Ann")
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).save("A player of another side confirms it")
    pending = Phone(page).pending
    expect(pending).to_contain_text("Waiting for confirmation")
    expect(pending).to_contain_text("Ann cannot confirm this one")
    expect(pending.get_by_role("button", name="Confirm as Ann")).to_have_count(0)
    expect(pending.get_by_role("button", name="Confirm as Cat")).to_have_count(0)

    # Ben's phone shows the pending round without reloading, and he confirms it.
    other = Phone(second_page).pending
    expect(other).to_contain_text("entered by Ann", timeout=LIVE)
    expect(second_page.locator("#recent")).to_contain_text("pending")
    shoot(second_page, screenshot, "roolz-pending-confirmation")
    other.get_by_role("button", name="Confirm as Ben").click()
    expect(Phone(second_page).pending).to_have_count(0)

    # Ann's phone sees the confirmation come in.
    expect(Phone(page).pending).to_have_count(0, timeout=LIVE)
    round_ = Round.objects.get(game=game, number=1)
    assert round_.status == Round.Status.CONFIRMED
    assert round_.entered_by_seat == 0
    assert round_.confirmed_by_seat == 1


def test_the_same_phone_handed_over_confirms(live_server, page: Page):
    game = roolz_game(Confirmation.ANY_OTHER_SEAT)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    Phone(page).i_am("Cat")
    Phone(page).enter_roolz_deal("Cat", 180, 200)
    Phone(page).save("Another player confirms it")
    Phone(page).confirm_as("Dan")
    expect(Phone(page).pending).to_have_count(0)
    assert Round.objects.get(game=game, number=1).confirmed_by_seat == 3


def test_two_phones_saving_the_same_round_store_one(
    live_server, page: Page, second_page: Page, screenshot
):
    game = roolz_game()
    url = f"{live_server.url}/t/{game.table_token}/"
    page.goto(url)
    second_page.goto(url)
    Phone(page).i_am("Ann")
    Phone(second_page).i_am("Ben")
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(second_page).enter_roolz_deal("Ann", 200, 210)

    Phone(page).save("Deal 1 saved")
    # The other phone keeps what was typed and says a round came in meanwhile.
    expect(second_page.locator("[data-stale]")).to_be_visible(timeout=LIVE)
    expect(second_page.locator("#f-won-A")).to_have_value("210")
    Phone(second_page).save_button.click()
    conflict = second_page.locator("#entry .conflict")
    expect(conflict).to_contain_text("Deal 1 was already recorded by Ann")
    expect(conflict).to_contain_text("Ann bid 200, made: A 220, B 80")
    second_page.locator("#entry .conflict").scroll_into_view_if_needed()
    screenshot(second_page, "roolz-conflict", full_page=False)
    assert Round.objects.filter(game=game).count() == 1

    conflict.get_by_role("button", name="Discard mine and go on").click()
    expect(second_page.locator("#entry .entry-head h2")).to_have_text("Deal 2")


def test_a_double_tap_stores_one_round(live_server, page: Page):
    game = roolz_game()
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    Phone(page).enter_roolz_deal("Dan", 170, 100)
    Phone(page).save_button.dblclick()
    Phone(page).saved("Deal 1 saved")
    settle(page)
    requests_finished()  # the second tap's request too, if it was sent
    assert Round.objects.filter(game=game).count() == 1


def test_an_invalid_entry_shows_its_message_beside_the_field(live_server, page: Page, screenshot):
    game = roolz_game()
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    Phone(page).enter_roolz_deal("Ben", 200, 193)
    expect(page.locator("#f-won-B")).to_have_value("107")
    Phone(page).save_button.click()
    won = page.locator("fieldset[data-field=won]")
    expect(won.locator(".error").first).to_have_text(
        "Points won by team A (193) are not a multiple of 5"
    )
    expect(page.locator("#f-won-A")).to_have_value("193")
    expect(page.locator("fieldset[data-field=bidder] input[value='1']")).to_be_checked()
    expect(page.locator("#f-bid")).to_have_value("200")
    won.scroll_into_view_if_needed()
    screenshot(page, "roolz-invalid-entry", full_page=False)
    assert Round.objects.filter(game=game).count() == 0

    page.fill("#f-won-A", "195")
    Phone(page).save("Deal 1 saved")


def test_a_missing_choice_is_named(live_server, page: Page):
    game = game_create(record={"game": "roller_derby", "players": NAMES}).game
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    Phone(page).save_button.click()
    expect(page.locator("[data-dice] .error")).to_have_text("Tap the dice that were rolled.")
    expect(page.locator("fieldset[data-field=tricks] .error")).to_contain_text("Tap the tricks")


def test_correcting_a_round_keeps_the_audit_trail(live_server, page: Page, screenshot):
    game = roolz_game(
        rounds=[
            {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}},
            {"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}},
        ]
    )
    page.goto(f"{live_server.url}/t/{game.table_token}/history/")
    page.get_by_role("link", name="Correct deal 1").click()
    page.wait_for_load_state()  # the page's scripts fill the rest of the points
    expect(page.locator("#f-won-A")).to_have_value("190")
    expect(page.locator("fieldset[data-field=bidder] input[value='0']")).to_be_checked()
    page.fill("#f-won-A", "210")
    expect(page.locator("#f-won-B")).to_have_value("90")
    Phone(page).preview_shows("Team A +210")
    shoot(page, screenshot, "roolz-correction")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(re.compile(r"/history/"))
    card = page.locator("#detail-1")
    expect(card).to_contain_text("corrected")
    expect(card).to_contain_text("Ann bid 200, made: A 210, B 90")
    audit = page.locator(".audit")
    expect(audit).to_contain_text("Round corrected")
    expect(audit).to_contain_text("Was: Ann bid 200, set: A 190, B 110")
    shoot(page, screenshot, "roolz-history")
    assert RoundEvent.objects.filter(game=game, action=RoundEvent.Action.CORRECT).count() == 1

    page.get_by_role("link", name="Back to the table").click()
    assert Phone(page).totals() == [275, 325]


def test_undo_the_last_round(live_server, page: Page):
    page.on("dialog", lambda dialog: dialog.accept())
    game = roolz_game(rounds=[{"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}])
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    page.get_by_role("button", name="Undo deal 1").click()
    expect(page.locator("#recent")).to_contain_text("Nothing recorded yet")
    expect(page.locator("#entry .entry-head h2")).to_have_text("Deal 1")
    assert not Round.objects.filter(game=game).exists()
