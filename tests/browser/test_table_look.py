"""The table page of each game as a phone shows it: light and dark (following the phone's
setting), portrait (390x844) and landscape (844x390). Each screenshot is saved under
test-artifacts/screenshots/look-*.png to be looked at; the checks here are what a look
would catch: nothing wider than the screen, every name whole, the whole preview line,
text readable against its background."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game
from scoring.services import Actor, game_create, round_record
from tests.browser.test_table_in_sight import boxes_in_line, words_whole
from tests.games import GAMES as ALL_GAMES
from tests.games import expected

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
GAMES = {game: expected(game).LOOK for game in ALL_GAMES}


def make(kind: str) -> Game:
    players, rounds = GAMES[kind]
    game = game_create(record={"game": kind, "players": players}).game
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    return game


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def names_whole(page: Page) -> None:
    """No name on a button is cut: every label is as wide and tall as its text."""
    cut = page.evaluate(
        """() => Array.from(document.querySelectorAll(
             '#entry .chip-label, #identity .chip-button, #live .group-title, .sluff-name .name'))
           .filter(el => el.offsetParent && (el.scrollWidth > el.clientWidth + 1
                                             || el.scrollHeight > el.clientHeight + 1))
           .map(el => el.textContent.trim())"""
    )
    assert cut == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_table_page_looks_right(
    live_server, browser, browser_context_args, screenshot, kind, orientation, scheme
):
    viewport = PORTRAIT if orientation == "portrait" else LANDSCAPE
    context = browser.new_context(
        **{**browser_context_args, "viewport": viewport}, color_scheme=scheme
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        game = make(kind)
        page.goto(f"{live_server.url}/t/{game.table_token}/")
        expect(page.locator("#entry form[data-entry]")).to_be_visible()
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(17, 21, 19)") == (scheme == "dark"), background
        no_sideways_scroll(page)
        names_whole(page)
        assert words_whole(page) == []
        boxes_in_line(page)
        screenshot(page, f"look-{kind}-{orientation}-{scheme}", full_page=True)
        screenshot(page, f"look-{kind}-{orientation}-{scheme}-screen", full_page=False)
        page.locator("#entry").scroll_into_view_if_needed()
        page.evaluate("document.querySelector('#entry').scrollIntoView({block: 'start'})")
        screenshot(page, f"look-{kind}-{orientation}-{scheme}-form", full_page=False)
        page.evaluate("window.scrollBy(0, 600)")
        screenshot(page, f"look-{kind}-{orientation}-{scheme}-form2", full_page=False)
        if orientation == "landscape":
            entry = page.locator("#entry").bounding_box()
            live = page.locator("#live").bounding_box()
            assert entry and live and entry["x"] > live["x"] + live["width"] - 1  # side by side
        assert errors == []
    finally:
        context.close()


def test_the_preview_line_shows_every_change_in_full(live_server, page: Page, screenshot):
    """Five players with three-digit totals: every change and every new total is shown."""
    players = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    game = game_create(record={"game": "roolz", "players": players}).game
    rounds = [
        {
            "bidder": 0,
            "bid": 250,
            "partners": [3],
            "won": {"bidder": 300, "opponents": 0},
            "all_tricks": "bidder",
        },
        {"bidder": 1, "bid": 200, "partners": [2], "won": {"bidder": 205, "opponents": 95}},
    ]
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    # Cat bid with Eve as partner: one tap on the bidder-and-partner grid
    page.locator("[data-side-grid] label[data-bidder='2'][data-partner='4']").click()
    page.locator("[data-set=bid][data-value='185']").click()
    page.locator("[data-points] button", has_text="205").click()
    chips = page.locator(".actions .preview .delta-chip")
    expect(chips).to_have_count(5, timeout=8_000)
    bar = page.locator(".actions").bounding_box()
    assert bar is not None
    for index in range(5):
        chip = chips.nth(index)
        expect(chip).to_be_in_viewport()
        box = chip.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert chip.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    screenshot(page, "look-preview-five-players", full_page=False)


def test_the_rules_card_is_one_tap_from_the_table(live_server, page: Page, screenshot):
    for kind in sorted(GAMES):
        game = make(kind)
        page.goto(f"{live_server.url}/t/{game.table_token}/")
        page.locator("#entry").get_by_role("link", name="Rules").click()
        dialog = page.locator("dialog#rules-dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h1")).to_contain_text("the rules in short")
        screenshot(page, f"look-rules-{kind}", full_page=False)
        dialog.get_by_role("button", name="Close the rules").click()
        expect(dialog).to_be_hidden()
