"""Whole games of each kind entered through the table page at phone size.

Each game is started on the start page, every round is entered by tapping, and
the final totals on the page and in the database must equal `manage.py score`
of the record of what was typed. Screenshots of each entry form and scoreboard
are saved as test artifacts.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from scoring.models import Game
from scoring.selectors import game_record_dict, game_score
from tests.browser.pages import Phone, shoot, start_game
from tests.vectors import RUMMOLI_RULES_EXAMPLE, vector_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# --------------------------------------------------------------------------- helpers


def score_command(record: dict[str, Any], tmp_path) -> dict[str, Any]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = io.StringIO()
    call_command("score", str(path), stdout=out)
    return json.loads(out.getvalue())


def typed_record(game: Game, names: list[str], rounds: list, **extras: Any) -> dict[str, Any]:
    """The game record of what a test typed: its players, the options it chose, its rounds."""
    return {
        "format": 1,
        "game": game.kind,
        "players": names,
        "options": {**game.options},
        "first_dealer": 0,
        "rounds": rounds,
        **extras,
    }


def check_against_score(page: Page, game: Game, expected: dict[str, Any], tmp_path) -> None:
    """The page, the database and `manage.py score` agree on the final totals."""
    game.refresh_from_db()
    stored = game_record_dict(game)
    assert stored["rounds"] == expected["rounds"]
    scored = score_command(expected, tmp_path)
    assert scored["finished"] is True
    assert game_score(game).totals == scored["totals"]
    group_totals = (
        [scored["totals"][seats[0]] for seats in scored["teams"].values()]
        if scored["teams"]
        else scored["totals"]
    )
    assert Phone(page).totals() == group_totals
    assert game.status == Game.Status.FINISHED


def shoot_form(page: Page, screenshot, name: str) -> None:
    """The form as it looks on the phone, and the whole page."""
    page.locator("#entry").scroll_into_view_if_needed()
    screenshot(page, f"{name}-screen", full_page=False)
    shoot(page, screenshot, name)


# --------------------------------------------------------------------------- the games


def test_roolz_whole_game(live_server, page: Page, screenshot, tmp_path):
    page.on("dialog", lambda dialog: dialog.accept())
    names = ["Ann", "Ben", "Cat", "Dan"]
    game = start_game(
        page,
        live_server.url,
        game="roolz",
        players=names,
        options={"target": 300},
        screenshot=screenshot,
    )
    Phone(page).i_am("Ann")

    # Round 1: Ann bids 200 and takes 190; team B's 110 is the rest of 300.
    Phone(page).tap("bidder", "Ann")
    page.locator("[data-set=bid][data-value='200']").click()
    page.fill("#f-won-A", "190")
    expect(page.locator("#f-won-B")).to_have_value("110")
    Phone(page).preview_shows("Team A \u2212200")
    shoot_form(page, screenshot, "roolz-entry")
    Phone(page).save("Deal 1 saved")

    # Round 2: a misdeal.
    page.get_by_role("button", name="Misdeal").click()
    Phone(page).saved("Misdeal recorded")

    # Round 3: Ben bids 185 from the ladder and his team takes every trick.
    Phone(page).tap("bidder", "Ben")
    page.locator("[data-set=bid][data-value='185']").click()
    expect(page.locator("#f-bid")).to_have_value("185")
    Phone(page).tap("all_tricks", "Team B")
    expect(page.locator("#f-won-B")).to_have_value("300")
    Phone(page).preview_shows("Saving this ends the game")
    Phone(page).save("Deal 3 saved")

    expect(page.locator("#entry .game-over")).to_contain_text("Team B wins")
    shoot(page, screenshot, "roolz-scoreboard")
    page.goto(live_server.url + "/games/")
    expect(page.locator(".my-game")).to_contain_text("Team B wins")
    shoot(page, screenshot, "my-games")
    page.go_back()
    rounds = [
        {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}},
        {"misdeal": True},
        {"bidder": 1, "bid": 185, "won": {"A": 0, "B": 300}, "all_tricks": "B"},
    ]
    expected = typed_record(game, names, rounds)
    assert game.options["target"] == 300
    check_against_score(page, game, expected, tmp_path)
    assert Phone(page).totals() == [-200, 510]


def test_roller_derby_whole_game_with_early_finish(live_server, page: Page, screenshot, tmp_path):
    page.on("dialog", lambda dialog: dialog.accept())
    names = ["Ann", "Ben", "Cat", "Dan"]
    game = start_game(page, live_server.url, game="roller_derby", players=names)
    Phone(page).i_am("Ben")
    expect(page.locator("#entry .entry-head")).to_contain_text("Ben rolls for team B")

    # Deal 1: Ben rolls 3 + 4, team B takes 6 tricks; Ann revokes (50, the default).
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="3").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="4").click()
    expect(page.locator("[data-target]")).to_have_text("7")
    Phone(page).tap("tricks", "6")
    page.locator("details.penalties > summary").click()
    page.select_option("#f-penalties-0-player", label="Ann")
    page.fill("#f-penalties-0-reason", "revoke")
    Phone(page).preview_shows("Team B +90")
    shoot_form(page, screenshot, "roller-derby-entry")
    Phone(page).save("Deal 1 saved")

    # Deal 2: Cat rolls for team A and fails all or nothing.
    expect(page.locator("#entry .entry-head")).to_contain_text("Cat rolls for team A")
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="5").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="6").click()
    page.locator("label.switch", has_text="All or nothing").click()
    expect(page.locator("fieldset[data-field=tricks]")).to_be_hidden()
    Phone(page).tap("made", "Failed")
    Phone(page).save("Deal 2 saved")

    # Deal 3: Dan rolls 2 + 2; team B takes 4. All or nothing is spent for team A only.
    expect(page.locator("#entry .entry-head")).to_contain_text("Dan rolls for team B")
    expect(page.locator("[data-aon]")).to_be_enabled()
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="2").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="2").click()
    Phone(page).tap("tricks", "4")
    Phone(page).save("Deal 3 saved")

    # Team B leads by 240: the game may end before the final deal.
    offer = page.locator("#entry .offer")
    expect(offer).to_contain_text("240 points apart")
    screenshot(page, "roller-derby-scoreboard-offer", full_page=False)
    offer.get_by_role("button", name="End the game now").click()
    expect(page.locator("#entry .game-over")).to_contain_text("Team B wins")
    expect(page.locator("#entry .game-over")).to_contain_text("Ended early")
    shoot(page, screenshot, "roller-derby-scoreboard")
    rounds = [
        {
            "dice": [3, 4],
            "tricks": 6,
            "penalties": [{"player": 0, "points": 50, "reason": "revoke"}],
        },
        {"dice": [5, 6], "all_or_nothing": True, "made": False},
        {"dice": [2, 2], "tricks": 4},
    ]
    expected = typed_record(game, names, rounds, ended_early=True)
    check_against_score(page, game, expected, tmp_path)
    assert Phone(page).totals() == [-50, 190]


def test_rook_sluff_whole_game(live_server, page: Page, screenshot, tmp_path):
    names = ["Ann", "Bartholomew-Maximilian", "Cat", "Dan", "Eve", "Fay"]
    game = start_game(page, live_server.url, game="rook_sluff", players=names, options={"deals": 2})
    # each deal as the rules score it: the bids, team A's tricks, the Sluffs that took one
    deals = [
        ([3, 3, 0, 2, 3, 2], 7, [2]),
        ([2, 2, 2, 2, 2, 2], 7, []),
    ]
    pad = page.locator("[data-sluff] .pad")
    for number, (bids, team_a, failed) in enumerate(deals, start=1):
        for seat, bid in enumerate(bids):
            if seat == 0:  # one player by the number pad, the rest typed
                page.locator("#f-bids-0").click()
                pad.get_by_role("button", name=str(bid), exact=True).click()
            else:
                page.fill(f"#f-bids-{seat}", str(bid))
        for seat in failed:
            page.get_by_label(f"{names[seat]}'s Sluff took a trick").check()
        page.locator("#f-team_tricks-A").click()
        pad.get_by_role("button", name=str(team_a), exact=True).click()
        expect(page.locator("#f-team_tricks-B")).to_have_value(str(14 - team_a))
        expect(page.locator("[data-team-bid=A]")).to_have_text(str(sum(bids[0::2])))
        expect(page.locator("[data-team-bid=B]")).to_have_text(str(sum(bids[1::2])))
        Phone(page).preview_shows("Team A")
        if number == 1:
            shoot_form(page, screenshot, "rook-sluff-entry")
        Phone(page).save(f"Deal {number} saved")

    expect(page.locator("#entry .game-over")).to_contain_text("wins")
    shoot(page, screenshot, "rook-sluff-scoreboard")
    rounds = [
        {"bids": b, "team_tricks": {"A": a, "B": 14 - a}, **({"failed_sluffs": f} if f else {})}
        for b, a, f in deals
    ]
    expected = typed_record(game, names, rounds)
    assert game.options["deals"] == 2
    check_against_score(page, game, expected, tmp_path)


def claim(page: Page, section: str, who: str) -> None:
    """Tap the pay card grid: ``who`` laid the card of ``section``."""
    page.locator(f"input[name='pay_cards.{section}'][aria-label$=': {who}'] + span").click()


def test_rummoli_whole_game_with_leftovers(live_server, page: Page, screenshot, tmp_path):
    page.on("dialog", lambda dialog: dialog.accept())
    names = ["Ann", "Ben", "Cat", "Dan"]
    game = start_game(
        page, live_server.url, game="rummoli", players=names, options={"poker": "betting"}
    )

    # Hand 1 (Ann deals): Cat buys the widow for 2, Ben wins the poker, five pay cards,
    # Ben goes out.
    Phone(page).tap("widow", "Bought")
    Phone(page).tap("widow.buyer", "Cat")
    page.fill("#f-widow\\.price", "2")
    Phone(page).tap("poker.winners", "Ben")
    claims = {
        "ten_spades": "Dan",
        "jack_diamonds": "Ben",
        "king_hearts": "Cat",
        "ace_spades": "Ann",
        "ace_king_diamonds": "Dan",
    }
    for section, who in claims.items():
        claim(page, section, who)
    Phone(page).tap("went_out", "Ben")
    expect(page.locator("#f-cards_left-1")).to_have_value("0")
    for seat, cards in ((0, 3), (2, 5), (3, 2)):
        page.fill(f"#f-cards_left-{seat}", str(cards))
    page.locator("#f-cards_left-3").dispatch_event("change")
    Phone(page).preview_shows("Ben +13")
    shoot_form(page, screenshot, "rummoli-entry")
    Phone(page).save("Hand 1 saved")
    assert Phone(page).totals() == [44, 63, 38, 47]

    # Hand 2 (Ben deals): he exchanges; Ann, Cat and Dan bet 3 and Ann wins the pot;
    # three pay cards; a deadlock.
    Phone(page).tap("widow", "Dealer exchanged")
    Phone(page).tap("poker.winners", "Ann")
    for seat in (0, 2, 3):
        page.fill(f"#f-poker\\.bets-{seat}", "3")
    for section, who in {
        "queen_clubs": "Cat",
        "seven_eight_nine": "Dan",
        "ten_spades": "Ann",
    }.items():
        claim(page, section, who)
    Phone(page).tap("went_out", "Deadlock")
    for seat, cards in enumerate((2, 4, 1, 3)):
        page.fill(f"#f-cards_left-{seat}", str(cards))
    page.locator("#f-cards_left-3").dispatch_event("change")
    Phone(page).preview_shows("Ann")
    Phone(page).save("Hand 2 saved")
    assert Phone(page).totals() == [47, 50, 33, 40]
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "rummoli-scoreboard-board", full_page=False)

    # The end: the leftovers go to Dan.
    page.locator("details.end-game > summary").click()
    page.locator("details.end-game label.chip", has_text="Dan").click()
    page.locator("details.end-game").get_by_role("button", name="End the game").click()
    expect(page.locator("#entry .game-over")).to_contain_text("Dan wins")
    shoot(page, screenshot, "rummoli-scoreboard")
    # What was typed above is the worked example of the rules.
    example = vector_record(RUMMOLI_RULES_EXAMPLE)
    expected = typed_record(game, names, example["rounds"], end=example["end"])
    check_against_score(page, game, expected, tmp_path)
    assert Phone(page).totals() == [47, 50, 33, 70]
