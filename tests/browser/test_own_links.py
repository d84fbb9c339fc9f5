"""A player's own link on a 390x844 phone: they check in, wait, see their seat appear
when the round is published (no reload), open their table holding their seat, and
confirm the other side's deal entered from another player's link; the audit names both.
Then each state of the page, light and dark, for the eye."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from scoring.models import Round, RoundEvent
from tests.browser.conftest import PHONE
from tests.browser.pages import Phone, settle
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import me_selectors, services
from tournaments.models import ClubNight, Entrant, Event, Player, Roster
from tournaments.models.tokens import new_private_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/work/wt/shots/links")
NAMES = ["Ann", "Ben", "Cat", "Dan"]
SLOW = 15_000  # two cores shared by many browsers: generous, never a sleep
LIVE = 10_000  # pages poll every two seconds; "within a few seconds" on a loaded machine


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: the page is {width}px wide"


def club_night() -> tuple[Event, object]:
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event, director


def entrant(event: Event, name: str) -> Entrant:
    return event.entrants.get(name=name)


def phone(browser, scheme: str = "light") -> Page:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=scheme
    )
    context.set_default_timeout(SLOW)
    return context.new_page()


def test_a_player_checks_in_finds_their_seat_and_confirms_as_themselves(
    live_server, browser, page: Page
):
    page.set_default_timeout(SLOW)
    event, director = club_night()
    ann = entrant(event, "Ann")
    page.goto(f"{live_server.url}/me/{ann.private_token}/")
    expect(page.locator("[data-me-state=waiting]")).to_contain_text("Wait for the draw")
    page.evaluate("() => { window.__notReloaded = true; }")

    # The desk opens check-in: Ann's page offers it by itself.
    services.event_self_service_set(event=event, self_check_in="open", user=director)
    page.get_by_role("button", name="Check in").click(timeout=LIVE)
    expect(page.locator("[data-me-state=checked-in]")).to_contain_text(
        "You are checked in", timeout=LIVE
    )
    assert entrant(event, "Ann").checked_in
    for name in NAMES[1:]:
        services.entrant_self_check_in(entrant=entrant(event, name))

    # The round is published: her seat appears, with no reload.
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    seat = me_selectors.my_seat(event, entrant(event, "Ann"))
    card = page.locator("[data-me-state=seated]")
    expect(card).to_be_visible(timeout=LIVE)
    expect(card.locator("[data-my-seat]")).to_have_text(f"Table {seat.table} · seat {seat.seat}")
    expect(card.locator("[data-my-team]")).to_contain_text(f"Team {seat.team}")
    expect(card.locator("[data-table-mates] li")).to_have_count(3)
    assert page.evaluate("() => window.__notReloaded === true"), "the page was reloaded"
    settle(page)

    # Someone of the other side opens the table from their own link and enters a deal.
    other = next(m for m in seat.mates if not m.partner)
    other_phone = phone(browser)
    other_phone.goto(f"{live_server.url}/me/{entrant(event, other.name).private_token}/")
    other_phone.get_by_role("button", name="Open my table").click()
    expect(other_phone.locator("#entry")).to_be_visible()
    expect(other_phone.locator("#identity summary")).to_contain_text(other.name)
    theirs = Phone(other_phone)
    theirs.enter_roolz_deal(other.name, 170, 100)
    theirs.save("Deal 1 saved")

    # Ann opens her table in one tap, holding her seat, and confirms their deal.
    page.get_by_role("button", name="Open my table").click()
    expect(page.locator("#entry")).to_be_visible()
    expect(page.locator("#identity summary")).to_contain_text("Ann")
    expect(page.locator("#identity [data-own-link]")).to_be_visible()
    mine = Phone(page)
    expect(mine.confirm_button("Ann")).to_be_visible(timeout=LIVE)
    page.locator("#live .pending").scroll_into_view_if_needed()
    shot(page, "table-held-by-own-link")
    mine.confirm_as("Ann")
    expect(mine.pending).to_have_count(0, timeout=LIVE)

    game = me_selectors.table_game(seat.game_id)
    assert Round.objects.get(game=game, number=1).status == Round.Status.CONFIRMED
    entered = RoundEvent.objects.get(game=game, action=RoundEvent.Action.RECORD)
    confirmed = RoundEvent.objects.get(game=game, action=RoundEvent.Action.CONFIRM)
    assert entered.person == other.name
    assert confirmed.person == "Ann"
    assert entered.device != confirmed.device

    # The table's history says so too.
    page.goto(f"{live_server.url}/t/{game.table_token}/history/")
    audit = page.locator(".audit-list")
    expect(audit).to_contain_text(f"by {other.name} (own link)")
    expect(audit).to_contain_text("by Ann (own link)")
    other_phone.context.close()


def test_a_stranger_with_one_link_sees_nothing_of_another(live_server, page: Page):
    page.set_default_timeout(SLOW)
    event, director = club_night()
    services.event_self_service_set(event=event, self_check_in="open", user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    ben = entrant(event, "Ben")
    page.goto(f"{live_server.url}/me/{ben.private_token}/")
    expect(page.locator("[data-me-name]")).to_have_text("Ben")
    html = page.content()
    for name in ("Ann", "Cat", "Dan"):
        assert entrant(event, name).private_token not in html
    assert "/t/" not in html
    old = ben.private_token
    Entrant.objects.filter(pk=ben.pk).update(private_token=new_private_token())
    page.goto(f"{live_server.url}/me/{old}/")
    expect(page.locator("[data-me-unknown]")).to_contain_text("This link is not known")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_state_of_the_page_for_the_eye(live_server, browser, scheme):
    event, director = club_night()
    look = phone(browser, scheme)
    url = f"{live_server.url}/me/{entrant(event, 'Ann').private_token}/"

    look.goto(url)
    expect(look.locator("[data-me-state=waiting]")).to_be_visible()
    shot(look, f"me-waiting-{scheme}")

    services.event_self_service_set(event=event, self_check_in="open", user=director)
    look.reload()
    expect(look.get_by_role("button", name="Check in")).to_be_visible()
    shot(look, f"me-check-in-open-{scheme}")

    for name in NAMES:
        services.entrant_self_check_in(entrant=entrant(event, name))
    look.reload()
    expect(look.locator("[data-me-state=checked-in]")).to_be_visible()
    shot(look, f"me-checked-in-{scheme}")

    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    services.tournament_round_clock_start(
        event=event, round=event.rounds.get(number=1), minutes=40, user=director
    )
    look.reload()
    expect(look.locator("[data-me-state=seated]")).to_be_visible()
    shot(look, f"me-seated-{scheme}")

    for table in event.rounds.get(number=1).tables.select_related("game"):
        play_table(table)
    look.reload()
    expect(look.locator("[data-rank]")).to_be_visible()
    look.locator("summary", has_text="Leaving the event?").click()
    shot(look, f"me-results-{scheme}")

    look.once("dialog", lambda dialog: dialog.accept())  # "Drop out of Friday Roolz?"
    look.get_by_role("button", name="Ask the desk to drop out").click()
    expect(look.locator("[data-drop-asked]")).to_be_visible(timeout=LIVE)
    shot(look, f"me-drop-asked-{scheme}")

    services.entrant_drop_answer(
        event=event, entrant=entrant(event, "Ann"), agree=True, user=director
    )
    look.reload()
    expect(look.locator("[data-me-state=dropped]")).to_be_visible()
    shot(look, f"me-dropped-{scheme}")

    look.goto(f"{live_server.url}/me/not-anyones-link/")
    expect(look.locator("[data-me-unknown]")).to_be_visible()
    shot(look, f"me-unknown-{scheme}")

    roster = Roster.objects.create(owner=director)
    player = Player.objects.create(roster=roster, name="Zoë", folded="zoe")
    ClubNight.objects.create(event=event, roster=roster)
    look.goto(f"{live_server.url}/me/{player.private_token}/")
    expect(look.locator("[data-me-state=no-event]")).to_contain_text(
        "You are not playing in Friday Roolz"
    )
    shot(look, f"me-not-tonight-{scheme}")
    look.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_desk_card_for_the_eye(live_server, browser, scheme):
    event, director = club_night()
    services.event_self_service_set(event=event, self_check_in="open", user=director)
    services.entrant_self_check_in(entrant=entrant(event, "Ann"))
    services.entrant_self_drop(entrant=entrant(event, "Ben"))
    look = phone(browser, scheme)
    client_login(look, live_server, director)
    look.goto(f"{live_server.url}/desk/{event.pk}/")
    card = look.locator("#own-links")
    expect(card).to_contain_text("1 of 4 checked in")
    expect(card.locator("[data-drop-asked]")).to_contain_text("Ben")
    card.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    card.screenshot(path=str(SHOTS / f"desk-own-links-{scheme}.png"))
    # The desk sees a player check in by themselves, live.
    services.entrant_self_check_in(entrant=entrant(event, "Cat"))
    expect(card).to_contain_text("2 of 4 checked in", timeout=LIVE)
    card.get_by_role("button", name="Agree").click()
    expect(look.locator("#entrant-" + str(entrant(event, "Ben").pk))).to_contain_text(
        "dropped", timeout=LIVE
    )
    look.context.close()


def client_login(look: Page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    look.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
