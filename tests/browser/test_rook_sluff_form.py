"""Rook Sluff's deal form on a phone, upright (390x844) and sideways (844x390), light and
dark, at 6, 8 and 10 players with the longest names: no name breaks inside a word and
all are one size, nothing scrolls sideways, the pad never covers the box being filled,
and a refused deal (13 tricks where there are 14) marks only the boxes at fault, its
message in sight below the top bar and above the pad and the Save bar.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Round
from scoring.services import game_create
from tests.browser.pages import Phone, settle
from tests.games import LONG_NAME

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UPRIGHT = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}
SAVED = 8_000

# The longest names a table takes (40 characters), each different, hyphens and all.
LONG_NAMES = [
    LONG_NAME,
    "Fetherstonhaugh Pemberton-Wolstenholme",
    "Bartholomew Featherstonehaugh-Smythe",
    "Maximiliana Cholmondeley-Marjoribanks",
    "Wolstenholme Throckmorton-Fitzwilliam",
    "Christabella Montgomery-Worthington",
    "Aurelianus Knatchbull-Hugessen Pryce",
    "Constantina Bartholomew-Fitzgerald Lee",
    "Ermintrude Ravenscroft-Cavendish Howe",
    "Hieronymus Quatermaine-Beauchamp Vance",
]

# Every name's words are whole on one line, and every name is drawn at one size.
NAMES_WHOLE = """() => {
  const found = [];
  const sizes = new Set();
  document.querySelectorAll("[data-sluff] .sluff-name .name").forEach(el => {
    sizes.add(getComputedStyle(el).fontSize);
    const text = el.firstChild;
    const range = document.createRange();
    const words = /[^\\s-]+-?/g;
    let word;
    while ((word = words.exec(text.data))) {
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = Array.from(range.getClientRects(), r => Math.round(r.top));
      if (new Set(lines).size > 1) found.push(word[0]);
    }
    const column = el.closest(".sluff-name").getBoundingClientRect();
    range.selectNodeContents(text);
    const right = Math.max(...Array.from(range.getClientRects(), r => r.right));
    if (right > column.right + 1) found.push("spills: " + text.data);
  });
  if (sizes.size !== 1) found.push("sizes " + Array.from(sizes).join(", "));
  return found;
}"""

# The box in hand: on screen, below the top bar and the counter, clear of the pad and the
# Save bar.
IN_HAND_IN_SIGHT = """() => {
  const cell = document.querySelector("[data-sluff] [data-pad-cell].is-current");
  if (!cell) return true;
  const box = cell.getBoundingClientRect();
  const apart = (a, b) => a.bottom <= b.top + 1 || b.bottom <= a.top + 1
    || a.right <= b.left + 1 || b.right <= a.left + 1;
  const over = [document.querySelector("[data-sluff] .pad"), document.querySelector(".actions"),
                document.querySelector("[data-sluff] .counter")];
  return box.top >= 0 && box.bottom <= window.innerHeight
    && over.every(el => !el || apart(box, el.getBoundingClientRect()));
}"""

TEAMS_CLEAR_OF_THE_PAD = """() => {
  const row = document.querySelector("[data-sluff] .team-took-row").getBoundingClientRect();
  const pad = document.querySelector("[data-sluff] .pad").getBoundingClientRect();
  return row.bottom <= pad.top + 1 || row.right <= pad.left + 1;
}"""

# A box of a message: on screen, below the top bar, clear of the pad and the Save bar.
SHOWN_CLEAR = """el => {
  const box = el.getBoundingClientRect();
  const apart = (a, b) => a.bottom <= b.top + 1 || b.bottom <= a.top + 1
    || a.right <= b.left + 1 || b.right <= a.left + 1;
  const topbar = document.querySelector(".topbar").getBoundingClientRect();
  const over = [document.querySelector("[data-sluff] .pad"), document.querySelector(".actions")];
  const problems = [];
  if (box.top < Math.max(0, topbar.bottom) - 1) problems.push("above the screen " + box.top);
  if (box.bottom > window.innerHeight + 1) problems.push("below the screen " + box.bottom);
  over.forEach(other => {
    const under = other && !apart(box, other.getBoundingClientRect());
    if (under) problems.push("under " + other.className);
  });
  return problems;
}"""

RED = "rgb(179, 38, 30)"


def open_sluff(page: Page, live_server, players: int, viewport: dict[str, int], scheme: str):
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme=scheme)
    game = game_create(record={"game": "rook_sluff", "players": LONG_NAMES[:players]}).game
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(page.locator("#entry form[data-entry]")).to_be_visible()
    return game


def tap_bids(page: Page, bids: list[int]) -> None:
    """From the dealer's left (seat 0 deals), each box in hand in sight as it is filled."""
    pad = page.locator("[data-sluff] .pad")
    for seat in [*range(1, len(bids)), 0]:
        pad.get_by_role("button", name=str(bids[seat]), exact=True).tap()
        page.wait_for_function(IN_HAND_IN_SIGHT, timeout=10_000)


def shot(page: Page, screenshot, name: str) -> None:
    settle(page)
    screenshot(page, name, full_page=False)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("held", ["upright", "sideways"])
