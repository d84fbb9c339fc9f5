"""In Chromium at 390x844: a casual table's share box gives the entry link and a watch-only
link, and the view link page carries no entry link; the start page, "My games", the new-game
page and a view link open without a connection, as the service worker kept them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.services import Actor, round_record
from tests.browser.pages import Phone
from tests.browser.test_table_flows import roolz_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW = 15_000
ROUND_1 = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}
ROUND_2 = {"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}}


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def kept(page: Page, path: str) -> None:
    """The service worker controls the page and holds a copy of ``path``."""
    # Functions, not expressions: the page's policy lets no string be evaluated as it polls.
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    page.wait_for_function(
        "(path) => (caches.open('tablescore-v2')"
        ".then(c => c.match(location.origin + path))"
        ".then(r => { window.__kept = window.__kept || {}; window.__kept[path] = !!r; }),"
        " window.__kept && window.__kept[path] === true)",
        arg=path,
        polling=250,
        timeout=SLOW,
    )


def styled(page: Page) -> bool:
    """The page's stylesheet was loaded (from the kept copy when offline)."""
    return page.evaluate(
        "() => Array.from(document.styleSheets).some("
        "s => s.href && s.href.includes('tablescore') && s.cssRules.length > 0)"
    )


def test_the_share_box_gives_a_watch_only_link_and_the_view_page_no_entry_link(
    live_server, page: Page, screenshot
):
    page.set_default_timeout(SLOW)
    game = roolz_game(rounds=[ROUND_1])
    Phone.open(page, live_server.url, game)

    box = page.locator("details.share")
    box.locator("summary").click()
    entry = box.locator("#share-url")
    watch = box.locator("#share-view-url")
    expect(entry).to_have_value(f"{live_server.url}/t/{game.table_token}/")
    expect(watch).to_have_value(f"{live_server.url}/v/{game.view_token}/")
    expect(box.get_by_text("Watch only: the scores, no entering")).to_be_visible()
    expect(box.get_by_role("img", name="QR code of the table link")).to_be_visible()
    expect(box.get_by_role("img", name="QR code of the watch-only link")).to_be_visible()
    expect(box.get_by_role("button", name="Copy link", exact=True)).to_be_visible()
    expect(box.get_by_role("button", name="Copy watch-only link")).to_be_visible()
    fits(page)
    box.scroll_into_view_if_needed()
    screenshot(page, "share-box-watch-only")

    copy_watch = box.locator("[data-copy='#share-view-url']")
    copy_watch.click()
    expect(copy_watch).to_have_text("Copied")

    # The watch-only link: the scoreboard, nothing to enter, and never the entry link.
    page.goto(watch.input_value())
    expect(page.locator("#live .scoreboard")).to_be_visible()
    expect(page.locator("form")).to_have_count(0)
    assert game.table_token not in page.content()
    assert page.locator("a[href*='/t/']").count() == 0
    fits(page)
    screenshot(page, "share-view-link")


def test_the_installed_apps_pages_and_a_view_link_open_offline(live_server, page: Page, screenshot):
    page.set_default_timeout(SLOW)
    game = roolz_game(rounds=[ROUND_1])

    # The installed app opens at the start page: the worker keeps it, "My games" and the
    # new-game page as it is installed.
    page.goto(f"{live_server.url}/")
    for path in ("/", "/games/", "/games/new/"):
        kept(page, path)

    # A table played, then "My games" and a view link seen with a connection.
    Phone.open(page, live_server.url, game)
    kept(page, f"/t/{game.table_token}/")
    page.goto(f"{live_server.url}/games/")
    expect(page.locator(f"a[href='/t/{game.table_token}/']")).to_be_visible()
    kept(page, "/games/")
    page.goto(f"{live_server.url}/v/{game.view_token}/")
    expect(page.locator("#live .scoreboard")).to_be_visible()
    kept(page, f"/v/{game.view_token}/")

    page.context.set_offline(True)

    response = page.goto(f"{live_server.url}/")
    assert response is not None and response.from_service_worker
    expect(page.locator("a[href='/games/new/']").first).to_be_visible()
    assert styled(page)
    screenshot(page, "offline-start", full_page=False)

    response = page.goto(f"{live_server.url}/games/new/")
    assert response is not None and response.from_service_worker
    expect(page.locator("form").first).to_be_visible()
    assert styled(page)
    fits(page)
    screenshot(page, "offline-new-game", full_page=False)

    response = page.goto(f"{live_server.url}/v/{game.view_token}/")
    assert response is not None and response.from_service_worker
    expect(page.locator("#live .scoreboard")).to_be_visible()
    assert styled(page)
    screenshot(page, "offline-view-link", full_page=False)

    # A player who closed the tab finds the table again: "My games", then the table.
    response = page.goto(f"{live_server.url}/games/")
    assert response is not None and response.from_service_worker
    assert styled(page)
    fits(page)
    screenshot(page, "offline-my-games", full_page=False)
    page.locator(f"a[href='/t/{game.table_token}/']").click()
    expect(page.locator("#live .scoreboard")).to_be_visible()
    expect(page.locator("#entry")).to_be_visible()
    assert page.url == f"{live_server.url}/t/{game.table_token}/"
    page.context.set_offline(False)


def test_a_view_links_kept_copy_follows_its_scoreboard(live_server, page: Page, screenshot):
    page.set_default_timeout(SLOW)
    game = roolz_game(rounds=[ROUND_1])
    view = f"/v/{game.view_token}/"
    page.goto(f"{live_server.url}{view}")
    kept(page, view)

    # Another deal at the table: the view link shows it by itself, and its copy follows.
    round_record(game=game, number=2, entry=ROUND_2, actor=Actor(seat=0))
    expect(page.locator("#live .history tbody tr")).to_have_count(2)
    page.wait_for_function(
        "(path) => (caches.open('tablescore-v2')"
        ".then(c => c.match(location.origin + path)).then(r => r.text())"
        ".then(t => { window.__two = t.includes('Deal 2'); }), window.__two === true)",
        arg=view,
        polling=250,
        timeout=SLOW,
    )

    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("#live .history tbody tr")).to_have_count(2)
    expect(page.get_by_text("Deal 2", exact=False).first).to_be_visible()
    assert styled(page)
    screenshot(page, "offline-view-link-followed", full_page=False)
    page.context.set_offline(False)
