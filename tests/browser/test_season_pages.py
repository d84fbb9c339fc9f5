"""The season, ratings and player pages on a 390x844 phone, and the printed season sheet."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.club import services as club
from tournaments.events import services
from tournaments.models import Player, Season

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_celery"),
]

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Łukasz"]
WEEKS = [NAMES, NAMES[1:], [*NAMES[:-2], "Kim"]]  # absences, and a newcomer in week 3


def played_season() -> Season:
    director = get_user_model().objects.create_user("director", password="x")
    roster = club.roster_for(owner=director)
    season = club.season_create(
        roster=roster,
        name="Autumn Thursdays",
        rule={"counting": "best", "best": 2, "min_nights": 2},
    )
    for week, names in enumerate(WEEKS, start=1):
        event = services.event_create(
            owner=director, name=f"Week {week}", game="roolz", options=ROOLZ_OPTIONS
        )
        services.entrants_import_csv(event=event, text="\n".join(names))
        club.club_night_set(event=event, season=season, rated=True, balanced=week == 3)
        for _ in range(2):
            draft = services.tournament_round_generate(event=event)
            round_ = services.tournament_round_publish(event=event, round=draft)
            for table in round_.tables.select_related("game"):
                play_table(table)
    return season


def fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide"


def test_season_leaderboard_and_player_pages_on_a_phone(live_server, page: Page, screenshot):
    season = played_season()
    page.goto(f"{live_server.url}/s/{season.public_token}/")
    expect(page.get_by_role("heading", name="Season table")).to_be_visible()
    expect(page.locator(".season-table tbody tr")).to_have_count(len(NAMES) + 1)
    fits_the_phone(page)
    screenshot(page, "season-table")
    page.goto(f"{live_server.url}/s/{season.public_token}/projector/")
    screenshot(page, "season-projector", full_page=False)

    page.goto(f"{live_server.url}/r/{season.roster.public_token}/")
    expect(page.get_by_role("heading", name="Ratings")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "ratings-leaderboard")

    page.locator(".standings-table tbody tr th a").first.click()
    expect(page.locator("svg.rating-chart polyline")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "player-page")


def test_the_printed_season_sheet(live_server, client):
    season = played_season()
    pdf = client.get(f"/s/{season.public_token}/season.pdf").content
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "season-sheet.pdf"
    path.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", str(path), str(ARTIFACTS / "season-sheet")], check=True
    )
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "Autumn Thursdays: season table" in text
    for player in Player.objects.filter(roster=season.roster):
        assert player.name in text
    assert Path(ARTIFACTS / "season-sheet-1.png").exists()


def test_the_club_desk_on_a_phone(live_server, page: Page, screenshot):
    season = played_season()
    director = season.roster.owner
    director.set_password("cards-at-eight")
    director.is_staff = True  # the desk's login is the site's staff login
    director.save()
    page.goto(f"{live_server.url}/desk/club/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "cards-at-eight")
    page.locator("button[type=submit], input[type=submit]").first.click()
    expect(page.get_by_role("heading", name=season.roster.name)).to_be_visible()
    fits_the_phone(page)
    # Every text box as the others: 16px type (a phone zooms into smaller) and round corners.
    boxes = page.locator("input:not([type]), input[type=text]").evaluate_all(
        "els => els.map(el => getComputedStyle(el))"
        ".map(s => [parseFloat(s.fontSize), s.borderRadius])"
    )
    assert boxes and all(size >= 16 and corner == "10px" for size, corner in boxes), boxes
    # A name two players share is asked about before anything is written.
    club.player_create(roster=season.roster, name="ann", allow_same=True)
    page.get_by_text("Add many players (CSV: name, contact)").click()
    page.fill("#import-text", "ANN\nZoë, zoe@example.org")
    page.get_by_role("button", name="Add the players").click()
    expect(page.get_by_text("Some names match more than one player")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "club-desk-question")
    # A player renamed from their desk page: a name already on the roster is asked about.
    page.goto(f"{live_server.url}/desk/club/")
    page.locator(".roster-list a", has_text="Gus").click()
    expect(page.get_by_role("heading", name="Gus")).to_be_visible()
    page.fill("#player-new-name", "hal")
    page.get_by_role("button", name="Rename").click()
    expect(page.get_by_text("hal is already on the roster")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "club-player-rename-clash")
    page.fill("#player-new-name", "Gustav")
    page.get_by_role("button", name="Rename").click()
    expect(page.get_by_role("heading", name="Gustav")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("now Gustav")
    fits_the_phone(page)
    screenshot(page, "club-player-renamed")
    event = season.nights.order_by("event__created_at").last().event
    page.goto(f"{live_server.url}/desk/{event.pk}/club/")
    expect(page.get_by_role("heading", name=f"{event.name}: club night")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "club-night")
    page.goto(f"{live_server.url}/desk/{event.pk}/rounds/2/")
    screenshot(page, "desk-round-ratings")
