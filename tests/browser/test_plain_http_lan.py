"""Over plain http on a hall's network (not localhost) the page is no secure context: no
service worker, no Background Sync, no wake lock. The table still works, and its own
outbox still keeps a deal saved while the wifi drops and sends it when it is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from tests.browser.conftest import CHROMIUM_FLAGS, PHONE, chromium_path
from tests.browser.pages import Phone
from tests.browser.test_outbox import BY_ITSELF, waiting
from tests.browser.test_table_flows import roolz_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HALL = "tablescore.hall"  # a name on the hall's network, as a laptop's address would be


@pytest.fixture
def hall_phone(live_server, playwright, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HALL]
    browser = playwright.chromium.launch(
        executable_path=chromium_path(),
        args=[*CHROMIUM_FLAGS, f"--host-resolver-rules=MAP {HALL} 127.0.0.1"],
    )
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, live_server.url.replace("localhost", HALL).replace("127.0.0.1", HALL)
    context.close()
    browser.close()
    assert not errors, errors


def test_over_plain_http_the_outbox_keeps_a_deal_through_a_dropped_wifi(hall_phone, screenshot):
    page, base = hall_phone
    game = roolz_game()
    page.goto(f"{base}/t/{game.table_token}/")
    expect(page.locator("#entry")).to_be_visible()
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    assert page.evaluate("'wakeLock' in navigator") is False

    Phone(page).enter_roolz_deal("Ann", 200, 220)
    Phone(page).preview_shows("Team A +220")
    page.context.set_offline(True)
    Phone(page).save_button.click()
    bar = page.locator("[data-outbox]")
    expect(bar.locator("[data-outbox-count]")).to_have_text("1 deal waiting to send")
    assert len(waiting(page)) == 1
    screenshot(page, "plain-http-outbox-waiting", full_page=False)
    assert not Round.objects.filter(game=game).exists()

    page.context.set_offline(False)
    Phone(page).saved("Deal 1 saved", timeout=BY_ITSELF)
    assert waiting(page) == []
    assert Round.objects.filter(game=game).count() == 1
