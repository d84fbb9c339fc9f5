"""The bracket on the wall: at 1920x1080 and 1280x720, whatever the bracket's shape and
size, every name shown is inside the screen (28 px at 1080p, never under 24), the places
beside it too, the matches being played first, and one cycle of slides shows every round."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page

from scoring.models import Game
from tests.browser.conftest import ARTIFACTS, POLICY_REFUSED
from tests.tournaments.brackets.test_flow import TEAMS, current_rows, finish_rummoli, play_derby
from tournaments.brackets import selectors
from tournaments.brackets import services as brackets
from tournaments.events import services
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}
SLIDE_SECONDS = 10  # as templates/tournaments/bracket_wall.html turns the slides


def teams(count: int) -> list[tuple[str, list[str]]]:
    """The flow's teams, then more with long names (a name longer than its box)."""
    more = [
        (f"Team {n:02d} of the Northern Counties", [f"A{n}", f"B{n}"])
        for n in range(len(TEAMS) + 1, count + 1)
    ]
    return (TEAMS + more)[:count]


def derby(director, count: int, kind: str, **options) -> Event:
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in teams(count):
        services.entrant_add(event=event, name=name, members=members, user=director)
    brackets.stage_create(event=event, kind=kind, user=director, **options)
    return event


def rummoli(director, count: int, **options) -> Event:
    event = services.event_create(owner=director, name="Rummoli Night", game="rummoli")
    names = "\n".join(f"Player {n:02d}" for n in range(1, count + 1))
    services.entrants_import_csv(event=event, text=names, user=director)
    brackets.stage_create(event=event, kind="tables", user=director, **options)
    return event


def play_waves(event: Event, waves: int) -> None:
    """Every match ready is played, ``waves`` times over (so that some are done, some
    play, and the entrants knocked out have their places)."""
    stage = event.bracket_stage
    for _ in range(waves):
        rows = [r for r in current_rows(stage).values() if r.game.status != Game.Status.FINISHED]
        for row in rows:
            if event.game == "rummoli":
                finish_rummoli(row.game, list(range(len(row.seats))))
            else:
                play_derby(row.game, "A")


SHAPES = {  # the bracket, and how many waves of its ready matches are played
    "single-4": (lambda d: derby(d, 4, "single", third_place=True), 0),
    "double-16": (lambda d: derby(d, 16, "double"), 2),
    "double-16-done": (lambda d: derby(d, 16, "double"), 12),
    "double-64": (lambda d: derby(d, 64, "double"), 1),
    "single-32-done": (lambda d: derby(d, 32, "single"), 5),
    "single-70": (lambda d: derby(d, 70, "single", third_place=True), 1),
    "tables-24-of-6": (lambda d: rummoli(d, 24, table_size=6, advance=3), 1),
    "tables-66-of-4": (
        lambda d: rummoli(d, 66, table_size=4, advance=2, placement_tables=True),
        1,
    ),
}


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


