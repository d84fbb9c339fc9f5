"""What a phone at the table shows after each touch is in sight and says what happened:
a clash between two phones, a round waiting in the outbox, a number typed beside the pad,
boxes and pads clear of the Save bar, long names, a request asked of the other side, a
correction saved, a busy venue's address refused for a while."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Confirmation, Game, Round
from scoring.services import Actor, game_create, round_record
from tests.browser.pages import Phone, still
from tests.browser.test_entry_taps import SIDEWAYS, UPRIGHT, open_table
from tests.browser.test_rematch import DERBY_ROUNDS
from tests.browser.test_table_flows import NAMES, roolz_game
from tests.games import GAMES, expected, samples

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVED = 8_000
BY_ITSELF = 15_000
SAMPLES = {game: samples(game).sample_record for game in GAMES}
ROUND_1 = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}


@pytest.fixture
def other_phone(browser, browser_context_args):
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def in_view_clear_of_the_bar(page: Page, selector: str) -> None:
    """On screen, below the top of the page's view and above the Save bar, without a swipe."""
    box = page.locator(selector).first.bounding_box()
    bar = page.locator(".actions").bounding_box()
    assert box is not None and bar is not None
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= bar["y"] + 1, (box, bar)


def fits_the_screen(page: Page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


NAMES_SHOWN = "#live .group-title, #live .person, #entry [data-fit-words]"


def words_whole(page: Page, names: str = NAMES_SHOWN) -> list[str]:
    """The words of the names shown (on the scoreboard and beside the round form's boxes)
    that are broken across lines: a name breaks at its spaces and after its hyphens, never
    inside a word."""
    return page.evaluate(
        """names => Array.from(document.querySelectorAll(names))
          .filter(el => el.offsetParent && el.firstChild && el.firstChild.nodeType === 3)
          .flatMap(el => Array.from(el.firstChild.data.matchAll(/[^\\s-]+-?/g)).filter(m => {
              const range = document.createRange();
              range.setStart(el.firstChild, m.index);
              range.setEnd(el.firstChild, m.index + m[0].length);
              const lines = new Set(Array.from(range.getClientRects(), r => Math.round(r.top)));
              return lines.size > 1;
          }).map(m => m[0]))""",
        names,
    )


def boxes_in_line(page: Page) -> None:
    """The boxes of a row of per-player boxes start at one height, whatever lines their
    names take above them."""
    rows = page.locator("#entry .per-grid").evaluate_all(
        """grids => grids.filter(g => g.offsetParent).map(grid => {
            const tops = {};
            grid.querySelectorAll(':scope > * input').forEach(input => {
                const cell = input.closest('.per-grid > *').getBoundingClientRect();
                const row = Math.round(cell.top);
                (tops[row] = tops[row] || []).push(Math.round(input.getBoundingClientRect().top));
            });
            return Object.values(tops).map(t => Math.max(...t) - Math.min(...t));
        })"""
    )
    assert all(spread <= 1 for grid in rows for spread in grid), rows


# --------------------------------------------------------------------------- 1, 2


def test_two_phones_queueing_the_same_deal_offline_show_the_clash_in_sight(
    live_server, page: Page, other_phone: Page, screenshot
):
    game = roolz_game()
    for phone, bidder in ((page, "Ann"), (other_phone, "Ben")):
        open_table(phone, live_server, game)
        phone.context.set_offline(True)
        phone.locator("fieldset[data-field='bidder'] label.chip", has_text=bidder).first.tap()
        phone.locator("[data-set=bid][data-value='200']").tap()
        phone.locator("[data-points] button", has_text="Made exactly").tap()
        Phone(phone).save_button.tap()
        outbox = phone.locator("[data-outbox]")
        expect(outbox).to_be_visible()
        # the round itself, never the preview's placeholder
        what = outbox.locator("[data-outbox-what]")
        expect(what).to_contain_text(f"Deal 1: Bidder: {bidder}")
        expect(what).to_contain_text("Bid: 200")
        expect(what).not_to_contain_text("The scores show here")
        expect(what).not_to_contain_text("No preview")

    page.context.set_offline(False)
    Phone(page).saved("Deal 1 saved", timeout=BY_ITSELF)
    other_phone.context.set_offline(False)
    clash = other_phone.locator("#entry .conflict")
    expect(clash).to_contain_text("Yours was not saved", timeout=BY_ITSELF)
    expect(clash).to_be_in_viewport()
    expect(other_phone.locator("#entry button.save")).to_be_hidden()
    expect(clash.get_by_role("button", name="Discard mine and go on")).to_be_visible()
    screenshot(other_phone, "clash-in-sight", full_page=False)
    assert Round.objects.get(game=game, number=1).entry["bidder"] == 0


# --------------------------------------------------------------------------- 4


def test_a_number_typed_beside_the_pad_is_kept_and_the_next_tap_fills_the_next_box(
    live_server, page: Page
):
    game = game_create(record={"game": "rummoli", "players": NAMES}).game
    open_table(page, live_server, game)
    # Scrolled to the end of the hand first, as a player does: the pad settles above the
    # Save bar once its boxes come near the screen, before the first tap.
    page.locator("[data-end-of-hand]").scroll_into_view_if_needed()
    expect(page.locator("[data-end-of-hand] [data-pad]")).not_to_have_attribute("data-pad-far", "")
    pad = page.locator("[data-end-of-hand] .pad")
    pad.get_by_role("button", name="3", exact=True).tap()  # Ann
    expect(pad.locator("[data-pad-label]")).to_have_text("Ben's cards left")
    page.locator("[data-end-of-hand] [data-pad-keypad]").tap()  # Ben's box, typed
    expect(page.locator("#f-cards_left-1")).to_be_focused()
    page.keyboard.type("16")
    pad.get_by_role("button", name="4", exact=True).tap()  # meant for Cat
    expect(page.locator("#f-cards_left-1")).to_have_value("16")
    expect(page.locator("#f-cards_left-2")).to_have_value("4")


# --------------------------------------------------------------------------- 5, 7


@pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
def test_the_roolz_points_pad_is_in_reach_after_the_bid(live_server, page: Page, held, screenshot):
    page.set_viewport_size(held)
    game = roolz_game()
    open_table(page, live_server, game)
    page.locator("fieldset[data-field='bidder'] label.chip", has_text="Ben").first.tap()
    page.locator("[data-set=bid][data-value='250']").tap()
    expect(page.locator("#preview")).to_contain_text("Not complete yet", timeout=SAVED)
    still(page)
    in_view_clear_of_the_bar(page, "[data-points] .made")
    in_view_clear_of_the_bar(page, "[data-points] .pad-grid")
    # every pad button's label fits inside it
    spilled = page.evaluate(
        """() => Array.from(document.querySelectorAll('.pad-grid button, .pad-keys button, .made'))
          .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim())"""
    )
    assert spilled == []
    screenshot(page, f"roolz-points-after-bid-{held['width']}", full_page=False)


@pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
def test_no_pad_button_label_spills_out(live_server, page: Page, held):
    page.set_viewport_size(held)
    game = game_create(record={"game": "rummoli", "players": NAMES}).game
    open_table(page, live_server, game)
    spilled = page.evaluate(
        """() => Array.from(document.querySelectorAll('.pad-keys button'))
          .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim())"""
    )
    assert spilled == []


# --------------------------------------------------------------------------- 6


@pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
@pytest.mark.parametrize("kind", GAMES)
def test_long_names_keep_the_totals_on_the_screen(live_server, page: Page, held, kind, screenshot):
    page.set_viewport_size(held)
    long = ["Christopher", "Bartholomew", "Maximiliana", "Wilhelmina", "Constantine", "Evangeline"]
    count = expected(kind).LONG_NAMES_PLAYERS
    record = SAMPLES[kind](rounds=2, seed=1, players=count)
    record["players"] = long[:count]
    game = game_create(record=record).game
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(page.locator("#live [data-total]").first).to_be_visible()
    fits_the_screen(page)
    for total in page.locator("#live [data-total]").all():
        box = total.bounding_box()
        assert box is not None and box["x"] + box["width"] <= held["width"], box
    assert words_whole(page) == []
    boxes_in_line(page)
    screenshot(page, f"long-names-{kind}-{held['width']}")
    page.goto(f"{live_server.url}/t/{game.table_token}/rounds/1/correct/")
    expect(page.locator("#correct-form form")).to_be_visible()
    fits_the_screen(page)
    assert words_whole(page, "#correct-form [data-fit-words]") == []
    screenshot(page, f"long-names-{kind}-{held['width']}-correct")


def test_long_names_are_fitted_again_when_the_screen_changes(live_server, page: Page):
    """A wider screen can show narrower columns (more of them to a row): the names are
    fitted again when its width changes (a phone or tablet turned, a window resized)."""
    page.set_viewport_size(UPRIGHT)
    record = SAMPLES["rummoli"](rounds=2, seed=1, players=6)
    record["players"] = ["Christopher", "Bartholomew", "Maximiliana", "Ann", "Ben", "Cat"]
    record.pop("end", None)  # still played: the next hand's form is open
    game = game_create(record=record).game
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(page.locator("#entry [data-pay-grid]")).to_be_visible()
    assert words_whole(page) == []
    page.set_viewport_size({"width": 500, "height": 900})  # four boxes to a row, not three
    # a frame drawn after the change: its resize event has been handled by then
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    assert words_whole(page) == []


# --------------------------------------------------------------------------- 8


def test_asking_to_undo_shows_the_request_in_sight(live_server, page: Page, screenshot):
    game = roolz_game(Confirmation.OTHER_SIDE)
    round_record(game=game, number=1, entry=ROUND_1, actor=Actor(seat=0))
    Round.objects.filter(game=game).update(status=Round.Status.CONFIRMED)
    open_table(page, live_server, game, me="Ann")
    page.wait_for_load_state("networkidle")
    ask = page.locator("#recent").get_by_role("button", name="Ask to undo deal 1")
    ask.scroll_into_view_if_needed()
    ask.click()
    request = page.locator("#live [data-change-request]")
    expect(request).to_contain_text("undo", timeout=SAVED)
    expect(request).to_be_in_viewport()
    screenshot(page, "asked-to-undo", full_page=False)


def test_asking_to_end_early_shows_the_request_and_offers_it_no_more(
    live_server, page: Page, screenshot
):
    game = game_create(
        record={"game": "roller_derby", "players": NAMES, "first_dealer": 2},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    for number, entry in enumerate(DERBY_ROUNDS, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    Round.objects.filter(game=game).update(status=Round.Status.CONFIRMED)
    open_table(page, live_server, game, me="Ben")
    page.wait_for_load_state("networkidle")
    ask = page.get_by_role("button", name="Ask to end the game now")
    ask.scroll_into_view_if_needed()
    ask.click()
    request = page.locator("#live [data-change-request]")
    expect(request).to_be_visible(timeout=SAVED)
    expect(request).to_be_in_viewport()
    expect(page.get_by_role("button", name="Ask to end the game now")).to_have_count(0)
    page.reload()
    expect(page.locator("#live [data-change-request]")).to_be_visible()
    expect(page.get_by_role("button", name="Ask to end the game now")).to_have_count(0)
    screenshot(page, "asked-to-end-early", full_page=False)


# --------------------------------------------------------------------------- 10


def test_a_correction_saved_says_so_in_sight(live_server, page: Page, screenshot):
    game = roolz_game(rounds=[ROUND_1, {"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}}])
    page.goto(f"{live_server.url}/t/{game.table_token}/rounds/1/correct/")
    page.fill("#f-won-A", "")
    page.fill("#f-won-A", "200")
    page.fill("#f-won-B", "100")
    Phone(page).save_button.click()
    notice = page.locator("#corrected")
    expect(notice).to_contain_text("Deal 1 corrected", timeout=SAVED)
    expect(notice).to_be_in_viewport()
    screenshot(page, "correction-saved", full_page=False)
    assert Round.objects.get(game=game, number=1).entry["won"] == {"A": 200, "B": 100}


# --------------------------------------------------------------------------- 12, 13


def test_a_busy_address_is_told_when_to_try_again_and_keeps_the_names(
    live_server, page: Page, settings, screenshot
):
    settings.TABLESCORE_RATES = {**settings.TABLESCORE_RATES, "games": "0/h"}
    names = ["Ann", "Ben", "Cat", "Dan"]
    query = "&".join(f"player-{seat}={name}" for seat, name in enumerate(names))
    page.goto(f"{live_server.url}/games/new/?game=roolz&players=4&{query}")
    page.locator("#player-3").fill("Dora")
    page.locator("button.start").click()
    notice = page.locator("[data-net-error]")
    expect(notice).to_contain_text("Too many requests", timeout=SAVED)
    expect(notice).to_have_text(re.compile(r"Try again (in \d+ (seconds|minutes)|at \d)"))
    expect(notice).to_be_in_viewport()
    assert page.url.split("?")[0].endswith("/games/new/")
    expect(page.locator("#player-3")).to_have_value("Dora")
    expect(page.locator("#player-0")).to_have_value("Ann")
    screenshot(page, "busy-address", full_page=False)
    assert not Game.objects.exists()


def test_a_recent_game_starts_again_in_one_tap(live_server, page: Page):
    old = game_create(
        record={"game": "roller_derby", "players": NAMES, "options": {"deals": 8}},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    open_table(page, live_server, old, me="Cat")
    page.goto(f"{live_server.url}/games/new/")
    again = page.locator(".recent-tables [data-again]").first
    expect(again).to_be_in_viewport()
    expect(again).to_contain_text("Ben deals first")
    again.tap()
    page.wait_for_url(lambda url: old.table_token not in url and "/t/" in url, timeout=SAVED)
    new = Game.objects.exclude(pk=old.pk).get()
    assert list(new.seats.values_list("name", flat=True)) == NAMES
    assert new.options["deals"] == 8
    assert (new.confirmation, new.first_dealer) == (Confirmation.OTHER_SIDE, 1)
    expect(page.locator("#identity")).to_contain_text("Cat")  # this phone keeps its seat


def test_players_from_a_recent_game_leave_start_in_reach(live_server, page: Page):
    old = game_create(record={"game": "rummoli", "players": NAMES}).game
    open_table(page, live_server, old)
    page.goto(f"{live_server.url}/games/new/")
    page.locator(".recent-tables .recent-change").first.click()
    expect(page.locator("#player-0")).to_have_value("Ann")
    expect(page.locator("button.start")).to_be_in_viewport()
