"""The projector on a wall: every standings row and every table within each cycle, in
type readable from the back of the hall, on a 1080p and a 720p screen."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page

from tests.browser.conftest import ARTIFACTS
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.web.public import views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}
PAGE_SECONDS = 12  # as static/js/tournaments.js turns the pages


@pytest.fixture
def event():
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 29)), user=director
    )
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    return event


def slice_in_place(page: Page) -> None:
    """Wait while the projector asks the server for its next slice."""
    page.wait_for_function(
        "() => !document.querySelector('[data-projector]').hasAttribute('data-loading')",
        timeout=10_000,
    )


def watch_a_cycle(page: Page, turns: int = 12) -> tuple[set[str], set[str], list[float]]:
    """Turn the pages of one whole cycle; what was on screen, and the smallest type."""
    rows: set[str] = set()
    tables: set[str] = set()
    sizes: list[float] = []
    for _ in range(turns):
        slice_in_place(page)
        rows |= set(
            page.eval_on_selector_all(
                ".panel-standings tbody tr",
                """els => els.filter(e => e.offsetParent && e.getBoundingClientRect().bottom
                    <= innerHeight).map(e => e.querySelector('th').textContent.trim())""",
            )
        )
        tables |= set(
            page.eval_on_selector_all(
                ".panel-draw .draw-table",
                """els => els.filter(e => e.offsetParent && e.getBoundingClientRect().bottom
                    <= innerHeight).map(e => e.id)""",
            )
        )
        sizes += page.eval_on_selector_all(
            ".projector td, .projector th, .projector .seat-name",
            """els => els.filter(e => e.offsetParent)
                .map(e => parseFloat(getComputedStyle(e).fontSize))""",
        )
        page.clock.fast_forward(PAGE_SECONDS * 1000)
    return rows, tables, sizes


@pytest.mark.parametrize("screen", SCREENS)
def test_the_projector_shows_every_row_and_table_within_a_cycle(
    live_server, browser, event, screen
):
    context = browser.new_context(viewport=SCREENS[screen])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install()
    page.goto(f"{live_server.url}/e/{event.public_token}/projector/")
    page.wait_for_selector(".panel-draw .draw-table")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"projector-draw-{screen}.png"))
    rows, tables, sizes = watch_a_cycle(page)
    page.clock.fast_forward(PAGE_SECONDS * 1000)
    page.screenshot(path=str(ARTIFACTS / f"projector-standings-{screen}.png"))
    context.close()
    assert rows == {f"Player {n:02d}" for n in range(1, 29)}
    assert tables == {f"draw-table-{n}" for n in range(1, 8)}
    if screen == "1080p":
        assert min(sizes) >= 24
    assert errors == []


def test_a_projector_fed_slice_by_slice_still_shows_every_row_and_table(
    live_server, browser, event, monkeypatch
):
    """A large event's projector holds a slice at a time: three tables, five rows here."""
    monkeypatch.setattr(views, "PROJECTOR_TABLES", 3)
    monkeypatch.setattr(views, "PROJECTOR_ROWS", 5)
    context = browser.new_context(viewport=SCREENS["1080p"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install()
    page.goto(f"{live_server.url}/e/{event.public_token}/projector/")
    page.wait_for_selector(".panel-draw .draw-table")
    label = page.text_content(".panel-draw [data-page-label]")
    rows, tables, _ = watch_a_cycle(page, turns=3 + 6 + 2)  # 3 slices of tables, 6 of rows
    page.screenshot(path=str(ARTIFACTS / "projector-slices-1080p.png"))
    context.close()
    assert label is not None and label.startswith("tables 1\N{EN DASH}3 of 7")
    assert rows == {f"Player {n:02d}" for n in range(1, 29)}
    assert tables == {f"draw-table-{n}" for n in range(1, 8)}
    assert errors == []


def test_the_round_clock_counts_down_to_last_deal(live_server, browser, event):
    from tournaments.events.services import tournament_round_clock_start

    round_ = event.rounds.get(number=1)
    tournament_round_clock_start(event=event, round=round_, minutes=1, user=event.owner)
    context = browser.new_context(viewport=SCREENS["1080p"])
    page = context.new_page()
    page.clock.install()
    for address in (f"/e/{event.public_token}/", f"/e/{event.public_token}/projector/"):
        page.goto(live_server.url + address)
        shown = page.locator("[data-clock-text]")
        first = shown.text_content()
        assert first is not None and first.startswith(("1:00", "0:5"))
        page.clock.fast_forward(20_000)
        later = shown.text_content()
        assert later is not None and later != first and later.startswith("0:")
        page.clock.fast_forward(60_000)
        assert shown.text_content() == "Last deal"
        page.screenshot(path=str(ARTIFACTS / f"clock-last-deal{address.count('/')}.png"))
    context.close()
