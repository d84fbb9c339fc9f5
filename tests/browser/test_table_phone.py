"""The table on a phone: a bad connection, other phones saving, the Save bar, endings."""

from __future__ import annotations

import contextlib
import re

import pytest
from django.db.models import F
from playwright.sync_api import Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scoring.models import Confirmation, Game, Round
from scoring.services import Actor, game_create, game_end, round_confirm, round_record
from tests.browser.conftest import lose_the_first_save_answer
from tests.browser.pages import SAVE_TIMEOUT, Phone, settle, start_game, still, until
from tests.browser.test_table_flows import NAMES, roolz_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 4_000  # the scoreboard polls every two seconds
NOT_SAVED = (
    "Not saved yet: no connection. "
    "It is kept on this phone and sent by itself when the connection is back."
)
DERBY_ROUNDS = [
    {"dice": [3, 4], "tricks": 6},
    {"dice": [3, 4], "all_or_nothing": True, "made": False},
    {"dice": [2, 2], "tricks": 4},
]


@pytest.fixture
def console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    return errors


def in_view(page: Page, selector: str) -> dict:
    return page.locator(selector).evaluate(
        "el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }"
    )


# --------------------------------------------------------------------------- a bad connection


def test_saving_without_a_connection_keeps_the_entry(live_server, page: Page, screenshot):
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    key = page.locator("input[name=key]").input_value()

    page.context.set_offline(True)
    Phone(page).save_button.click()
    banner = page.locator("#entry [data-send-error]")
    expect(banner).to_have_text(NOT_SAVED)
    expect(page.locator("[data-offline]")).to_be_visible()
    expect(page.locator("#f-won-A")).to_have_value("220")
    expect(page.locator("#f-bid")).to_have_value("200")
    expect(page.locator("fieldset[data-field=bidder] input[value='0']")).to_be_checked()
    expect(page.locator("input[name=key]")).to_have_value(key)
    expect(Phone(page).save_button).to_be_enabled()
    screenshot(page, "phone-offline-save", full_page=False)
    assert not Round.objects.filter(game=game).exists()

    page.context.set_offline(False)
    Phone(page).save_button.click()
    Phone(page).saved("Deal 1 saved", timeout=SAVE_TIMEOUT)
    expect(page.locator("[data-offline]")).to_be_hidden()
    assert Round.objects.filter(game=game).count() == 1


def test_a_save_whose_answer_was_lost_is_stored_once(live_server, page: Page):
    """The round reached the server but the answer did not reach the phone: tapping Save
    again sends the same key, and the round is stored once."""
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    lost = lose_the_first_save_answer(page)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    Phone(page).save_button.click()
    kept = page.locator("#entry [data-send-error]").filter(has_text=NOT_SAVED)
    saved = page.locator("#entry .notice.ok").filter(has_text="Deal 1 saved")
    # The phone also sends what it kept by itself every few seconds: on a slow machine it may
    # do so before the second tap. Either way the same key goes again.
    expect(kept.or_(saved)).to_be_visible(timeout=SAVE_TIMEOUT)
    assert Round.objects.filter(game=game).count() == 1
    if kept.is_visible():
        deal_one = page.locator("#entry form:has(input[name=number][value='1']) button.save")
        with contextlib.suppress(PlaywrightTimeoutError):  # sent by itself in between
            deal_one.click(timeout=2000)
    expect(saved).to_be_visible(timeout=SAVE_TIMEOUT)
    assert Round.objects.filter(game=game).count() == 1
    assert len(lost) == 1


def test_the_offline_badge_follows_the_scoreboard_poll(live_server, page: Page, screenshot):
    Phone.open(page, live_server.url, roolz_game())
    badge = page.locator("[data-offline]")
    expect(badge).to_be_hidden()
    page.context.set_offline(True)
    expect(badge).to_be_visible(timeout=LIVE)
    expect(badge).to_have_text("offline")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "phone-offline-badge", full_page=False)
    page.context.set_offline(False)
    expect(badge).to_be_hidden(timeout=LIVE)


