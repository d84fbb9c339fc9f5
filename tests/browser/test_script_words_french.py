"""What the desk's, the projector's and the bracket wall's scripts write, said in French on a
phone (390x844), light and dark: a check-in tick's notes (saved, saved as not here, retrying
while the server cannot be reached, not saved) and the count of players checked in; the
projector's page label and its round clock at zero; the wall's slide count. Each is the
catalogue's French, and holds no word the same place says on the English page. Screenshots
are saved under test-artifacts/screenshots/fr-js-*.png to be looked at."""

from __future__ import annotations

import re
from typing import Literal

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_desk_boxes import sign_in
from tests.tournaments.brackets.test_flow import TEAMS
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.brackets import services as brackets
from tournaments.events import services
from tournaments.events.services import tournament_round_clock_start
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LOCALES = ("en-CA", "fr-CA")
PAGE_SECONDS = 12  # as static/js/tournaments.js turns the projector's pages
SLIDE_SECONDS = 10  # as templates/tournaments/bracket_wall.html turns the wall's slides

# What the scripts write, in each language (the French as the scripts' catalogue says it).
SAID = {
    "saved": {"en-CA": "✓ saved", "fr-CA": "✓ enregistré"},
    "not here": {"en-CA": "saved: not here", "fr-CA": "enregistré\u00a0: pas arrivé"},
    "retrying": {
        "en-CA": "not saved yet, retrying…",
        "fr-CA": "pas encore enregistré, nouvel essai…",
    },
    "not saved": {
        "en-CA": "not saved: no answer from the server. Tick again",
        "fr-CA": "non enregistré\u00a0: le serveur ne répond pas. Cochez de nouveau",
    },
    "one checked in": {"en-CA": ", 1 checked in", "fr-CA": ", 1 présent"},
    "two checked in": {"en-CA": ", 2 checked in", "fr-CA": ", 2 présents"},
    "page": {"en-CA": r"page (\d+) of (\d+)", "fr-CA": r"page (\d+) sur (\d+)"},
    "slide": {"en-CA": r"(\d+) of (\d+)", "fr-CA": r"(\d+) sur (\d+)"},
    "last deal": {"en-CA": "Last deal", "fr-CA": "Dernière donne"},
}


def words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]{2,}", text))


def english_left(french: str, english: str) -> set[str]:
    """Words of the French text that the English text says too (a word both languages
    write alike, "page", aside)."""
    return (words(french) & words(english)) - {"page"}


def test_the_check_sees_an_english_word_left():
    assert english_left("✓ saved", "✓ saved") == {"saved"}
    assert english_left("page 2 sur 3", "page 2 of 3") == set()


def phone(
    browser: Browser, browser_context_args: dict, locale: str, scheme: Literal["light", "dark"]
) -> tuple[Page, list[str]]:
    """A phone's page in one language and colour scheme, and the script errors it meets."""
    context = browser.new_context(
        **{**browser_context_args, "viewport": PHONE}, color_scheme=scheme, locale=locale
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


@pytest.fixture
def night(director) -> Event:
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 13)), user=director
    )
    return event


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_desks_check_in_notes_in_french(
    live_server, browser, browser_context_args, screenshot, night, scheme
):
    shown: dict[str, str] = {}
    for locale in LOCALES:
        said = {key: value[locale] for key, value in SAID.items()}
        night.entrants.update(checked_in=False)  # each language ticks the same players
        page, errors = phone(browser, browser_context_args, locale, scheme)
        try:
            sign_in(page, live_server, night)
            rows = page.locator("#entrants tbody tr")
            count = page.locator("[data-checked-count]")
            state = [rows.nth(n).locator("[data-tick-state]") for n in range(3)]
            rows.nth(0).locator("input[data-tick-url]").check()
            expect(state[0]).to_have_text(said["saved"])
            expect(count).to_have_text(said["one checked in"])
            rows.nth(1).locator("input[data-tick-url]").check()
            expect(state[1]).to_have_text(said["saved"])
            expect(count).to_have_text(said["two checked in"])
            rows.nth(1).locator("input[data-tick-url]").uncheck()
            expect(state[1]).to_have_text(said["not here"])
            expect(count).to_have_text(said["one checked in"])
            # The server out of reach for the third: retried, then said not saved.
            box = rows.nth(2).locator("input[data-tick-url]")
            page.route(live_server.url + box.get_attribute("data-tick-url"), lambda r: r.abort())
            box.check()
            expect(state[2]).to_have_text(said["retrying"])
            retrying = state[2].text_content() or ""
            expect(state[2]).to_have_text(said["not saved"])
            shown[locale] = " ".join(
                [
                    retrying,
                    count.text_content() or "",
                    *page.locator("[data-tick-state]").all_text_contents(),
                ]
            )
            if locale == "fr-CA":
                page.evaluate("document.querySelector('#entrants tbody').scrollIntoView()")
                screenshot(page, f"fr-js-desk-ticks-{scheme}", full_page=False)
            assert errors == []
        finally:
            page.context.close()
    assert english_left(shown["fr-CA"], shown["en-CA"]) == set()


