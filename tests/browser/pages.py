"""Page objects for the browser tests: the steps a player takes, each named once.

A test says what a player does on a table page (``phone.i_am("Ann")``,
``phone.enter_roolz_deal("Ben", 185, 65)``, ``phone.save("Deal 2 saved")``) and waits on
what the page shows or does, never on a length of time: the waits here end on a condition
(no request in flight, the page no longer scrolling, a frame drawn, a check come true).

Under the pages' Content-Security-Policy a string is never evaluated as a script: a
``wait_for_function`` takes an arrow function (``"() => ..."``), not an expression.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, expect

from scoring.models import Game

SAVE_TIMEOUT = 5_000
SAVE = "button.save"


# --------------------------------------------------------------------------- waits


def settle(page: Page) -> None:
    """Until htmx has no request in flight and nothing it swapped is still settling."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def drawn(page: Page) -> None:
    """Until the page has drawn a frame since now (what a script laid out is on screen)."""
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def still(page: Page, *, timeout: float = 5.0) -> None:
    """Until the page no longer scrolls (a scroll by a script or a wheel has come to rest):
    the same position two frames apart."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(
        """() => new Promise(done => {
          const at = [window.scrollX, window.scrollY];
          requestAnimationFrame(() => requestAnimationFrame(() =>
            done(window.scrollX === at[0] && window.scrollY === at[1])));
        })"""
    ):
        if time.monotonic() > deadline:
            raise AssertionError(f"the page still scrolls after {timeout} s")


def until(page: Page, check: Callable[[], Any], *, what: str, timeout: float = 5.0) -> Any:
    """Until ``check()`` (a condition on what the test has seen: a route held, a report
    received) is true, and its value. Playwright's synchronous API hands a test its routes
    and events only while it is waiting on the page, so the page is waited on in between."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        page.wait_for_timeout(25)  # the poll's interval: the wait ends on the check
    return found


# --------------------------------------------------------------------------- the start page


def shoot(page: Page, screenshot, name: str) -> None:
    """The whole page from the top, the sticky bars in their places (by a style sheet of the
    CSSOM: the pages' policy refuses a <style> element)."""
    page.evaluate(
        """() => {
          const sheet = (window.__inPlace = new CSSStyleSheet());
          sheet.replaceSync(".actions, .topbar, .counter { position: static !important; }");
          document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
          window.scrollTo(0, 0);
        }"""
    )
    screenshot(page, name)
    page.evaluate(
        "document.adoptedStyleSheets = document.adoptedStyleSheets"
        ".filter(sheet => sheet !== window.__inPlace)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "wider than the phone"


def start_game(
    page: Page,
    base_url: str,
    *,
    game: str,
    players: list[str],
    options: dict[str, Any] | None = None,
    confirmation: str = "off",
    screenshot=None,
) -> Game:
    """A game started on the start page, as a player starts one; its table page open."""
    page.goto(base_url + "/games/new/")
    page.locator("label.game-choice", has=page.locator(f"input[value='{game}']")).click()
    settle(page)
    count = page.locator("input[name=players]:checked")
    if count.get_attribute("value") != str(len(players)):
        page.locator(
            "label.chip", has=page.locator(f"input[name=players][value='{len(players)}']")
        ).click()
        settle(page)
    for seat, name in enumerate(players):
        page.fill(f"#player-{seat}", name)
    for name, value in (options or {}).items():
        control = page.locator(f"[name='option-{name}']")
        kind = control.first.get_attribute("type")
        if kind == "checkbox":
            control.set_checked(bool(value))
        elif kind == "radio":
            page.locator(
                "label.chip", has=page.locator(f"input[name='option-{name}'][value='{value}']")
            ).click()
        else:
            control.fill(str(value))
            control.dispatch_event("change")
        settle(page)
    page.locator(
        "label.chip", has=page.locator(f"input[name=confirmation][value='{confirmation}']")
    ).click()
    if screenshot:
        shoot(page, screenshot, f"start-{game}")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/"))
    token = page.url.split("/t/")[1].split("/")[0]
    expect(page.locator("#entry")).to_be_visible()
    return Game.objects.get(table_token=token)


# --------------------------------------------------------------------------- a table page


class Phone:
    """A phone on a table page (``/t/<token>/``): the round form, its Save bar, the
    scoreboard, who holds the phone."""

    def __init__(self, page: Page):
        self.page = page

    @classmethod
    def open(cls, page: Page, base_url: str, game: Game) -> Phone:
        page.goto(f"{base_url}/t/{game.table_token}/")
        expect(page.locator("#entry")).to_be_visible()
        return cls(page)

    @property
    def save_button(self) -> Locator:
        return self.page.locator(SAVE)

    @property
    def saved_notice(self) -> Locator:
        return self.page.locator("#entry .notice.ok")

    @property
    def pending(self) -> Locator:
        """A deal on the scoreboard waiting for its confirmation."""
        return self.page.locator("#live .pending")

    def confirm_button(self, name: str) -> Locator:
        return self.pending.get_by_role("button", name=f"Confirm as {name}")

    def confirm_as(self, name: str) -> None:
        """Confirms the deal waiting, as the player ``name``."""
        self.confirm_button(name).click()

    def i_am(self, name: str) -> None:
        """Says who holds the phone ("I am Ann")."""
        self.page.locator("#identity").get_by_role("button", name=f"I am {name}").click()
        expect(self.page.locator("#identity summary")).to_contain_text(name)

    def tap(self, field: str, label: str, scope: str = "") -> None:
        """Taps the chip labelled ``label`` in the fieldset of ``field``."""
        chips = self.page.locator(f"{scope} fieldset[data-field='{field}'] label.chip")
        chips.filter(has_text=re.compile(rf"^\s*{re.escape(label)}\b")).first.click()

    def enter_roolz_deal(self, bidder: str, bid: int, team_a: int) -> None:
        """A deal of Roolz: the bidder tapped, the bid and team A's points typed."""
        self.tap("bidder", bidder)
        self.page.fill("#f-bid", str(bid))
        self.page.fill("#f-won-A", str(team_a))

    def preview_shows(self, text: str) -> None:
        expect(self.page.locator("#preview")).to_contain_text(text, timeout=SAVE_TIMEOUT)

    def save(self, expected: str) -> None:
        """Taps Save and sees the deal saved (``expected``: "Deal 1 saved")."""
        self.save_button.click()
        self.saved(expected)

    def saved(self, expected: str, *, timeout: float = SAVE_TIMEOUT) -> None:
        expect(self.saved_notice).to_contain_text(expected, timeout=timeout)

    def totals(self) -> list[int]:
        """The totals the scoreboard shows, in its order."""
        texts = self.page.locator("#live .standing [data-total]").evaluate_all(
            "els => els.map(e => e.firstChild.textContent.trim())"
        )
        return [int(t.replace("\u2212", "-")) for t in texts]
