"""Trust at an event, in Chromium: the view link, a closed table asking the desk, the answer.

A phone at a table whose game is over asks the desk to correct a deal; the director's desk
lists it and a director makes the change with a reason; the players' view link shows the
scoreboard read-only throughout.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scoring.models import ChangeRequest, Game
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW = 15_000
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def finished_event_table():
    director = get_user_model().objects.create_user(
        "director", password="cards-at-eight", is_staff=True
    )
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    table = services.tournament_round_publish(event=event, round=draft, user=director).tables.get(
        number=1
    )
    play_table(table)
    return event, Game.objects.get(pk=table.game_id)


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_closed_table_asks_the_desk_and_a_director_answers(
    live_server, page: Page, browser, screenshot
):
    page.set_default_timeout(SLOW)
    event, game = finished_event_table()

    # The view link: the scoreboard and every deal, nothing to tap that changes anything.
    page.goto(f"{live_server.url}/v/{game.view_token}/")
    expect(page.locator(".scoreboard .result")).to_be_visible()
    expect(page.locator("form")).to_have_count(0)
    fits(page)
    screenshot(page, "trust-view-link")

    # A phone at the table (its entry link), holding the second seat.
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    page.locator("#identity .seat-pick button").nth(1).click()
    expect(page.locator("#identity")).to_contain_text("This phone is")
    page.get_by_role("link", name=re.compile("Every deal")).first.click()
    expect(page.locator(".notice", has_text="goes to the event's desk")).to_be_visible()
    page.get_by_role("link", name="Ask the desk to correct deal 1").click()
    expect(page.get_by_text("your correction goes to the event's desk")).to_be_visible()
    expect(page.locator("form.entry button.save")).to_have_text("Ask the desk to make it")
    fits(page)
    screenshot(page, "trust-closed-table-correct")
    page.get_by_label("Bid", exact=True).fill("180")
    page.locator("form.entry button.save").click()
    card = page.locator(".change-request")
    expect(card).to_contain_text("Asked of the desk")
    expect(card).to_contain_text("asks to correct deal 1")
    fits(page)
    screenshot(page, "trust-closed-table-asked")

    # The director's desk lists it; a director makes the change, with a reason.
    desk = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    desk.set_default_timeout(SLOW)
    desk.goto(f"{live_server.url}/desk/{event.pk}/")
    desk.fill("#id_username", "director")
    desk.fill("#id_password", "cards-at-eight")
    desk.get_by_role("button", name=re.compile("Log in", re.I)).click()
    requests = desk.locator("#requests")
    expect(requests).to_contain_text("asks to correct deal 1")
    expect(requests).to_contain_text("bid 180")
    fits(desk)
    desk.locator("#requests").scroll_into_view_if_needed()
    screenshot(desk, "trust-desk-requests", full_page=False)
    reason = desk.get_by_label("Reason (kept in the audit trail)")
    desk.get_by_role("button", name="Make the change").click()  # no reason: not sent
    assert reason.evaluate("field => field.validity.valueMissing")
    assert ChangeRequest.objects.get(game=game).status == "open"
    reason.fill("both captains agree")
    desk.get_by_role("button", name="Make the change").click()
    expect(requests).to_contain_text("Nothing waiting")
    screenshot(desk, "trust-desk-answered")
    desk.context.close()

    request = ChangeRequest.objects.get(game=game)
    assert request.status == "accepted" and request.reason == "both captains agree"
    assert Game.objects.get(pk=game.pk).rounds.get(number=1).entry["bid"] == 180
    # The table's phone sees the change by itself; the view link too.
    expect(page.locator(".change-request")).to_have_count(0, timeout=SLOW)
    page.goto(f"{live_server.url}/v/{game.view_token}/")
    expect(page.locator(".round-list")).to_contain_text("bid 180")
