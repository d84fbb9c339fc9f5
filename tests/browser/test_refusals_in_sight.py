"""A refusal is read where it is said: a correction refused because another phone changed
the deal meanwhile, and a deal entered offline that another phone recorded first, are shown
below the top bar and above the Save bar without a swipe, upright and sideways, and focused
so a screen reader reads them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.models import Confirmation, Round
from tests.browser.pages import Phone, still
from tests.browser.test_entry_taps import SIDEWAYS, UPRIGHT, open_table
from tests.browser.test_table_flows import roolz_game
from tests.browser.test_tournament_players import running_event
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVED = 8_000
BY_ITSELF = 15_000
ROUND_1 = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}
HELD = pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])


@pytest.fixture
def other_phone(browser, browser_context_args):
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def in_sight(page: Page, message: Locator) -> None:
    """The message's whole box on the screen, below the top bar and above a Save bar shown
    over the same column."""
    box = message.bounding_box()
    assert box is not None
    topbar = page.locator(".topbar").bounding_box()
    top = max(0, topbar["y"] + topbar["height"]) if topbar else 0
    bottom = page.viewport_size["height"]
    for bar in page.locator(".actions:visible").all():
        shown = bar.bounding_box()
        assert shown is not None
        if shown["x"] < box["x"] + box["width"] and box["x"] < shown["x"] + shown["width"]:
            bottom = min(bottom, shown["y"])
    assert box["y"] >= top - 1, (box, top)
    assert box["y"] + box["height"] <= bottom + 1, (box, bottom)


@HELD
def test_a_correction_refused_as_changed_meanwhile_is_said_in_sight(
    live_server, page: Page, other_phone: Page, held, screenshot
):
    game = roolz_game(rounds=[ROUND_1, {"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}}])
    url = f"{live_server.url}/t/{game.table_token}/rounds/1/correct/"
    for phone in (page, other_phone):
        phone.set_viewport_size(held)
        phone.goto(url)
        expect(phone.locator("#correct-form form")).to_be_visible()
    other_phone.fill("#f-won-A", "150")
    other_phone.fill("#f-won-B", "150")
    Phone(other_phone).save_button.click()
    expect(other_phone.locator("#corrected")).to_contain_text("Deal 1 corrected", timeout=SAVED)

    page.fill("#f-won-A", "200")
    page.fill("#f-won-B", "100")
    Phone(page).save_button.click()
    refusal = page.locator("[data-stale-change]")
    expect(refusal).to_contain_text("Not saved: deal 1 changed since you opened it", timeout=SAVED)
    still(page)
    in_sight(page, refusal)
    expect(refusal).to_be_focused()
    screenshot(page, f"correction-refused-{held['width']}", full_page=False)
    assert Round.objects.get(game=game, number=1).entry["won"] == {"A": 150, "B": 150}


@HELD
def test_a_deal_entered_offline_and_recorded_first_elsewhere_is_said_in_sight(
    live_server, page: Page, other_phone: Page, held, screenshot
):
    game = roolz_game()
    for phone, bidder in ((page, "Ann"), (other_phone, "Ben")):
        phone.set_viewport_size(held)
        open_table(phone, live_server, game)
        phone.context.set_offline(True)
        phone.locator("fieldset[data-field='bidder'] label.chip", has_text=bidder).first.tap()
        phone.locator("[data-set=bid][data-value='200']").tap()
        phone.locator("[data-points] button", has_text="Made exactly").tap()
        Phone(phone).save_button.tap()
        expect(phone.locator("[data-outbox]")).to_be_visible()

    page.context.set_offline(False)
    Phone(page).saved("Deal 1 saved", timeout=BY_ITSELF)
    other_phone.context.set_offline(False)
    clash = other_phone.locator("#entry .conflict")
    expect(clash).to_contain_text("Deal 1 was already recorded", timeout=BY_ITSELF)
    still(other_phone)
    in_sight(other_phone, clash)
    expect(clash).to_be_focused()
    expect(clash.get_by_role("button", name="Discard mine and go on")).to_be_visible()
    screenshot(other_phone, f"clash-in-sight-{held['width']}", full_page=False)
    assert Round.objects.get(game=game, number=1).entry["bidder"] == 0


@HELD
def test_the_other_phone_sees_the_deal_to_confirm_without_a_swipe(
    live_server, page: Page, other_phone: Page, held, screenshot
):
    game = roolz_game(confirmation=Confirmation.OTHER_SIDE)
    for phone, me in ((page, "Ann"), (other_phone, "Ben")):
        phone.set_viewport_size(held)
        open_table(phone, live_server, game, me=me)
    page.locator("fieldset[data-field='bidder'] label.chip", has_text="Ann").first.tap()
    page.locator("[data-set=bid][data-value='200']").tap()
    page.locator("[data-points] button", has_text="Made exactly").tap()
    Phone(page).save_button.tap()
    expect(Phone(page).pending).to_be_visible(timeout=SAVED)

    pending = Phone(other_phone).pending
    expect(pending).to_be_visible(timeout=BY_ITSELF)
    still(other_phone)
    in_sight(other_phone, pending)
    expect(pending.get_by_role("button", name="Confirm as Ben")).to_be_in_viewport()
    screenshot(other_phone, f"to-confirm-on-the-other-phone-{held['width']}", full_page=False)


@HELD
def test_the_phone_that_entered_a_deal_is_not_offered_its_confirmation(
    live_server, page: Page, held, screenshot
):
    """At an event table another phone of the other side confirms: the phone that entered
    the deal, saying it now holds the other side's seat, is told so and offered nothing the
    service refuses."""
    event = running_event()
    game = Table.objects.get(round__event=event, number=1).game
    names = list(game.seats.order_by("number").values_list("name", flat=True))
    page.set_viewport_size(held)
    open_table(page, live_server, game, me=names[0])
    Phone(page).enter_roolz_deal(names[0], 200, 200)
    Phone(page).save("Deal 1 saved")
    page.locator("#identity summary").click()
    page.locator("#identity .seat-pick").get_by_role("button", name=names[1], exact=True).click()
    expect(page.locator("#identity summary")).to_contain_text(names[1])
    pending = Phone(page).pending
    expect(pending).to_contain_text(
        "This phone entered it: a player of the other side confirms it on their own phone"
    )
    expect(pending.get_by_role("button", name=re.compile("^Confirm as"))).to_have_count(0)
    screenshot(page, f"entered-here-no-confirm-{held['width']}", full_page=False)
    assert Round.objects.get(game=game, number=1).status == Round.Status.PENDING
