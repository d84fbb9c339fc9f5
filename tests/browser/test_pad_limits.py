"""A pad offers only the values possible at that table: Rummoli's cards left go up to the
largest hand the deal gives (11 at four players, 6 at eight), each box says so, and a
count typed past it keeps the hand from saving itself when the pad fills the last box."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Round
from scoring.services import game_create
from tests.browser.test_entry_taps import (
    PAST_THE_COUNTDOWN,
    RUMMOLI_PLAYERS,
    UPRIGHT,
    enter_a_rummoli_hand,
    not_counting_down,
    open_table,
    time_passes,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.mark.parametrize(("players", "largest"), [(RUMMOLI_PLAYERS, 11), (EIGHT, 6)])
def test_the_cards_left_pad_offers_only_what_the_deal_allows(
    live_server, page: Page, players: list[str], largest: int, tmp_path
):
    page.set_viewport_size(UPRIGHT)
    game = game_create(record={"game": "rummoli", "players": players}).game
    open_table(page, live_server, game)
    block = page.locator("[data-end-of-hand]")
    offered = block.locator(".pad [data-pad-value]")
    expect(offered).to_have_count(largest + 1)
    assert offered.evaluate_all("els => els.map(el => el.dataset.padValue)") == [
        str(value) for value in range(largest + 1)
    ]
    boxes = block.locator("[data-pad-cell]")
    expect(boxes).to_have_count(len(players))
    assert set(boxes.evaluate_all("els => els.map(el => el.max)")) == {str(largest)}
    block.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"rummoli-pad-{len(players)}.png"))


def test_a_count_typed_past_the_largest_hand_saves_nothing_by_itself(live_server, page: Page):
    page.set_viewport_size(UPRIGHT)
    page.clock.install()
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    touches = open_table(page, live_server, game)
    enter_a_rummoli_hand(page, touches, last=False)  # Ann 3, Cat 5; Dan's box in hand
    ann = page.locator("#f-cards_left-0")
    ann.tap()
    page.locator("[data-end-of-hand] [data-pad-keypad]").tap()
    expect(ann).to_be_focused()
    page.keyboard.type("14")  # no hand of four players' deal holds more than 11
    page.locator("[data-end-of-hand] .pad").get_by_role("button", name="2", exact=True).tap()
    expect(page.locator("#f-cards_left-3")).to_have_value("2")
    not_counting_down(page)
    time_passes(page, PAST_THE_COUNTDOWN)
    assert not Round.objects.filter(game=game).exists()
