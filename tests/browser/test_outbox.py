"""The outbox: a round saved without a connection is kept on the phone and sent by itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import IdempotentRequest, Round
from tests.browser.conftest import lose_the_first_save_answer
from tests.browser.pages import Phone, until
from tests.browser.test_table_flows import roolz_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BY_ITSELF = 15_000  # the outbox tries again every few seconds and when the connection returns
ROUND_1 = {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}


def waiting(page: Page) -> list[dict]:
    return page.evaluate("JSON.parse(localStorage.getItem('tablescore-outbox') || '[]')")


def kept_by_the_service_worker(page: Page) -> None:
    """The service worker controls the page and holds a copy of it."""
    # Functions, not expressions: the page's policy lets no string be evaluated as it polls.
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    page.wait_for_function(
        "() => (caches.open('tablescore-v2')"
        ".then(c => c.match(location.origin + location.pathname))"
        ".then(r => { window.__kept = !!r; }), window.__kept === true)",
        polling=250,
        timeout=BY_ITSELF,
    )


def test_a_round_saved_offline_is_sent_by_itself(live_server, page: Page, screenshot):
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    key = page.locator("input[name=key]").input_value()

    page.context.set_offline(True)
    Phone(page).save_button.click()
    bar = page.locator("[data-outbox]")
    expect(bar).to_be_visible()
    expect(bar.locator("[data-outbox-count]")).to_have_text("1 deal waiting to send")
    expect(bar).to_contain_text("Deal 1: Team A +220")
    assert [item["key"] for item in waiting(page)] == [key]
    screenshot(page, "outbox-waiting", full_page=False)
    assert not Round.objects.filter(game=game).exists()

    # Back on wifi: nobody touches the phone, and the round arrives.
    page.context.set_offline(False)
    Phone(page).saved("Deal 1 saved", timeout=BY_ITSELF)
    expect(bar).to_be_hidden()
    assert waiting(page) == []
    assert Round.objects.filter(game=game).count() == 1
    assert IdempotentRequest.objects.get(game=game).key == key
    screenshot(page, "outbox-sent", full_page=False)


def test_a_reload_offline_shows_the_scoreboard_and_the_kept_entry(
    live_server, page: Page, screenshot
):
    game = roolz_game(rounds=[ROUND_1])
    Phone.open(page, live_server.url, game)
    kept_by_the_service_worker(page)
    totals = page.locator("#live .standing [data-total]").all_inner_texts()
    Phone(page).enter_roolz_deal("Ben", 185, 65)
    Phone(page).preview_shows("Team B")

    page.context.set_offline(True)
    Phone(page).save_button.click()
    expect(page.locator("[data-outbox]")).to_be_visible()

    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("#live .scoreboard")).to_be_visible()
    assert page.locator("#live .standing [data-total]").all_inner_texts() == totals
    expect(page.locator("[data-outbox-count]")).to_have_text("1 deal waiting to send")
    expect(page.locator("#f-bid")).to_have_value("185")
    expect(page.locator("#f-won-A")).to_have_value("65")
    expect(page.locator("fieldset[data-field=bidder] input[value='1']")).to_be_checked()
    expect(page.locator("[data-offline]")).to_be_visible()
    expect(page.locator("[data-outbox]")).to_be_in_viewport()
    screenshot(page, "outbox-reloaded-offline", full_page=False)
    assert Round.objects.filter(game=game).count() == 1

    page.context.set_offline(False)
    Phone(page).saved("Deal 2 saved", timeout=BY_ITSELF)
    assert Round.objects.filter(game=game).count() == 2
    assert Round.objects.get(game=game, number=2).entry["bid"] == 185
    assert waiting(page) == []


def test_a_lost_answer_is_sent_again_by_itself_and_stored_once(live_server, page: Page):
    """The server stored the round but its answer was lost: the outbox sends the same key
    again, the server answers with the round it stored, and the phone shows it saved."""
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    lost = lose_the_first_save_answer(page)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    Phone(page).save_button.click()
    expect(page.locator("[data-outbox-count]")).to_have_text("1 deal waiting to send")
    assert Round.objects.filter(game=game).count() == 1

    Phone(page).saved("Deal 1 saved", timeout=BY_ITSELF)
    expect(page.locator("[data-outbox]")).to_be_hidden()
    assert waiting(page) == []
    assert Round.objects.filter(game=game).count() == 1
    assert len(lost) == 1


QUEUED_IN_THE_WORKER = """() => new Promise(resolve => {
  const opening = indexedDB.open("tablescore", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("outbox", { keyPath: "key" });
  opening.onsuccess = () => {
    const read = opening.result.transaction("outbox").objectStore("outbox").getAll();
    read.onsuccess = () => { resolve(read.result.map(item => item.key)); opening.result.close(); };
  };
})"""


def test_a_round_waiting_is_sent_in_the_background_with_the_table_closed(
    live_server, page: Page, screenshot
):
    """Background Sync: the service worker holds the waiting round and sends it when the
    browser wakes it, the table page closed meanwhile."""
    game = roolz_game()
    Phone.open(page, live_server.url, game)
    kept_by_the_service_worker(page)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    key = page.locator("input[name=key]").input_value()

    page.context.set_offline(True)
    Phone(page).save_button.click()
    why = page.locator("[data-outbox-why]")
    expect(why).to_have_text(
        "Deal 1 is sent in the background as soon as the connection returns, "
        "even with this page closed."
    )
    page.wait_for_function(f"({QUEUED_IN_THE_WORKER})().then(keys => keys.includes('{key}'))")
    screenshot(page, "outbox-background", full_page=False)

    # The table is closed; another page of the site stays open (it sends nothing itself).
    page.close()
    elsewhere = page.context.new_page()
    elsewhere.context.set_offline(False)
    elsewhere.goto(f"{live_server.url}/games/new/")

    # The browser wakes the worker for its sync (as it does when the connection returns).
    cdp = elsewhere.context.new_cdp_session(elsewhere)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    registration = until(
        elsewhere,
        lambda: next((r for r in registrations if not r.get("isDeleted")), None),
        what="the service worker's registration",
    )
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": live_server.url,
            "registrationId": registration["registrationId"],
            "tag": "tablescore-outbox",
            "lastChance": False,
        },
    )
    elsewhere.wait_for_function(f"({QUEUED_IN_THE_WORKER})().then(keys => keys.length === 0)")
    assert Round.objects.get(game=game, number=1).entry["bid"] == 200
    assert IdempotentRequest.objects.get(game=game).key == key


def test_a_retry_after_another_phone_undid_the_round_is_told_in_sight(
    live_server, page: Page, screenshot
):
    """The first save is stored but its answer is lost; before the outbox sends it again,
    another phone undoes that round. The retry stores nothing, and the phone says so in
    sight, with its entry kept to save again."""
    from scoring.services import Actor, round_undo

    game = roolz_game()
    Phone.open(page, live_server.url, game)
    lost: list[str] = []

    def stored_then_undone_elsewhere(route) -> None:
        body = route.request.post_data or ""
        if route.request.method == "POST" and "action=preview" not in body and not lost:
            route.fetch()  # the server saves the round ...
            lost.append(body)
            round_undo(game=game, number=1, actor=Actor(device="another phone"))
            route.abort("internetdisconnected")  # ... and the answer is lost on the way back
            return
        route.continue_()

    page.route("**/entry/", stored_then_undone_elsewhere)
    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    Phone(page).save_button.click()

    notice = page.locator("#entry [data-withdrawn=undone]")
    expect(notice).to_contain_text(
        "Deal 1 was undone on another phone after this phone sent it.", timeout=BY_ITSELF
    )
    expect(notice).to_contain_text("Your entry is kept below")
    expect(notice).to_be_in_viewport()
    expect(page.locator("[data-outbox]")).to_be_hidden()
    assert waiting(page) == []
    assert len(lost) == 1
    assert not Round.objects.filter(game=game).exists()
    assert IdempotentRequest.objects.get(game=game).response["withdrawn"] == "undone"
    expect(page.locator("#f-bid")).to_have_value("200")
    screenshot(page, "outbox-retry-after-undo", full_page=False)

    # Saved again (a new key), the round is stored.
    Phone(page).save_button.click()
    Phone(page).saved("Deal 1 saved")
    assert Round.objects.filter(game=game).count() == 1