def test_a_confirmation_without_a_connection_says_so(live_server, page: Page, screenshot):
    game = roolz_game(
        Confirmation.ANY_OTHER_SEAT,
        rounds=[{"bidder": 1, "bid": 180, "won": {"A": 100, "B": 200}}],
    )
    Phone.open(page, live_server.url, game)
    confirm = Phone(page).confirm_button("Ben")
    page.context.set_offline(True)
    confirm.click()
    notice = page.locator("[data-net-error]")
    expect(notice).to_have_text("Not done: no connection. Tap again.")
    screenshot(page, "phone-offline-confirm", full_page=False)
    assert Round.objects.get(game=game).status == Round.Status.PENDING

    page.context.set_offline(False)
    confirm.click()
    expect(Phone(page).pending).to_have_count(0)
    expect(notice).to_be_hidden()
    assert Round.objects.get(game=game).status == Round.Status.CONFIRMED


# --------------------------------------------------------------------------- other phones


def test_a_refresh_arriving_while_typing_keeps_what_was_typed(live_server, page: Page, screenshot):
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    held: list[Route] = []

    def hold_the_fresh_form(route: Route) -> None:
        if route.request.method == "GET":
            held.append(route)
        else:
            route.continue_()

    page.route("**/entry/", hold_the_fresh_form)
    # Another phone saves round 1; this phone's poll sees it and asks for a fresh form,
    # while nothing has been typed yet.
    round_record(
        game=game,
        number=1,
        entry={"bidder": 1, "bid": 180, "won": {"A": 100, "B": 200}},
        actor=Actor(seat=1),
    )
    until(page, lambda: held, what="the fresh form asked for")

    # Typing begins before the fresh form arrives.
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    held[0].continue_()
    expect(page.locator("[data-stale]")).to_be_visible()
    settle(page)
    expect(page.locator("#entry .entry-head h2")).to_have_text("Deal 1")
    expect(page.locator("#f-won-A")).to_have_value("220")
    expect(page.locator("#f-bid")).to_have_value("200")
    page.locator("[data-stale]").scroll_into_view_if_needed()
    screenshot(page, "phone-stale-kept", full_page=False)

    page.unroute("**/entry/")
    Phone(page).save_button.click()
    expect(page.locator("#entry .conflict")).to_contain_text("Deal 1 was already recorded by Ben")
    assert Round.objects.filter(game=game).count() == 1


def test_a_confirmation_elsewhere_leaves_the_typing_alone(live_server, page: Page):
    game = roolz_game(
        Confirmation.ANY_OTHER_SEAT,
        rounds=[{"bidder": 1, "bid": 180, "won": {"A": 100, "B": 200}}],
    )
    Phone.open(page, live_server.url, game)
    expect(Phone(page).pending).to_have_count(1)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    round_confirm(game=game, number=1, actor=Actor(seat=2))
    expect(Phone(page).pending).to_have_count(0, timeout=LIVE)
    settle(page)  # the fresh form asked for by the same change has come, and was left alone
    expect(page.locator("[data-stale]")).to_be_hidden()
    expect(page.locator("#entry .entry-head h2")).to_have_text("Deal 2")
    expect(page.locator("#f-won-A")).to_have_value("220")


