"""The director's word on a phone (390x844): a table's game ended at the totals standing
from the desk's table page, with a reason; a correction that would end the game earlier
offered as "end here"."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from scoring.engines.base import AT_TOTALS
from scoring.models import Game, RoundEvent
from tests.browser.conftest import ARTIFACTS, shoot_whole
from tests.tournaments.helpers import DEALS, ROOLZ_OPTIONS, enter_and_confirm, play_table
from tournaments.events import services
from tournaments.models import EventLog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def phone(own_window):
    return own_window(PHONE)


def signed_in(page: Page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def event_tables(director):
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    round_ = services.tournament_round_publish(event=event, round=draft, user=director)
    return event, list(round_.tables.select_related("game").order_by("number"))


def test_a_director_ends_a_table_at_the_totals_with_a_reason(live_server, phone: Page):
    page = phone
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event, tables = event_tables(director)
    table = tables[0]
    assert table.game.seats.count() == 4
    enter_and_confirm(table.game, 1, DEALS[4][0])
    signed_in(page, live_server, director)
    page.goto(f"{live_server.url}/desk/{event.pk}/tables/{table.pk}/")
    expect(page.get_by_role("heading", name="The director's word")).to_be_visible()
    shoot_whole(page, "desk-table-word-390")

    # No reason: refused beside the field, nothing done.
    page.get_by_role("button", name="End the game at the totals").click()
    expect(page.locator("#change-reason-error")).to_contain_text("Say why")
    assert not Game.objects.get(pk=table.game_id).ending
    shoot_whole(page, "desk-table-word-no-reason-390")

    page.fill("#change-reason", "Time was called at 22:30")
    page.get_by_role("button", name="End the game at the totals").click()
    expect(page.locator("[data-done]")).to_contain_text("ended at the totals standing")
    expect(page.get_by_text("Ended by the director at the totals standing")).to_be_visible()
    shoot_whole(page, "desk-table-word-ended-390")
    game = Game.objects.get(pk=table.game_id)
    assert game.ending == {AT_TOTALS: True} and game.status == Game.Status.FINISHED
    assert game.events.get(action=RoundEvent.Action.END).reason == "Time was called at 22:30"
    log = EventLog.objects.get(event=event, action="result_end")
    assert log.after["reason"] == "Time was called at 22:30"
    # Nothing spills sideways on a phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def test_a_correction_that_ends_the_game_earlier_is_made_to_end_there(live_server, phone: Page):
    page = phone
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event, tables = event_tables(director)
    table = tables[0]
    play_table(table)
    signed_in(page, live_server, director)
    page.goto(f"{live_server.url}/desk/{event.pk}/tables/{table.pk}/deals/1/correct/")
    page.fill("#correct-reason", "all tricks to A, says the sheet")
    page.evaluate(
        """() => {
        const form = document.querySelector('form[data-entry]');
        const set = (name, value) => {
          let input = form.querySelector(`[name="${name}"]`);
          if (!input || input.type === 'radio') {
            input = document.createElement('input');
            input.type = 'hidden'; input.name = name; form.appendChild(input);
          }
          input.value = value;
        };
        set('bid', '300'); set('won-A', '300'); set('won-B', '0'); set('all_tricks', 'A');
      }"""
    )
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("[data-later-choices]")).to_contain_text("would make deal 2 invalid")
    shoot_whole(page, "desk-correct-later-choices-390")
    page.screenshot(path=str(ARTIFACTS / "desk-correct-later-choices-390-viewport.png"))
    page.get_by_role("button", name="Correct it and end the game at deal 1").click()
    expect(page.locator("[data-done]")).to_contain_text("The correction stands")
    shoot_whole(page, "desk-correct-ended-here-390")
    game = Game.objects.get(pk=table.game_id)
    assert game.rounds.count() == 1 and game.status == Game.Status.FINISHED


def test_a_player_asks_the_desk_with_a_why_the_director_reads(live_server, phone: Page):
    page = phone
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event, tables = event_tables(director)
    table = tables[0]
    play_table(table)
    game = Game.objects.get(pk=table.game_id)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    page.locator(".seat-pick button").nth(1).click()
    expect(page.locator(".iam-line")).to_be_visible()
    why = page.locator("#recent input[name='why']").first
    expect(why).to_be_visible()
    why.fill("We scored deal 2 twice")
    shoot_whole(page, "table-ask-desk-why-390")
    page.get_by_role("button", name="Ask the desk to undo deal 2").first.click()
    expect(page.get_by_text("Asked of the desk").first).to_be_visible()
    desk = page.context.browser.new_context(viewport=PHONE)
    try:
        desk_page = desk.new_page()
        signed_in(desk_page, live_server, director)
        desk_page.goto(f"{live_server.url}/desk/{event.pk}/")
        expect(desk_page.locator(".request-why")).to_contain_text("We scored deal 2 twice")
        desk_page.locator(".request-why").scroll_into_view_if_needed()
        desk_page.screenshot(path=str(ARTIFACTS / "desk-request-why-390.png"))
    finally:
        desk.close()


DERBY_NORMAL = {"dice": [3, 4], "tricks": 7}
DERBY_B_ALL_OR_NOTHING = {"dice": [3, 4], "all_or_nothing": True, "made": False}


def test_a_removal_that_breaks_a_later_deal_is_made_to_undo_the_later_deals(
    live_server, phone: Page
):
    page = phone
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Derby night", game="roller_derby", format="swiss", rounds_planned=2
    )
    for name, members in (("Aces", ["Ann", "Abe"]), ("Bears", ["Ben", "Bo"])):
        services.entrant_add(event=event, name=name, members=members, user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    table = services.tournament_round_publish(event=event, round=draft, user=director).tables.get()
    deals = [DERBY_B_ALL_OR_NOTHING, DERBY_NORMAL, DERBY_NORMAL, DERBY_B_ALL_OR_NOTHING]
    for number, entry in enumerate(deals, start=1):
        enter_and_confirm(table.game, number, entry)
    signed_in(page, live_server, director)
    page.goto(f"{live_server.url}/desk/{event.pk}/tables/{table.pk}/")
    page.fill("#change-reason", "Deal 2 was the next table's")
    page.select_option("#change-number", "2")
    page.get_by_role("button", name="Remove this deal").click()
    choices = page.locator("[data-later-choices]")
    expect(choices).to_contain_text("would make deal 4 invalid")
    expect(
        choices.get_by_role("button", name="Remove it and end the game at deal 1")
    ).to_be_visible()
    undo = choices.get_by_role("button", name="Remove it and undo the later deals")
    expect(undo).to_be_visible()
    expect(page.locator("#change-number")).to_have_value("2")  # the deal asked about
    shoot_whole(page, "desk-remove-later-choices-390")
    page.emulate_media(color_scheme="dark")
    shoot_whole(page, "desk-remove-later-choices-390-dark")
    page.emulate_media(color_scheme="light")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert Game.objects.get(pk=table.game_id).rounds.count() == 4  # nothing done yet
    undo.click()
    expect(page.locator("[data-done]")).to_contain_text("The deal was removed")
    shoot_whole(page, "desk-remove-later-undone-390")
    game = Game.objects.get(pk=table.game_id)
    assert [r.number for r in game.rounds.all()] == [1]
    assert game.status == Game.Status.IN_PROGRESS
    assert game.events.get(action=RoundEvent.Action.REMOVE).reason == (
        "Deal 2 was the next table's"
    )