@pytest.mark.parametrize("players", [6, 8, 10])
def test_long_names_stay_whole_and_the_pad_never_covers_the_box_in_hand(
    live_server, page: Page, screenshot, players, held, scheme
):
    viewport = UPRIGHT if held == "upright" else SIDEWAYS
    open_sluff(page, live_server, players, viewport, scheme)
    name = f"sluff-{players}-{held}-{scheme}"
    page.locator("[data-sluff]").evaluate("el => el.scrollIntoView({block: 'start'})")
    shot(page, screenshot, f"{name}-1-empty")
    assert page.evaluate(NAMES_WHOLE) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width

    bids = [2 if players < 10 else 1] * players
    bids[2] = 0
    tap_bids(page, bids)
    shot(page, screenshot, f"{name}-2-bids")
    took = page.get_by_label(f"{LONG_NAMES[2]}'s Sluff took a trick")
    took.locator("xpath=..").tap()
    expect(took).to_be_checked()
    assert page.evaluate(NAMES_WHOLE) == []  # a Sluff's row too
    shot(page, screenshot, f"{name}-3-took-a-trick")
    # the pad fills team A's tricks, wherever the page was scrolled to
    page.locator("[data-sluff] .pad").get_by_role("button", name="6", exact=True).tap()
    expect(page.locator("#preview .delta-chip").first).to_be_visible(timeout=SAVED)
    # every box filled: the teams' boxes, filled last, are not under the pad
    page.wait_for_function(TEAMS_CLEAR_OF_THE_PAD, timeout=10_000)
    shot(page, screenshot, f"{name}-4-filled")


@pytest.mark.parametrize("held", ["upright", "sideways"])
@pytest.mark.parametrize("players", [8, 10])
def test_thirteen_tricks_mark_the_team_boxes_only_with_the_message_in_sight(
    live_server, page: Page, screenshot, players, held
):
    viewport = UPRIGHT if held == "upright" else SIDEWAYS
    game = open_sluff(page, live_server, players, viewport, "light")
    total = 11 if players == 10 else 14
    tap_bids(page, [1] * players)
    pad = page.locator("[data-sluff] .pad")
    pad.get_by_role("button", name="6", exact=True).tap()
    page.locator("#f-team_tricks-B").tap()  # one fewer than the rest, by hand
    pad.get_by_role("button", name=str(total - 7), exact=True).tap()
    Phone(page).save_button.tap()
    message = page.locator("#e-team_tricks")
    expect(message).to_contain_text(f"add up to {total - 1}", timeout=SAVED)
    page.wait_for_function(
        "el => { const b = el.getBoundingClientRect(); return b.bottom <= window.innerHeight; }",
        arg=message.element_handle(),
        timeout=10_000,
    )
    settle(page)
    screenshot(page, f"sluff-{players}-{held}-thirteen-tricks", full_page=False)
    assert message.evaluate(SHOWN_CLEAR) == []
    for team in ("A", "B"):
        box = page.locator(f"#f-team_tricks-{team}")
        assert box.evaluate("el => getComputedStyle(el).borderTopColor") == RED, team
    for seat in range(players):
        box = page.locator(f"#f-bids-{seat}")
        assert box.evaluate("el => getComputedStyle(el).borderTopColor") != RED, seat
        expect(box).not_to_have_attribute("aria-invalid", "true")
    assert not Round.objects.filter(game=game).exists()


@pytest.mark.parametrize("held", ["upright", "sideways"])
def test_a_deal_recorded_per_player_is_corrected_from_its_team_totals(
    live_server, page: Page, screenshot, held
):
    """A deal recorded per player (as every record before) opens for correction as its team
    totals and its Sluff that took a trick; the players' rows are in sight, not under the
    pad; a corrected bid saves the deal per team, scoring as the rules say."""
    viewport = UPRIGHT if held == "upright" else SIDEWAYS
    page.set_viewport_size(viewport)
    bids = [2, 2, 0, 2, 1, 2, 2, 2]
    tricks = [3, 2, 2, 2, 1, 2, 1, 1]  # A 7, B 7; the third player sluffed and took 2
    game = game_create(
        record={
            "game": "rook_sluff",
            "players": LONG_NAMES[:8],
            "rounds": [{"bids": bids, "tricks": tricks}],
        }
    ).game
    page.goto(f"{live_server.url}/t/{game.table_token}/rounds/1/correct/")
    expect(page.locator("#correct-form form")).to_be_visible()
    expect(page.locator("#f-team_tricks-A")).to_have_value("7")
    expect(page.locator("#f-team_tricks-B")).to_have_value("7")
    expect(page.get_by_label(f"{LONG_NAMES[2]}'s Sluff took a trick")).to_be_checked()
    page.locator("#f-bids-0").scroll_into_view_if_needed()
    settle(page)
    assert page.evaluate(NAMES_WHOLE) == []
    covered = page.evaluate(
        """() => {
          const pad = document.querySelector("[data-sluff] .pad").getBoundingClientRect();
          return Array.from(document.querySelectorAll("[data-sluff] .sluff-row"))
            .map(row => row.getBoundingClientRect())
            .filter(box => box.bottom > 0 && box.top < window.innerHeight)
            .filter(box => !(box.bottom <= pad.top + 1 || box.right <= pad.left + 1)).length;
        }"""
    )
    screenshot(page, f"sluff-8-{held}-correction", full_page=False)
    assert covered <= 1, covered  # a row sliding under the pad's edge, never every row
    page.locator("#f-bids-4").tap()
    page.locator("[data-sluff] .pad").get_by_role("button", name="2", exact=True).tap()
    Phone(page).save_button.tap()
    expect(page.locator("#corrected")).to_contain_text("Deal 1 corrected", timeout=SAVED)
    entry = Round.objects.get(game=game, number=1).entry
    assert entry == {
        "bids": [2, 2, 0, 2, 2, 2, 2, 2],
        "team_tricks": {"A": 7, "B": 7},
        "failed_sluffs": [2],
    }