@pytest.fixture
def seated(night) -> Event:
    services.entrants_import_csv(
        event=night, text="\n".join(f"Player {n:02d}" for n in range(13, 29)), user=night.owner
    )
    draft = services.tournament_round_generate(event=night, user=night.owner)
    services.tournament_round_publish(event=night, round=draft, user=night.owner)
    tournament_round_clock_start(event=night, round=draft, minutes=1, user=night.owner)
    return night


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_projectors_page_label_and_clock_in_french(
    live_server, browser, browser_context_args, screenshot, seated, scheme
):
    shown: dict[str, str] = {}
    for locale in LOCALES:
        said = {key: value[locale] for key, value in SAID.items()}
        page, errors = phone(browser, browser_context_args, locale, scheme)
        try:
            page.clock.install()
            page.goto(f"{live_server.url}/e/{seated.public_token}/projector/")
            label = page.locator(".panel-draw [data-page-label]")
            expect(label).to_have_text(re.compile(said["page"]))
            first = re.fullmatch(said["page"], label.text_content() or "")
            assert first is not None and first[1] == "1" and int(first[2]) > 1, first
            if locale == "fr-CA":
                screenshot(page, f"fr-js-projector-{scheme}", full_page=False)
            page.clock.fast_forward(PAGE_SECONDS * 1000)
            expect(label).to_have_text(re.compile(said["page"].replace(r"(\d+)", "2", 1)))
            second = label.text_content() or ""
            page.clock.fast_forward(61_000)
            clock = page.locator("[data-clock-text]")
            expect(clock).to_have_text(said["last deal"])
            if locale == "fr-CA":
                screenshot(page, f"fr-js-projector-clock-{scheme}", full_page=False)
            shown[locale] = " ".join([first[0], second, clock.text_content() or ""])
            assert errors == []
        finally:
            page.context.close()
    assert english_left(shown["fr-CA"], shown["en-CA"]) == set()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_bracket_walls_slide_count_in_french(
    live_server, browser, browser_context_args, screenshot, director, scheme
):
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:8]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    brackets.stage_create(event=event, kind="single", user=director, third_place=True)
    shown: dict[str, str] = {}
    for locale in LOCALES:
        said = {key: value[locale] for key, value in SAID.items()}
        page, errors = phone(browser, browser_context_args, locale, scheme)
        try:
            page.clock.install()
            page.goto(f"{live_server.url}/e/{event.public_token}/bracket/wall/")
            page.wait_for_function("() => document.querySelector('#wall-board').dataset.shown")
            count = page.locator("[data-wall-count]")
            expect(count).to_have_text(re.compile(said["slide"]))
            first = re.fullmatch(said["slide"], count.text_content() or "")
            assert first is not None and first[1] == "1" and int(first[2]) > 1, first
            if locale == "fr-CA":
                screenshot(page, f"fr-js-wall-{scheme}", full_page=False)
            page.clock.fast_forward(SLIDE_SECONDS * 1000)
            expect(count).to_have_text(re.compile(said["slide"].replace(r"(\d+)", "2", 1)))
            shown[locale] = " ".join(
                [
                    first[0],
                    count.text_content() or "",
                    page.locator("[data-wall-label]").inner_text(),
                ]
            )
            assert errors == []
        finally:
            page.context.close()
    assert english_left(shown["fr-CA"], shown["en-CA"]) == set()
