"""The desk with availability, a table still playing, staff and the log: laptop and phone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.games import LONG_NAME as LONG
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def night():
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    get_user_model().objects.create_user("helper", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 28)), user=director
    )
    for entrant in event.entrants.exclude(name__in=["Player 01", "Player 03"]):
        services.entrant_check_in(event=event, entrant=entrant, user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    first = services.tournament_round_publish(event=event, round=draft, user=director)
    for table in list(first.tables.order_by("number"))[1:]:
        play_table(table)
    return director, event


@pytest.mark.parametrize("size", SIZES)
def test_the_desk_says_who_is_seated_and_who_still_plays(live_server, browser, night, size):
    _, event = night
    context = browser.new_context(viewport=SIZES[size])
    page: Page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/admin/login/?next=/desk/{event.pk}/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw")
    page.click("input[type=submit], button[type=submit]")
    expect(page.locator("#availability")).to_contain_text("Round 2 seats 25 players")
    expect(page.locator("#availability")).to_contain_text("Player 01, Player 03")
    page.locator("#staff-username").fill("helper")
    page.get_by_role("button", name="Add to the staff").click()
    expect(page.locator("#staff")).to_contain_text("co-director")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"desk-availability-{size}.png"), full_page=True)

    page.get_by_role("button", name="Seat round 2").click()
    expect(page.locator("#round-error")).to_contain_text("still plays")
    page.screenshot(path=str(ARTIFACTS / f"desk-still-playing-{size}.png"), full_page=True)
    page.get_by_role("button", name="Seat round 2 without them").click()
    expect(page.get_by_role("heading", name="Not seated")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"desk-round-draft-{size}.png"), full_page=True)

    page.goto(f"{live_server.url}/desk/{event.pk}/log/")
    expect(page.get_by_role("heading", name="Event log")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"desk-log-{size}.png"), full_page=True)
    context.close()
    assert errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_round_page_fits_a_phone(live_server, browser, night, scheme):
    _, event = night
    # seated at the table still playing, so the event's page lists the long name too
    playing = event.rounds.get(number=1).tables.get(number=1).seats.first()
    event.entrants.filter(pk=playing.entrant_id).update(name=LONG)
    context = browser.new_context(viewport=SIZES["phone"], color_scheme=scheme)
    page: Page = context.new_page()
    page.goto(f"{live_server.url}/admin/login/?next=/desk/{event.pk}/rounds/1/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw")
    page.click("input[type=submit], button[type=submit]")
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"desk-round-phone-{scheme}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]

    # the event's page: every card of the side column as wide as the players' card
    page.goto(f"{live_server.url}/desk/{event.pk}/")
    expect(page.locator("#availability")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    page.screenshot(path=str(ARTIFACTS / f"desk-event-phone-{scheme}.png"), full_page=True)
    rights = page.locator(".desk-side > .card").evaluate_all(
        "cards => cards.map(card => Math.round(card.getBoundingClientRect().right))"
    )
    players = page.locator("#entrants").evaluate(
        "el => Math.round(el.closest('.card').getBoundingClientRect().right)"
    )
    assert rights and set(rights) == {players}, (rights, players)
    context.close()