def test_a_late_poll_answer_neither_fails_nor_turns_the_scoreboard_back(
    live_server, page: Page, console_errors
):
    page.on("dialog", lambda dialog: dialog.accept())
    game = game_create(record={"game": "roller_derby", "players": NAMES}).game
    for number, entry in enumerate(DERBY_ROUNDS, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    Phone.open(page, live_server.url, game)
    held: list = []

    def answer_late(route: Route) -> None:
        if held:
            route.continue_()
            return
        held.append((route, route.fetch()))  # answered now, delivered after the ending

    page.route("**/live/**", answer_late)
    # The game changes on the server (as when another phone saves): the next poll reports it.
    Game.objects.filter(pk=game.pk).update(revision=F("revision") + 1)
    until(page, lambda: held, what="the poll asking")

    page.get_by_role("button", name="End the game now").click()
    expect(page.locator("#entry .game-over")).to_contain_text("Team B wins")
    route, answer = held[0]
    route.fulfill(response=answer)
    # the late answer has come and gone: the poll has no request in flight
    page.wait_for_function("() => !document.querySelector('[data-live-poll].htmx-request')")
    settle(page)
    expect(page.locator("#live .result")).to_contain_text("Team B wins")
    expect(page.locator("#recent")).to_contain_text("End:")
    assert console_errors == []


# --------------------------------------------------------------------------- the result


def test_the_result_waits_for_the_final_round_to_be_confirmed(live_server, page: Page, screenshot):
    game = roolz_game(Confirmation.ANY_OTHER_SEAT)
    Game.objects.filter(pk=game.pk).update(options={**game.options, "target": 300})
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    Phone(page).i_am("Ann")
    Phone(page).tap("bidder", "Ben")
    page.locator("[data-set=bid][data-value='180']").click()
    Phone(page).tap("all_tricks", "Team B")
    Phone(page).preview_shows("Saving this ends the game")
    assert page.locator("#entry .actions").bounding_box()["height"] <= 0.18 * 844
    screenshot(page, "phone-save-bar-ends-game", full_page=False)
    Phone(page).save_button.click()
    over = page.locator("#entry .game-over")
    expect(over).to_contain_text("Team B wins (Ben & Dan) once deal 1 is confirmed.")
    expect(over.locator("h2")).to_have_text("The last deal is in")
    expect(page.locator("#live .result")).to_contain_text("once deal 1 is confirmed")
    expect(page.locator("#live .is-winner")).to_have_count(0)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "phone-result-waiting", full_page=False)

    Phone(page).confirm_as("Ben")
    expect(page.locator("#live .result")).to_have_text("Team B wins (Ben & Dan).")
    expect(page.locator("#entry .game-over h2")).to_have_text("Game over", timeout=LIVE)


# --------------------------------------------------------------------------- Roolz points


def test_typed_points_are_never_overwritten(live_server, page: Page, screenshot):
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    Phone(page).tap("bidder", "Ben")
    page.fill("#f-bid", "180")
    page.fill("#f-won-A", "210")
    expect(page.locator("#f-won-B")).to_have_value("90")
    page.fill("#f-won-B", "100")
    expect(page.locator("#f-won-A")).to_have_value("210")
    warning = page.locator("[data-won-warning]")
    expect(warning).to_have_text("These add up to 310, not 300: check them before saving.")
    page.locator("fieldset[data-field=won]").scroll_into_view_if_needed()
    screenshot(page, "phone-roolz-points-typed", full_page=False)

    Phone(page).save_button.click()
    expect(page.locator("fieldset[data-field=won] .error")).to_have_text(
        "Points won add up to 310, not 300"
    )
    assert not Round.objects.filter(game=game).exists()

    # Cleared, a side is the rest of 300 again.
    page.fill("#f-won-B", "")
    page.fill("#f-won-A", "200")
    expect(page.locator("#f-won-B")).to_have_value("100")
    expect(page.locator("[data-won-warning]")).to_be_hidden()


# --------------------------------------------------------------------------- endings


