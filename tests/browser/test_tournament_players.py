"""Players' pages on a 390x844 phone: finding one's seat, and results arriving by themselves."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.test_table_in_sight import words_whole
from tests.games import LONG_NAME as LONG
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.models import Event, TableSeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Léa"]
SLOW = 15_000  # two cores shared by many browsers: generous, never a sleep
LIVE = 10_000  # pages poll every two seconds; "within a few seconds" on a loaded machine


def running_event() -> Event:
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES))
    draft = services.tournament_round_generate(event=event)
    services.tournament_round_publish(event=event, round=draft)
    return event


def fits_the_phone(page: Page) -> None:
    """Nothing makes the page wider than the phone (no sideways scrolling)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide"


def test_a_player_finds_their_seat_on_a_phone(live_server, page: Page, screenshot):
    page.set_default_timeout(SLOW)
    event = running_event()
    seat = TableSeat.objects.select_related("table__game").get(entrant__name="Léa")
    page.goto(f"{live_server.url}/e/{event.public_token}/")
    expect(page.get_by_role("heading", name="Round 1 of 3")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "players-draw")

    # Typed as a phone keyboard would: no accent, lower case.
    page.get_by_label("Where do I sit?").press_sequentially("lea", delay=60)
    found = page.locator("#found .found-seat")
    expect(found).to_have_count(1)
    expect(found).to_contain_text("Léa")
    expect(found).to_contain_text(f"Table {seat.table.number} · seat {seat.seat + 1}")
    box = found.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, "the answer is below the fold"
    fits_the_phone(page)
    screenshot(page, "players-seat-found", full_page=False)

    found.click()
    expect(page.get_by_role("heading", name="Léa")).to_be_visible()
    expect(page.locator(".next-seat")).to_contain_text(f"Table {seat.table.number}")
    fits_the_phone(page)
    screenshot(page, "players-own-page")
    # The table's view link (read-only): its entry link is on the table's card alone.
    page.get_by_role("link", name="See the table's scoreboard").click()
    expect(page).to_have_url(f"{live_server.url}/v/{seat.table.game.view_token}/")
    expect(page.locator(".scoreboard")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "players-table-view-link")


def test_a_tables_result_reaches_the_standings_by_itself(live_server, page: Page, screenshot):
    page.set_default_timeout(SLOW)
    event = running_event()
    seat = TableSeat.objects.select_related("table__game").get(entrant__name="Ann", seat=0)
    page.goto(f"{live_server.url}/e/{event.public_token}/standings/")
    row = page.locator(f"#standing-{seat.entrant_id}")
    expect(row.locator("td.num").first).not_to_have_text("7")
    fits_the_phone(page)

    # Ann's table plays its game out and the other side confirms, on the table's phones.
    play_table(seat.table)
    # Seat 1 wins: 7 placement points, shown without reloading the page.
    expect(row.locator("td.num").first).to_have_text("7", timeout=LIVE)
    screenshot(page, "players-standings")

    page.goto(f"{live_server.url}/e/{event.public_token}/players/{seat.entrant_id}/")
    expect(page.locator(".my-table")).to_contain_text("Done")
    expect(page.locator("[data-rank]")).to_have_text("1")


def test_a_players_own_page_follows_their_table(live_server, page: Page):
    page.set_default_timeout(SLOW)
    event = running_event()
    seat = TableSeat.objects.select_related("table__game").get(entrant__name="Ben")
    page.goto(f"{live_server.url}/e/{event.public_token}/players/{seat.entrant_id}/")
    expect(page.locator(".my-table .badge")).to_have_text("Playing")
    play_table(seat.table)
    expect(page.locator(".my-table .badge")).to_have_text("Done", timeout=LIVE)
    expect(page.locator(".next-seat")).to_have_count(0)


def test_a_long_name_leaves_the_standings_scores_on_the_phone(live_server, page: Page, screenshot):
    """The standings show rank, name and the scores within the phone's width: a long name
    wraps at its spaces and hyphens instead of pushing the scores off the screen."""
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join([LONG, *NAMES[1:8]]))
    page.goto(f"{live_server.url}/e/{event.public_token}/standings/")
    card = page.locator(".standings-card")
    expect(card).to_be_visible()
    fits_the_phone(page)
    right = card.evaluate("el => el.getBoundingClientRect().right")
    edges = page.locator(".standings-table td.num, .standings-table thead th").evaluate_all(
        "cells => cells.filter(c => c.offsetParent).map(c => c.getBoundingClientRect().right)"
    )
    assert edges and max(edges) <= right + 0.5, (max(edges), right)
    assert card.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert words_whole(page, ".standings-table tbody th a") == []
    screenshot(page, "players-standings-long-name")


CONTRAST = """el => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => {
    const linear = v => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    const [r, g, b] = rgb(c).map(v => linear(v / 255));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(el);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_players_tabs_read_in_either_scheme(
    live_server, browser, browser_context_args, scheme, screenshot
):
    event = running_event()
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 390, "height": 844}}, color_scheme=scheme
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/e/{event.public_token}/standings/")
        current = page.locator(".players-nav a[aria-current=page]")
        expect(current).to_have_text("Standings")
        assert current.evaluate(CONTRAST) >= 4.5  # WCAG AA for text
        screenshot(page, f"players-tabs-{scheme}", full_page=False)
    finally:
        context.close()
