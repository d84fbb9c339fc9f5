"""A round refused at the table shows what is wrong where the player looks: the field at
fault marked (and only that field), brought below the top bar and above the Save bar (and
above a number pad held over the form), upright and sideways; the Save bar's count of the
other marked fields says where they are."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.services import game_create
from tests.browser.pages import Phone, still
from tests.browser.test_entry_taps import SIDEWAYS, UPRIGHT, open_table
from tests.browser.test_refusals_in_sight import in_sight

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HELD = pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
REFUSED = 8_000
SHOTS = "errors-in-sight"


def refused(page: Page) -> Locator:
    problem = page.locator("[data-first-problem]")
    expect(problem).to_be_visible(timeout=REFUSED)
    still(page)
    return problem


def clear_of_the_pad(page: Page, target: Locator) -> None:
    """Not under a number pad held over the form (sticky above the Save bar)."""
    box = target.bounding_box()
    assert box is not None
    for pad in page.locator("[data-pad] > .pad:visible").all():
        shown = pad.bounding_box()
        assert shown is not None
        across = shown["x"] < box["x"] + box["width"] and box["x"] < shown["x"] + shown["width"]
        if across and pad.evaluate("el => getComputedStyle(el).position") != "static":
            assert (
                box["y"] + box["height"] <= shown["y"] + 1
                or box["y"] >= shown["y"] + shown["height"] - 1
            ), (box, shown)


def red(locator: Locator) -> bool:
    return locator.evaluate(
        "el => getComputedStyle(el).borderTopColor"
        " === getComputedStyle(document.querySelector('.error') || el).color"
    )


@HELD
def test_a_die_missing_shows_the_dice_below_the_top_bar(live_server, page: Page, held, screenshot):
    page.set_viewport_size(held)
    game = game_create(
        record={"game": "roller_derby", "players": ["Ann", "Ben", "Cat", "Dan"]}
    ).game
    open_table(page, live_server, game)
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="3").tap()
    Phone(page).tap("tricks", "6")
    Phone(page).save_button.tap()
    refused(page)
    expect(page.locator("[data-dice] .field-errors")).to_be_visible()
    missing = page.locator("fieldset.dice").nth(1)
    expect(missing).to_have_class(re.compile(r"\bhas-error\b"))
    expect(page.locator("fieldset.dice").nth(0)).not_to_have_class(re.compile(r"\bhas-error\b"))
    in_sight(page, missing)
    screenshot(page, f"{SHOTS}-derby-die-missing-{held['width']}", full_page=False)


@HELD
def test_roolz_five_with_no_bidder_marks_the_grid_and_uncovers_no_other_row(
    live_server, page: Page, held, screenshot
):
    page.set_viewport_size(held)
    game = game_create(
        record={"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}
    ).game
    open_table(page, live_server, game)
    grid = page.locator("[data-side-grid]")
    expect(grid).to_be_visible()
    page.locator("[data-set=bid][data-value='200']").tap()
    Phone(page).save_button.tap()
    problem = refused(page)
    expect(problem).to_contain_text("Choose the bidder")
    expect(grid).to_have_class(re.compile(r"\bhas-error\b"))
    expect(grid.locator(".field-errors")).to_contain_text("Choose the bidder")
    for chips in page.locator("[data-side-chips]").all():
        expect(chips).to_be_hidden()
    in_sight(page, grid.locator(".field-errors"))
    screenshot(page, f"{SHOTS}-roolz5-no-bidder-{held['width']}", full_page=False)


def where_the_others_are(page: Page) -> dict[str, int]:
    """How many fields marked besides the first are above it and below it on the page."""
    return page.evaluate(
        """() => {
          const form = document.querySelector('form[data-entry]');
          const marked = Array.from(form.querySelectorAll('.has-error, [aria-invalid=true]'))
            .filter(el => el.offsetParent && !el.closest('.actions'));
          const outer = marked.filter(el => !marked.some(o => o !== el && o.contains(el)));
          const first = outer[0].getBoundingClientRect();
          const rest = outer.slice(1).map(el => el.getBoundingClientRect());
          return {above: rest.filter(r => r.bottom <= first.top).length,
                  below: rest.filter(r => r.top >= first.bottom).length};
        }"""
    )


@HELD
def test_the_count_of_other_marked_fields_says_where_they_are(
    live_server, page: Page, held, screenshot
):
    page.set_viewport_size(held)
    game = game_create(record={"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}).game
    open_table(page, live_server, game)
    page.fill("#f-won-A", "400")  # more than the deal's points, and no bidder, no bid
    Phone(page).save_button.tap()
    problem = refused(page)
    more = problem.locator(".more")
    expect(more).to_be_visible()
    others = where_the_others_are(page)
    count = others["above"] + others["below"]
    assert count >= 1, others
    text = more.inner_text()
    if others["below"] and not others["above"]:
        assert "below" in text and "above" not in text, (text, others)
    if others["above"] and not others["below"]:
        assert "above" in text and "below" not in text, (text, others)
    screenshot(page, f"{SHOTS}-roolz-more-marked-{held['width']}", full_page=False)


SLUFF_8 = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@HELD
def test_rook_sluff_tricks_that_do_not_add_up_mark_the_tricks_only_in_sight(
    live_server, page: Page, held, screenshot
):
    page.set_viewport_size(held)
    game = game_create(record={"game": "rook_sluff", "players": SLUFF_8}).game
    open_table(page, live_server, game)
    for seat, bid in enumerate([2, 2, 1, 2, 2, 1, 2, 2]):
        page.fill(f"#f-bids-{seat}", str(bid))
    for team, took in (("A", 6), ("B", 7)):  # 13 of 14
        page.fill(f"#f-team_tricks-{team}", str(took))
        page.locator(f"#f-team_tricks-{team}").dispatch_event("change")
    Phone(page).save_button.tap()
    problem = refused(page)
    expect(problem).to_contain_text(re.compile("tricks add up to 13", re.I))
    bids = page.locator("[data-sluff] [data-bid] input")
    teams = page.locator("[id^=f-team_tricks-]")
    assert bids.count() == 8 and teams.count() == 2
    assert not any(red(box) for box in bids.all()), "a bid marked though the bids are right"
    assert all(red(box) for box in teams.all()), "the teams' tricks not marked"
    # the boxes at fault in view from the first, clear of the pad (the Save bar says why)
    first = page.locator("[data-sluff] [aria-invalid=true]").first
    in_sight(page, first)
    clear_of_the_pad(page, first)
    screenshot(page, f"{SHOTS}-sluff8-tricks-{held['width']}", full_page=False)


@HELD
def test_a_refused_hand_of_eight_leaves_rows_of_players_in_view(
    live_server, page: Page, held, screenshot
):
    """Rummoli at eight, the cards left not given: the boxes at fault are in view, more than
    two players' rows of them, between the top of the screen and the Save bar."""
    from tests.browser.test_table_layout_long_names import LONG_NAMES

    page.set_viewport_size(held)
    game = game_create(record={"game": "rummoli", "players": LONG_NAMES}).game
    open_table(page, live_server, game)
    Phone(page).tap("went_out", LONG_NAMES[0].split()[0])
    Phone(page).save_button.tap()
    refused(page)
    rows = page.evaluate(
        """() => {
          const bar = document.querySelector('.actions').getBoundingClientRect();
          const top = Math.max(0, document.querySelector('.topbar').getBoundingClientRect().bottom);
          return Array.from(document.querySelectorAll('#entry [data-pad-cell]'))
            .filter(c => c.offsetParent).map(c => c.getBoundingClientRect())
            .filter(r => r.top >= top - 1 && r.bottom <= Math.min(bar.top, innerHeight) + 1).length;
        }"""
    )
    screenshot(page, f"{SHOTS}-rummoli8-{held['width']}", full_page=False)
    assert rows > 2, rows
