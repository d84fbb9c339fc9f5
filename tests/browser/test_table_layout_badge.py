"""The BID badge reads as the bidding side's: first on the bidding side's own label, inside
its framed box, never at the far end of its cell beside the next side's name, at every
player count of Roolz, upright and sideways, with long names."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.services import game_create
from tests.browser.pages import Phone
from tests.browser.test_entry_taps import SIDEWAYS, UPRIGHT, open_table
from tests.browser.test_table_layout_long_names import LONG_NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHORT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]

BADGE = """() => {
  const side = document.querySelector('[data-points] .won-side.is-bidding');
  if (!side) return null;
  const label = side.querySelector('label');
  const before = getComputedStyle(label, '::before');
  const name = side.querySelector('.side-name').getBoundingClientRect();
  const box = side.getBoundingClientRect();
  const others = Array.from(document.querySelectorAll('[data-points] .won-side'))
    .filter(s => s !== side).map(s => s.getBoundingClientRect());
  const at = label.getBoundingClientRect();
  return {
    content: before.content, text: side.querySelector('.side-name').textContent,
    badgeRoom: name.left - at.left, nameTop: name.top - at.top,
    inside: at.left >= box.left - 0.5 && at.right <= box.right + 0.5
            && at.top >= box.top - 0.5 && at.bottom <= box.bottom + 0.5,
    apart: others.every(o => o.right <= box.left + 0.5 || o.left >= box.right - 0.5
                             || o.bottom <= box.top + 0.5 || o.top >= box.bottom - 0.5),
    framed: getComputedStyle(side).borderTopColor !== 'rgba(0, 0, 0, 0)',
  };
}"""


@pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
@pytest.mark.parametrize("count", [3, 4, 5, 6])
@pytest.mark.parametrize("names", [SHORT, LONG_NAMES], ids=["short", "long"])
def test_the_bid_badge_sits_first_in_the_bidding_sides_box(
    live_server, page: Page, held, count, names, screenshot
):
    page.set_viewport_size(held)
    players = names[:count]
    game = game_create(record={"game": "roolz", "players": players}).game
    open_table(page, live_server, game)
    if page.locator("[data-side-grid]").is_visible():
        page.locator("[data-side-grid] label.pay-cell[data-bidder='0']").first.tap()
    else:
        Phone(page).tap("bidder", players[0])
    side = page.locator("[data-points] .won-side.is-bidding")
    expect(side).to_have_count(1)
    badge = page.evaluate(BADGE)
    assert badge is not None
    assert badge["content"] == '"bid"', badge
    # the badge before the side's name on its first line, or on a line of its own over it
    beside = badge["badgeRoom"] >= 16 and badge["nameTop"] <= 6
    over = badge["nameTop"] >= 10
    assert beside or over, badge
    assert badge["inside"] and badge["apart"] and badge["framed"], badge
    side.scroll_into_view_if_needed()
    screenshot(page, f"layout-bid-badge-{count}-{names[0][:3]}-{held['width']}", full_page=False)