def test_an_early_finish_can_be_reopened(live_server, page: Page, screenshot):
    page.on("dialog", lambda dialog: dialog.accept())
    game = game_create(record={"game": "roller_derby", "players": NAMES}).game
    for number, entry in enumerate(DERBY_ROUNDS, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    Phone.open(page, live_server.url, game)
    page.get_by_role("button", name="End the game now").click()
    expect(page.locator("#entry .game-over")).to_contain_text("Ended early")
    # The result comes into view by itself: it is what the table looks for next.
    expect(page.locator("#entry .game-over .result")).to_be_in_viewport(timeout=5000)
    reopen = page.locator("#recent").get_by_role("button", name="Reopen the game")
    expect(reopen).to_be_visible()
    page.locator("#recent").scroll_into_view_if_needed()
    screenshot(page, "phone-derby-reopen-offer", full_page=False)

    reopen.click()
    expect(page.locator("#entry .entry-head h2")).to_have_text("Deal 4")
    expect(page.locator("#entry .offer")).to_contain_text("End the game now")
    game.refresh_from_db()
    assert game.ending == {}
    assert game.status == Game.Status.IN_PROGRESS


def test_rummoli_history_shows_the_leftovers(live_server, page: Page, screenshot):
    game = game_create(record={"game": "rummoli", "players": NAMES}).game
    round_record(
        game=game, number=1, entry={"went_out": 1, "cards_left": [3, 0, 5, 2]}, actor=Actor()
    )
    game_end(game=game, ending={"end": {"leftovers_to": 3}}, actor=Actor())
    page.goto(f"{live_server.url}/t/{game.table_token}/history/")
    end = page.locator("table.history tr.end-row")
    expect(end).to_contain_text("End")
    expect(end).to_contain_text("+32")
    expect(end).to_contain_text("71")
    expect(page.locator("#detail-end h2")).to_have_text("End: 32 chips to Dan")
    screenshot(page, "phone-rummoli-history-end", full_page=False)


# --------------------------------------------------------------------------- starting


def test_back_to_the_start_page_shows_the_setup_again(live_server, page: Page, screenshot):
    start_game(page, live_server.url, game="roller_derby", players=NAMES)
    page.go_back()
    page.wait_for_url(re.compile(r"/games/new/"))
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    expect(page.locator("#player-3")).to_be_visible()
    expect(page.locator("input[name=game][value=roller_derby]")).to_be_checked()
    screenshot(page, "phone-back-to-start", full_page=False)


def test_the_home_page_names_start_their_game(live_server, page: Page):
    page.goto(live_server.url + "/")
    page.locator("#games").get_by_role("link", name="Rook Sluff").click()
    expect(page.locator("input[name=game][value=rook_sluff]")).to_be_checked()
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()


# --------------------------------------------------------------------------- the Save bar


def test_the_save_bar_is_one_line_and_fields_stay_above_it(
    live_server, page: Page, screenshot, console_errors
):
    game = game_create(record={"game": "roller_derby", "players": NAMES}).game
    Phone.open(page, live_server.url, game)
    bar = page.locator("#entry .actions")
    assert bar.bounding_box()["height"] <= 0.15 * 844

    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="3").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="3").click()
    Phone(page).tap("tricks", "6")
    page.locator("details.penalties > summary").click()
    Phone(page).preview_shows("Team B +100")
    assert bar.bounding_box()["height"] <= 0.15 * 844

    # The reason field under the bar comes up above it when it gets the focus.
    page.locator("#f-penalties-0-reason").evaluate(
        "el => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 20)"
    )
    assert (
        in_view(page, "#f-penalties-0-reason")["bottom"] > in_view(page, "#entry .actions")["top"]
    )
    page.focus("#f-penalties-0-reason")
    still(page)
    assert (
        in_view(page, "#f-penalties-0-reason")["bottom"] <= in_view(page, "#entry .actions")["top"]
    )
    screenshot(page, "phone-save-bar-focus", full_page=False)

    # After saving, the scoreboard is in sight (saved once the preview has answered: a
    # save sent over a preview still in flight aborts it, which htmx reports as an error).
    settle(page)
    Phone(page).save_button.click()
    Phone(page).saved("Deal 1 saved")
    still(page)
    top = in_view(page, "#live")["top"]
    assert 0 <= top <= 120
    screenshot(page, "phone-after-save", full_page=False)
    assert console_errors == []


def test_the_preview_and_misdeal_log_nothing(live_server, page: Page, console_errors):
    page.on("dialog", lambda dialog: dialog.accept())
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    page.get_by_role("button", name="Misdeal").click()
    Phone(page).saved("Misdeal recorded")
    settle(page)
    assert console_errors == []


def test_a_missing_sluff_bid_is_outlined(live_server, page: Page, screenshot):
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    game = game_create(record={"game": "rook_sluff", "players": players}).game
    Phone.open(page, live_server.url, game)
    for seat, bid in enumerate([3, 2, 0, 2, 3]):  # Fay's bid missing
        page.fill(f"#f-bids-{seat}", str(bid))
    page.fill("#f-team_tricks-A", "7")
    Phone(page).save_button.click()
    expect(page.locator("#entry .actions [data-first-problem]")).to_have_text(
        "Not saved: Bids: enter a number for Fay."
    )
    fay = page.locator("#f-bids-5")
    expect(fay).to_have_attribute("aria-invalid", "true")
    color = fay.evaluate("el => getComputedStyle(el).borderTopColor")
    assert color == "rgb(179, 38, 30)"  # the error red
    fay.scroll_into_view_if_needed()
    screenshot(page, "phone-sluff-missing-bid", full_page=False)
