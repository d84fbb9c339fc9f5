"""The pages around the table with long names, upright and sideways: the new game's name
boxes take the width when no team is shown; the public standings show every heading
whole."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.test_entry_taps import SIDEWAYS, UPRIGHT
from tests.browser.test_table_layout_long_names import LONG_NAMES, fits, shoot_both
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HELD = pytest.mark.parametrize("held", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])


@HELD
def test_rummoli_name_boxes_take_the_width(live_server, page: Page, held, screenshot):
    page.set_viewport_size(held)
    page.goto(f"{live_server.url}/games/new/")
    page.locator("label.game-choice", has=page.locator("input[value='rummoli']")).click()
    page.locator("label.chip", has=page.locator("input[name=players][value='8']")).click()
    expect(page.locator("#player-7")).to_be_visible()
    for seat, name in enumerate(LONG_NAMES):
        page.fill(f"#player-{seat}", name)
    shares = page.locator(".seats .seat-row").evaluate_all(
        "rows => rows.map(row => row.querySelector('input').getBoundingClientRect().width"
        " / row.getBoundingClientRect().width)"
    )
    assert len(shares) == 8 and min(shares) >= 0.85, shares
    fits(page)
    page.locator(".seats").scroll_into_view_if_needed()
    shoot_both(page, screenshot, f"layout-new-rummoli8-{held['width']}")


@HELD
def test_public_standings_show_every_heading_whole(live_server, page: Page, held, screenshot):
    page.set_viewport_size(held)
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join(LONG_NAMES))
    draft = services.tournament_round_generate(event=event)
    services.tournament_round_publish(event=event, round=draft)
    page.goto(f"{live_server.url}/e/{event.public_token}/standings/")
    table = page.locator(".standings-table").first
    expect(table).to_be_visible()
    fits(page)
    cut = page.evaluate(
        """() => {
          const card = document.querySelector('.standings-card').getBoundingClientRect();
          return Array.from(document.querySelectorAll('.standings-table thead th'))
            .filter(th => th.offsetParent)
            .filter(th => th.scrollWidth > th.clientWidth + 1
                          || th.getBoundingClientRect().right > card.right + 1)
            .map(th => th.textContent.trim());
        }"""
    )
    shoot_both(page, screenshot, f"layout-standings-{held['width']}")
    assert cut == [], cut
