"""The desk on a phone: the rounds box follows another tab's publishing, a button drawn
before the rounds moved on is refused in words, and check-in ticks are never lost (at a
human pace, quickly, across a reload, through a lost answer, or refused in sight)."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.models import Event, EventStaff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW = 15_000  # two cores shared by many browsers: generous, never a sleep
PLAYERS = 25


@pytest.fixture
def night() -> Event:
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event,
        text="\n".join(f"Player {n:02d}" for n in range(1, PLAYERS + 1)),
        user=director,
    )
    return event


def sign_in(page: Page, live_server, event: Event) -> None:
    page.set_default_timeout(SLOW)
    page.goto(f"{live_server.url}/admin/login/?next=/desk/{event.pk}/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw")
    page.click("input[type=submit], button[type=submit]")
    expect(page.get_by_role("heading", name="Club night")).to_be_visible()


def test_the_rounds_box_follows_another_tabs_publishing(live_server, page: Page, night, screenshot):
    event = night
    sign_in(page, live_server, event)
    rounds = page.locator("#rounds")
    expect(rounds.get_by_role("button", name="Seat round 1")).to_be_visible()
    # Another tab seats round 1 and publishes it: the box follows, with no reload.
    director = event.owner
    draft = services.tournament_round_generate(event=event, user=director)
    expect(rounds.get_by_role("button", name="Seat round 1 again")).to_be_visible()
    services.tournament_round_publish(event=event, round=draft, user=director)
    expect(rounds.get_by_role("button", name="Seat round 2")).to_be_visible()
    expect(rounds).to_contain_text("Published")
    expect(rounds.get_by_role("button", name=re.compile("Seat round 1"))).to_have_count(0)
    screenshot(page, "desk-rounds-box-live-phone")

    # A box that could not follow (its polls lost) offers round 2 after another tab
    # seated it: the click is refused in words, and the box drawn again is right.
    page.route("**/live/?part=rounds*", lambda route: route.abort())
    for table in event.rounds.get(number=1).tables.all():
        play_table(table)
    services.tournament_round_generate(event=event, user=director)
    rounds.get_by_role("button", name="Seat round 2").click()
    expect(page.locator("#round-error")).to_contain_text(
        "Round 2 changed since you opened it: a draft of it was seated meanwhile"
    )
    expect(page.get_by_role("link", name="Review the draft of round 2")).to_be_visible()
    screenshot(page, "desk-rounds-box-refused-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert list(event.rounds.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_a_queued_seating_shows_as_queued(live_server, page: Page, night, screenshot):
    event = night
    services.tournament_round_generation_mark(event=event, state="queued", round=1, work="seat")
    sign_in(page, live_server, event)
    expect(page.locator("#round-queued")).to_contain_text("Seating round 1 in the background")
    expect(page.get_by_role("button", name="Seat round 1")).to_have_count(0)
    screenshot(page, "desk-rounds-queued-phone")


def boxes(page: Page):
    return page.locator("input[data-tick-url]")


def checked_count(event: Event) -> int:
    return event.entrants.filter(checked_in=True).count()


def wait_for(condition, timeout: float = SLOW / 1000) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_ticks_at_a_human_pace_are_each_acknowledged(live_server, page: Page, night, screenshot):
    event = night
    sign_in(page, live_server, event)
    for index in range(8):
        row = page.locator("#entrants tbody tr").nth(index)
        row.locator("input[data-tick-url]").check()
        expect(row.locator("[data-tick-state]")).to_have_text("✓ saved")
    expect(page.locator("[data-checked-count]")).to_have_text(", 8 checked in")
    screenshot(page, "desk-ticks-human-phone")
    assert checked_count(event) == 8
    page.reload()
    expect(page.locator("input[data-tick-url]:checked")).to_have_count(8)


def test_twenty_five_quick_ticks_then_a_reload_keep_every_tick(
    live_server, page: Page, night, screenshot
):
    event = night
    sign_in(page, live_server, event)
    page.on("dialog", lambda dialog: dialog.accept())  # "leave with ticks on their way?"
    for index in range(PLAYERS):
        boxes(page).nth(index).dispatch_event("click")  # as fast as the page takes them
    screenshot(page, "desk-ticks-quick-phone")
    page.reload()
    assert wait_for(lambda: checked_count(event) == PLAYERS), checked_count(event)
    page.reload()
    expect(page.locator("input[data-tick-url]:checked")).to_have_count(PLAYERS)


def test_quick_ticks_are_each_acknowledged_before_a_reload(
    live_server, page: Page, night, screenshot
):
    event = night
    sign_in(page, live_server, event)
    for index in range(PLAYERS):
        boxes(page).nth(index).dispatch_event("click")
    try:
        expect(page.locator("#entrants tr[data-tick=saved]")).to_have_count(PLAYERS)
    except AssertionError:
        rows = page.evaluate(
            """() => [...document.querySelectorAll('#entrants tbody tr')].map(r => [
                r.getAttribute('data-tick'),
                (r.querySelector('[data-tick-state]') || {}).textContent,
                (r.querySelector('input[data-tick-url]') || {}).checked])"""
        )
        raise AssertionError(f"{checked_count(event)} kept; rows: {rows}") from None
    expect(page.locator("[data-checked-count]")).to_have_text(f", {PLAYERS} checked in")
    assert checked_count(event) == PLAYERS
    screenshot(page, "desk-ticks-quick-saved-phone")
    page.reload()
    expect(page.locator("input[data-tick-url]:checked")).to_have_count(PLAYERS)


def test_a_lost_answer_is_retried_and_a_dead_server_shown(
    live_server, page: Page, night, screenshot
):
    event = night
    sign_in(page, live_server, event)
    lost: list[str] = []

    def lose_the_first(route) -> None:
        if not lost:
            lost.append(route.request.url)
            route.abort("internetdisconnected")
            return
        route.continue_()

    page.route("**/check-in/", lose_the_first)
    row = page.locator("#entrants tbody tr").nth(0)
    row.locator("input[data-tick-url]").check()
    expect(row.locator("[data-tick-state]")).to_have_text("✓ saved")
    assert lost and checked_count(event) == 1

    page.unroute("**/check-in/")
    page.route("**/check-in/", lambda route: route.fulfill(status=502, body="Bad gateway"))
    row = page.locator("#entrants tbody tr").nth(1)
    row.locator("input[data-tick-url]").check()
    expect(row.locator("[data-tick-state]")).to_contain_text("retrying")
    state = row.locator("[data-tick-state]")
    expect(state).to_have_text(re.compile("not saved: no answer"), timeout=30_000)
    expect(state).to_have_attribute("role", "alert")
    screenshot(page, "desk-ticks-not-saved-phone")
    assert checked_count(event) == 1


def test_a_send_left_unanswered_is_tried_again(live_server, page: Page, night, screenshot):
    event = night
    sign_in(page, live_server, event)
    held: list[str] = []

    def hold_the_first(route) -> None:
        if not held:
            held.append(route.request.url)  # never answered: a stalled connection
            return
        route.continue_()

    page.route("**/check-in/", hold_the_first)
    row = page.locator("#entrants tbody tr").nth(0)
    row.locator("input[data-tick-url]").check()
    expect(row.locator("[data-tick-state]")).to_have_text("saving…")
    expect(row.locator("[data-tick-state]")).to_have_text("✓ saved", timeout=30_000)
    assert held and checked_count(event) == 1
    screenshot(page, "desk-ticks-unanswered-saved-phone")


def test_a_removed_co_director_sees_the_styled_not_found_page(
    live_server, page: Page, night, screenshot
):
    event = night
    get_user_model().objects.create_user("helper", password="pw", is_staff=True)
    services.event_staff_add(event=event, username="helper", role="co_director", user=event.owner)
    page.set_default_timeout(SLOW)
    page.goto(f"{live_server.url}/admin/login/?next=/desk/{event.pk}/")
    page.fill("#id_username", "helper")
    page.fill("#id_password", "pw")
    page.click("input[type=submit], button[type=submit]")
    expect(page.get_by_role("heading", name="Club night")).to_be_visible()
    staff = EventStaff.objects.get(event=event)
    services.event_staff_remove(event=event, staff=staff, user=event.owner)
    # The desk's next poll is refused: the page shows the site's "Not found", not a
    # desk that no longer answers.
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    expect(page.get_by_text("an event you no longer direct")).to_be_visible()
    screenshot(page, "desk-removed-co-director-phone")
