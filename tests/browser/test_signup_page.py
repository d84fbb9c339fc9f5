"""An event's sign-up page on a 390x844 phone: register, see one's status and own link; a
full event's waiting list; the desk's registrations and announcements, light and dark."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import Event, Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SLOW = 15_000  # two cores shared by many browsers: generous, never a sleep
LIVE = 10_000  # pages poll every two seconds
# Where the pages' pictures go to be looked at (never into the repository).
SHOTS = Path(os.environ.get("SIGNUP_SHOTS", "")) if os.environ.get("SIGNUP_SHOTS") else None


def shoot(page: Page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    widest = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
        " > 390).map(e => e.tagName + '.' + e.className + '#' + e.id).slice(-3).join(' ')"
    )
    assert width <= PHONE["width"], f"the page is {width}px wide: {widest}"


def open_event(cap: int | None = None) -> Event:
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    import datetime as dt

    event = services.event_schedule_set(
        event=event,
        date=dt.date(2026, 11, 27),
        start_time=dt.time(19, 30),
        venue="The Crown, back room",
        user=director,
    )
    services.signup_settings_set(
        event=event, open=True, cap=cap, approval=False, closes_at=None, user=director
    )
    return event


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_player_signs_up_on_a_phone_and_sees_their_status(live_server, browser, scheme):
    event = open_event(cap=2)
    for name in ("Ann", "Ben"):
        services.registration_create(event=event, name=name)
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, is_mobile=True)
    context.set_default_timeout(SLOW)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_server.url}/e/{event.public_token}/signup/")
    expect(page.get_by_role("heading", name="Sign up for Friday Roolz")).to_be_visible()
    expect(page.locator("[data-event-facts]")).to_have_text(
        "Friday 27 November 2026 at 19:30 · The Crown, back room"
    )
    expect(page.locator("#places")).to_contain_text("2 of 2 places taken")
    fits_the_phone(page)
    shoot(page, f"signup-page-{scheme}")

    # A name already taken is refused beside the field, what was typed kept.
    page.get_by_label("Your name").fill("ann")
    page.get_by_label("Contact (optional)").fill("me@example.org")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("#name-error")).to_have_text("Ann is already registered in this event.")
    expect(page.get_by_label("Contact (optional)")).to_have_value("me@example.org")
    fits_the_phone(page)
    shoot(page, f"signup-refused-{scheme}")

    page.get_by_label("Your name").fill("Cat")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("#position")).to_have_text("number 1")
    expect(page.locator("#private-link")).to_have_count(0)
    fits_the_phone(page)
    shoot(page, f"signup-waiting-{scheme}")

    # Ann withdraws (from her own page): Cat moves up, and her page shows her own link.
    services.registration_withdraw(registration=Registration.objects.get(name="Ann"))
    page.reload()
    cat = Registration.objects.get(name="Cat")
    link = page.locator("#private-link")
    expect(link).to_have_text(f"{live_server.url}/me/{cat.entrant.private_token}/")
    expect(page.get_by_text("Keep this link to yourself")).to_be_visible()
    fits_the_phone(page)
    shoot(page, f"signup-entrant-{scheme}")
    context.close()
    assert errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_desks_registrations_and_announcements_on_a_phone(live_server, browser, scheme):
    event = open_event(cap=2)
    for name, contact in (("Ann", "ann@example.org"), ("Ben", ""), ("Cat", "0612 345 678")):
        services.registration_create(event=event, name=name, contact=contact)
    services.signup_settings_set(
        event=event, open=True, cap=2, approval=True, closes_at=None, user=None
    )
    services.registration_create(event=event, name="Dan", contact="dan@example.org")
    services.entrants_import_csv(event=event, text="Eve\nFay\nGus")
    draft = services.tournament_round_generate(event=event)
    services.tournament_round_publish(event=event, round=draft)
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, is_mobile=True)
    context.set_default_timeout(SLOW)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/admin/login/?next=/desk/{event.pk}/signup/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw")
    page.click("input[type=submit], button[type=submit]")
    expect(page.get_by_role("heading", name="Registrations")).to_be_visible()
    expect(page.locator("[data-list=waiting]")).to_contain_text("Cat")
    expect(page.locator("[data-list=pending]")).to_contain_text("dan@example.org")
    fits_the_phone(page)
    shoot(page, f"desk-registrations-{scheme}")

    page.goto(f"{live_server.url}/desk/{event.pk}/announcements/")
    page.get_by_label("New announcement").fill("Round 2 starts at 20:15")
    page.get_by_role("button", name="Announce").click()
    page.get_by_label("New announcement").fill("Table 2 moved to the back room")
    page.get_by_role("button", name="Announce").click()
    expect(page.locator("[data-announcement]")).to_have_count(2)
    fits_the_phone(page)
    shoot(page, f"desk-announcements-{scheme}")

    players = context.new_page()
    players.goto(f"{live_server.url}/e/{event.public_token}/standings/")
    notes = players.locator(".announcement")
    expect(notes.first).to_contain_text("Table 2 moved to the back room")
    expect(notes.nth(1)).to_contain_text("Round 2 starts at 20:15")
    fits_the_phone(players)
    shoot(players, f"standings-announcements-{scheme}")

    # A new announcement reaches the open page at its next poll, without a reload.
    services.announcement_add(event=event, text="Pizza at nine")
    expect(notes.first).to_contain_text("Pizza at nine", timeout=LIVE)
    assert "ann@example.org" not in players.content()

    projector = browser.new_context(
        viewport={"width": 1280, "height": 720}, color_scheme=scheme
    ).new_page()
    projector.goto(f"{live_server.url}/e/{event.public_token}/projector/")
    expect(projector.locator(".announcement").first).to_contain_text("Pizza at nine")
    expect(projector.locator(".projector-facts")).to_contain_text("Friday 27 November 2026")
    if SHOTS is not None:
        projector.screenshot(path=str(SHOTS / f"projector-announcements-{scheme}.png"))
    projector.context.close()
    context.close()
    assert errors == []
