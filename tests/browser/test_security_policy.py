"""Every page and its scripts work under the site's Content-Security-Policy and
Permissions-Policy, in Chromium at phone size.

Every `securitypolicyviolation` event of every page, every console message about the
policies and every refusal of htmx to evaluate is recorded while a deal of each game is
played on the table page, the desk runs a round, and an event's public pages and its
projector follow the results; none may happen, and the pages must do their work (the
deal saved, the live parts brought up to date, the service worker registered).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import BrowserContext, Page, expect

from scoring.models import Game, Round
from scoring.services import Actor, round_record
from tests.browser.pages import Phone, drawn, settle, start_game, until
from tests.scoring.factories import new_game
from tests.tournaments.helpers import play_table
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW = 15_000  # two cores shared by many browsers: generous, never a sleep

WATCH = """
(() => {
  const report = (kind, detail) =>
    window.__policyReport({ kind, page: location.pathname, ...detail });
  document.addEventListener("securitypolicyviolation", (event) => report("violation", {
    directive: event.effectiveDirective, blocked: event.blockedURI,
    source: event.sourceFile, line: event.lineNumber, sample: event.sample,
  }));
  for (const name of ["htmx:evalDisallowedError", "htmx:syntax:error", "htmx:eventFilter:error"]) {
    document.addEventListener(name, (event) => report(name, {
      element: event.target && event.target.outerHTML ? event.target.outerHTML.slice(0, 200) : "",
    }));
  }
})();
"""
POLICY_WORDS = re.compile(r"Content.Security.Policy|Permissions.Policy|Feature.Policy|Refused to")


@pytest.fixture
def watched(context: BrowserContext) -> list[dict]:
    """Everything the policies refused on any page of this browser, as it happens."""
    seen: list[dict] = []
    context.expose_binding("__policyReport", lambda source, detail: seen.append(detail))
    context.add_init_script(WATCH)

    def console(message) -> None:
        if POLICY_WORDS.search(message.text):
            seen.append({"kind": "console", "type": message.type, "text": message.text})

    context.on("console", console)
    context.set_default_timeout(SLOW)
    return seen


def the_watch_sees(page: Page, seen: list[dict]) -> None:
    """The watch itself works: a style attribute written into a page of the site (in a tab
    of its own) is refused, and reported (then forgotten)."""
    other = page.context.new_page()
    other.goto(page.url)
    other.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    kinds = {"violation", "console"}
    # both reports are on their way: the event, and Chromium's log line
    until(other, lambda: kinds <= {s["kind"] for s in seen}, what="both reports", timeout=10)
    assert "style-src-attr" in [s.get("directive") for s in seen if s["kind"] == "violation"]
    assert any("style-src" in s.get("text", "") for s in seen if s["kind"] == "console")
    other.close()
    seen.clear()


def no_refusal(page: Page, seen: list[dict]) -> None:
    """Let what the page started finish (its requests, a frame drawn, the reports sent
    before it), then: nothing was refused."""
    settle(page)
    drawn(page)
    assert seen == []


def service_worker_registered(page: Page) -> None:
    page.wait_for_function(
        "() => (navigator.serviceWorker.getRegistration('/').then(r => { window.__sw = !!(r && "
        "(r.active || r.waiting || r.installing)); }), window.__sw === true)",
        polling=250,
    )


def policy_allows(page: Page, feature: str) -> bool:
    return page.evaluate(f"document.featurePolicy.allowsFeature('{feature}')")


# --------------------------------------------------------------------------- the table


def test_a_deal_of_each_game_under_the_policy(live_server, page: Page, watched, screenshot):
    page.on("dialog", lambda dialog: dialog.accept())

    # Roolz: the deal is saved, and the view link's scoreboard follows by itself.
    game = start_game(
        page, live_server.url, game="roolz", players=["Ann", "Ben", "Cat", "Dan"],
        options={"target": 300},
    )  # fmt: skip
    the_watch_sees(page, watched)
    service_worker_registered(page)
    assert policy_allows(page, "screen-wake-lock")
    assert not policy_allows(page, "camera")
    assert not policy_allows(page, "geolocation")
    viewer = page.context.new_page()
    viewer.goto(f"{live_server.url}/v/{game.view_token}/")
    expect(viewer.locator("#live")).to_have_attribute("data-revision", str(game.revision))
    Phone(page).i_am("Ann")
    Phone(page).tap("bidder", "Ann")
    page.locator("[data-set=bid][data-value='200']").click()
    page.fill("#f-won-A", "190")
    expect(page.locator("#f-won-B")).to_have_value("110")
    Phone(page).preview_shows("Team A \u2212200")
    Phone(page).save("Deal 1 saved")
    assert Round.objects.filter(game=game, number=1).exists()
    expect(viewer.locator("#live .standing").first).to_contain_text("\u2212200", timeout=SLOW)
    viewer.close()
    # Another phone saves deal 2: this page's poll brings it in, over a part whose style a
    # script has set (as the page's own scripts do, to fit names): nothing is refused.
    page.evaluate("document.getElementById('live').style.outline = '0px solid transparent'")
    round_record(
        game=game, number=2, entry={"bidder": 1, "bid": 170, "won": {"A": 100, "B": 200}},
        actor=Actor(seat=1, device="the other phone"),
    )  # fmt: skip
    expect(page.locator("#live .standing").nth(1)).to_contain_text("200", timeout=SLOW)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "policy-table-roolz", full_page=False)
    screenshot(page, "policy-table-roolz-whole")
    no_refusal(page, watched)

    # Roller Derby.
    game = start_game(
        page, live_server.url, game="roller_derby", players=["Ann", "Ben", "Cat", "Dan"]
    )
    Phone(page).i_am("Ben")
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="3").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="4").click()
    expect(page.locator("[data-target]")).to_have_text("7")
    Phone(page).tap("tricks", "6")
    page.locator("details.penalties > summary").click()
    page.select_option("#f-penalties-0-player", label="Ann")
    Phone(page).preview_shows("Team B")
    Phone(page).save("Deal 1 saved")
    assert Round.objects.filter(game=game, number=1).exists()
    no_refusal(page, watched)

    # Rook Sluff: one player by the number pad, the rest typed; Cat's Sluff took a trick.
    game = start_game(
        page, live_server.url, game="rook_sluff",
        players=["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], options={"deals": 2},
    )  # fmt: skip
    bids = [3, 3, 0, 2, 3, 2]
    pad = page.locator("[data-sluff] .pad")
    page.locator("#f-bids-0").click()
    pad.get_by_role("button", name=str(bids[0]), exact=True).click()
    for seat in range(1, 6):
        page.fill(f"#f-bids-{seat}", str(bids[seat]))
    page.get_by_label("Cat's Sluff took a trick").check()
    page.locator("#f-team_tricks-A").click()
    pad.get_by_role("button", name="7", exact=True).click()
    expect(page.locator("#f-team_tricks-B")).to_have_value("7")
    Phone(page).preview_shows("Team A")
    Phone(page).save("Deal 1 saved")
    assert Round.objects.get(game=game, number=1).entry["bids"] == bids
    no_refusal(page, watched)

    # Rummoli: the pay card grid and the poker.
    game = start_game(
        page, live_server.url, game="rummoli", players=["Ann", "Ben", "Cat", "Dan"],
        options={"poker": "betting"},
    )  # fmt: skip
    Phone(page).tap("widow", "Bought")
    Phone(page).tap("widow.buyer", "Cat")
    page.fill("#f-widow\\.price", "2")
    Phone(page).tap("poker.winners", "Ben")
    page.locator("input[name='pay_cards.ten_spades'][aria-label$=': Dan'] + span").click()
    Phone(page).tap("went_out", "Ben")
    for seat, cards in ((0, 3), (2, 5), (3, 2)):
        page.fill(f"#f-cards_left-{seat}", str(cards))
    page.locator("#f-cards_left-3").dispatch_event("change")
    Phone(page).preview_shows("Ben")
    Phone(page).save("Hand 1 saved")
    assert Round.objects.filter(game=game, number=1).exists()
    # The history page and the rules card.
    page.goto(f"{live_server.url}/t/{game.table_token}/history/")
    expect(page.locator("main")).to_contain_text("Hand 1")
    page.goto(f"{live_server.url}/t/{game.table_token}/rules/")
    expect(page.locator("main h1")).to_be_visible()
    assert Game.objects.filter(rounds__isnull=False).distinct().count() == 4
    no_refusal(page, watched)


# --------------------------------------------------------------------------- the desk


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/admin/login/?next=/desk/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "cards-at-eight")
    page.get_by_role("button", name=re.compile("Log in", re.I)).click()
    expect(page.get_by_role("heading", name="Your events")).to_be_visible()


def test_the_desk_the_public_pages_and_the_admin_under_the_policy(
    live_server, page: Page, watched, screenshot
):
    get_user_model().objects.create_user(
        "director", password="cards-at-eight", is_staff=True, is_superuser=True
    )
    call_command("demoevent")
    event = Event.objects.get()
    base = live_server.url
    log_in(page, base)
    the_watch_sees(page, watched)

    # The event's desk and its round 1, with its clock.
    page.goto(f"{base}/desk/{event.pk}/")
    expect(page.get_by_role("heading", name=event.name)).to_be_visible()
    page.goto(f"{base}/desk/{event.pk}/rounds/1/")
    page.fill("#clock-minutes", "45")
    page.get_by_role("button", name="Start", exact=True).click()
    restart = page.get_by_role("button", name="Restart")
    expect(restart).to_be_visible()
    # A question asked before the form is sent: no, and nothing is sent; yes, and it is.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    restart.click()
    until(page, lambda: asked, what="the question")
    assert asked == ["Start the clock again from the minutes given?"]
    expect(restart).to_be_visible()
    page.fill("#clock-minutes", "30")
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    with page.expect_navigation():
        restart.click()
    assert len(asked) == 2
    no_refusal(page, watched)

    # The tables play: the desk's live part shows them done by itself.
    round_one = event.rounds.get(number=1)
    tables = list(round_one.tables.select_related("game"))
    page.goto(f"{base}/desk/{event.pk}/rounds/1/")
    done_before = page.locator("#live .badge.state-done").count()
    projector = page.context.new_page()
    projector.goto(f"{base}/e/{event.public_token}/projector/")
    expect(projector.locator(".panel-draw")).to_be_visible()
    for table in tables:
        if table.game.status != Game.Status.FINISHED:
            play_table(table)
    expect(page.locator("#live .badge.state-done")).to_have_count(len(tables), timeout=SLOW)
    assert done_before < len(tables)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "policy-desk-round", full_page=False)
    page.goto(f"{base}/desk/{event.pk}/")
    screenshot(page, "policy-desk-event", full_page=False)
    projector.close()
    no_refusal(page, watched)

    # The players' pages.
    public = f"{base}/e/{event.public_token}"
    page.goto(f"{public}/")
    expect(page.locator("main")).to_contain_text("Round 1")
    page.goto(f"{public}/standings/")
    expect(page.locator("#live")).to_be_visible()
    page.locator("#live a[href*='/players/']").first.click()
    expect(page).to_have_url(re.compile(r"/players/\d+/$"))
    page.goto(f"{base}/v/{tables[0].game.view_token}/")
    expect(page.locator("#live .scoreboard")).to_be_visible()
    no_refusal(page, watched)

    # The admin: its own scripts (select all, the date widgets) run under the policy.
    page.goto(f"{base}/admin/scoring/game/")
    page.locator("#action-toggle").check()
    expect(page.locator("input.action-select").first).to_be_checked()
    page.goto(f"{base}/admin/auth/user/add/")
    expect(page.locator("#id_username")).to_be_visible()
    page.goto(f"{base}/admin/scoring/game/{tables[0].game.pk}/change/")
    expect(page.locator("#content h1, #content h2").first).to_be_visible()
    no_refusal(page, watched)


def test_a_hidden_page_polls_nothing_and_a_shown_one_polls_again(live_server, page: Page):
    """The polls wait while the page is hidden (page.js: a filter on the trigger would need
    eval), and send the revision and clock the page shows."""
    game = new_game()
    polls: list[str] = []
    page.on(
        "request", lambda request: polls.append(request.url) if "/live/" in request.url else None
    )
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(page.locator("#live")).to_be_visible()
    page.wait_for_event("request", lambda request: "/live/" in request.url, timeout=SLOW)
    assert "rev=" in polls[-1] and "clock=" in polls[-1]  # what the page shows, sent along
    page.evaluate(
        """() => {
          window.__pollTurns = 0;  /* each turn of the poll asks htmx:confirm first */
          document.addEventListener("htmx:confirm", (event) => {
            if (event.detail.elt.matches("[data-live-poll]")) window.__pollTurns += 1;
          });
          Object.defineProperty(document, "visibilityState", {
            get: () => "hidden", configurable: true,
          });
        }"""
    )
    # a poll already on its way comes back ...
    page.wait_for_function("() => !document.querySelector('[data-live-poll].htmx-request')")
    polls.clear()
    # ... and two turns of the poll pass while the page is hidden
    page.wait_for_function("() => window.__pollTurns >= 2", timeout=SLOW)
    settle(page)
    assert polls == []
    page.evaluate("delete document.visibilityState")
    page.wait_for_event("request", lambda request: "/live/" in request.url, timeout=SLOW)