def on_screen(page: Page) -> dict:
    """What the slide on screen shows, and whether each of it is inside the screen."""
    return page.evaluate(
        """() => {
        const inside = e => { const r = e.getBoundingClientRect();
            return r.width > 0 && r.left >= 0 && r.top >= 0
                && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5; };
        const slide = document.querySelector('.wall-slide:not([hidden])');
        const names = [...slide.querySelectorAll('.wall-name'),
                       ...document.querySelectorAll('.wall-beside .wall-name')];
        const boxes = [...slide.querySelectorAll('.wall-match, .wall-places li'),
                       ...document.querySelectorAll('.wall-beside li, .wall-beside h2')];
        return {
            key: slide.dataset.slide,
            now: slide.classList.contains('is-now'),
            label: document.querySelector('[data-wall-label]').textContent,
            count: document.querySelector('[data-wall-count]').textContent,
            outside: [...names, ...boxes].filter(e => !inside(e)).map(e => e.textContent),
            sizes: names.map(e => parseFloat(getComputedStyle(e).fontSize)),
            rounds: [...slide.querySelectorAll('[data-round]')].map(e => e.dataset.round),
            matches: [...slide.querySelectorAll('[data-match]')].map(e => e.dataset.match),
            states: [...slide.querySelectorAll('[data-match]')].map(e => e.className),
            places: [...document.querySelectorAll('.wall-beside .wall-name')].length,
            placed: [...slide.querySelectorAll('.wall-places .wall-name'),
                     ...document.querySelectorAll('.wall-beside .wall-name')]
                .map(e => e.textContent),
            wide: document.documentElement.scrollWidth, tall: document.documentElement.scrollHeight,
        };
    }"""
    )


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("shape", SHAPES)
def test_every_bracket_fits_the_wall_and_cycles_through_every_round(
    live_server, browser, director, shape, screen, django_capture_on_commit_callbacks
):
    build, waves = SHAPES[shape]
    event = build(director)
    with django_capture_on_commit_callbacks(execute=True):
        play_waves(event, waves)
    wall = selectors.bracket_wall_for(event=event)
    assert wall is not None
    rounds = {
        f"{section.title}: {column.title}"
        for section in wall.page.sections
        for column in section.columns
    }
    matches = {m.id for s in wall.page.sections for c in s.columns for m in c.matches}

    viewport = SCREENS[screen]
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if POLICY_REFUSED.search(m.text) else None)
    page.clock.install()
    page.goto(f"{live_server.url}/e/{event.public_token}/bracket/wall/")
    page.wait_for_function("() => document.querySelector('#wall-board').dataset.shown")
    first = on_screen(page)
    turns = int(first["count"].split(" of ")[1])
    seen_rounds: set[str] = set()
    seen_matches: set[str] = set()
    seen_places: set[str] = set()
    keys = []
    for turn in range(turns):
        shown = first if turn == 0 else on_screen(page)
        keys.append(shown["key"])
        assert shown["outside"] == [], (shape, screen, shown["key"])
        assert shown["wide"] <= viewport["width"] and shown["tall"] <= viewport["height"]
        if screen == "1080p":
            assert min(shown["sizes"]) >= 24
        if shown["now"]:
            assert shown["label"] == "Now playing"
            assert all("is-ready" in state for state in shown["states"])
        seen_rounds |= set(shown["rounds"])
        seen_matches |= set(shown["matches"])
        seen_places |= set(shown["placed"])
        if turn < 3 or shape.startswith("double-16"):  # the review looks at every slide
            path = ARTIFACTS / f"bracket-wall-{shape}-{screen}-{turn + 1}.png"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path))
        page.clock.fast_forward(SLIDE_SECONDS * 1000)
    context.close()
    assert first["now"] == (wall.playing > 0)  # the wall opens on the matches being played
    assert seen_rounds == rounds
    assert seen_matches == matches
    assert set(keys) == {slide.key for slide in wall.slides}
    assert first["places"] == len(wall.places)
    assert seen_places == {place.name for place in wall.page.placements}
    if shape == "double-16-done":  # every place on screen beside the bracket
        assert wall.page.complete and len(wall.page.placements) == 16
        assert first["places"] == 16 and not wall.more_places
    if shape == "single-32-done":  # more places than fit beside: a slide of their own
        assert wall.page.complete and len(wall.page.placements) == 32 and wall.more_places
    assert errors == []


def test_the_wall_on_a_phone_is_a_page_that_scrolls(live_server, browser, director):
    event = derby(director, 16, "double")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/e/{event.public_token}/bracket/wall/")
    page.wait_for_function("() => document.querySelector('#wall-board').dataset.shown")
    sizes = page.eval_on_selector_all(
        ".wall-slide:not([hidden]) .wall-name",
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))",
    )
    assert sizes and min(sizes) >= 15
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bracket-wall-phone.png"), full_page=True)
    context.close()


def test_the_wall_follows_the_tables_live_and_keeps_its_slide(
    live_server, browser, director, django_capture_on_commit_callbacks
):
    event = derby(director, 16, "double")
    context = browser.new_context(viewport=SCREENS["1080p"])
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/e/{event.public_token}/bracket/wall/")
    page.wait_for_function("() => document.querySelector('#wall-board').dataset.shown")
    page.clock.fast_forward(SLIDE_SECONDS * 1000)  # the second slide of the cycle
    shown = page.evaluate("document.querySelector('#wall-board').dataset.shown")
    assert page.locator('.wall-slide.is-now [data-match="W1-1"]').count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(current_rows(event.bracket_stage)["W1-1"].game, "A")
    page.clock.fast_forward(5_000)  # the board asks again
    page.wait_for_function(
        "() => !document.querySelector('.wall-slide.is-now [data-match=\"W1-1\"]')",
        timeout=10_000,
    )
    assert page.evaluate("document.querySelector('#wall-board').dataset.shown") == shown
    assert page.locator('[data-match="W1-1"].is-done').count() == 1
    context.close()
