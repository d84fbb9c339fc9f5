"""Whole games of each kind entered through the table page at phone size.

Each game is started on the start page, every round is entered by tapping, and
the final totals on the page and in the database must equal `manage.py score`
of the record of what was typed. Screenshots of each entry form and scoreboard
are saved as test artifacts.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from scoring.models import Game
from scoring.selectors import game_record_dict, game_score
from tests.vectors import RUMMOLI_RULES_EXAMPLE, vector_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SAVE_TIMEOUT = 5_000


# --------------------------------------------------------------------------- helpers


def settle(page: Page) -> None:
    """Wait until htmx has no request in flight."""
    page.wait_for_timeout(60)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def tap(page: Page, field: str, label: str, scope: str = "") -> None:
    """Tap the chip labelled ``label`` in the fieldset of ``field``."""
    chips = page.locator(f"{scope} fieldset[data-field='{field}'] label.chip")
    chips.filter(has_text=re.compile(rf"^\s*{re.escape(label)}\b")).first.click()


def start_game(
    page: Page,
    base_url: str,
    *,
    game: str,
    players: list[str],
    options: dict[str, Any] | None = None,
    confirmation: str = "off",
    screenshot=None,
) -> Game:
    page.goto(base_url + "/games/new/")
    page.locator("label.game-choice", has=page.locator(f"input[value='{game}']")).click()
    settle(page)
    count = page.locator("input[name=players]:checked")
    if count.get_attribute("value") != str(len(players)):
        page.locator(
            "label.chip", has=page.locator(f"input[name=players][value='{len(players)}']")
        ).click()
        settle(page)
    for seat, name in enumerate(players):
        page.fill(f"#player-{seat}", name)
    for name, value in (options or {}).items():
        control = page.locator(f"[name='option-{name}']")
        kind = control.first.get_attribute("type")
        if kind == "checkbox":
            control.set_checked(bool(value))
        elif kind == "radio":
            page.locator(
                "label.chip", has=page.locator(f"input[name='option-{name}'][value='{value}']")
            ).click()
        else:
            control.fill(str(value))
            control.dispatch_event("change")
        settle(page)
    page.locator(
        "label.chip", has=page.locator(f"input[name=confirmation][value='{confirmation}']")
    ).click()
    if screenshot:
        shoot(page, screenshot, f"start-{game}")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/"))
    token = page.url.split("/t/")[1].split("/")[0]
    expect(page.locator("#entry")).to_be_visible()
    return Game.objects.get(table_token=token)


def choose_seat(page: Page, name: str) -> None:
    page.locator("#identity").get_by_role("button", name=f"I am {name}").click()
    expect(page.locator("#identity summary")).to_contain_text(name)


def save(page: Page, expected: str) -> None:
    page.locator("button.save").click()
    expect(page.locator("#entry .notice.ok")).to_contain_text(expected, timeout=SAVE_TIMEOUT)


def preview_shows(page: Page, text: str) -> None:
    expect(page.locator("#preview")).to_contain_text(text, timeout=SAVE_TIMEOUT)


def shown_totals(page: Page) -> list[int]:
    texts = page.locator("#live .standing [data-total]").evaluate_all(
        "els => els.map(e => e.firstChild.textContent.trim())"
    )
    return [int(t.replace("\u2212", "-")) for t in texts]


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
    assert shown_totals(page) == group_totals
    assert game.status == Game.Status.FINISHED


def shoot(page: Page, screenshot, name: str) -> None:
    """The whole page from the top, the sticky bars in their places (by a style sheet of the
    CSSOM: the pages' policy refuses a <style> element)."""
    page.evaluate(
        """() => {
          const sheet = (window.__inPlace = new CSSStyleSheet());
          sheet.replaceSync(".actions, .topbar, .counter { position: static !important; }");
          document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
          window.scrollTo(0, 0);
        }"""
    )
    screenshot(page, name)
    page.evaluate(
        "document.adoptedStyleSheets = document.adoptedStyleSheets"
        ".filter(sheet => sheet !== window.__inPlace)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "wider than the phone"


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
    choose_seat(page, "Ann")

    # Round 1: Ann bids 200 and takes 190; team B's 110 is the rest of 300.
    tap(page, "bidder", "Ann")
    page.locator("[data-set=bid][data-value='200']").click()
    page.fill("#f-won-A", "190")
    expect(page.locator("#f-won-B")).to_have_value("110")
    preview_shows(page, "Team A \u2212200")
    shoot_form(page, screenshot, "roolz-entry")
    save(page, "Deal 1 saved")

    # Round 2: a misdeal.
    page.get_by_role("button", name="Misdeal").click()
    expect(page.locator("#entry .notice.ok")).to_contain_text("Misdeal recorded")

    # Round 3: Ben bids 185 from the ladder and his team takes every trick.
    tap(page, "bidder", "Ben")
    page.locator("[data-set=bid][data-value='185']").click()
    expect(page.locator("#f-bid")).to_have_value("185")
    tap(page, "all_tricks", "Team B")
    expect(page.locator("#f-won-B")).to_have_value("300")
    preview_shows(page, "Saving this ends the game")
    save(page, "Deal 3 saved")

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
    assert shown_totals(page) == [-200, 510]


def test_roller_derby_whole_game_with_early_finish(live_server, page: Page, screenshot, tmp_path):
    page.on("dialog", lambda dialog: dialog.accept())
    names = ["Ann", "Ben", "Cat", "Dan"]
    game = start_game(page, live_server.url, game="roller_derby", players=names)
    choose_seat(page, "Ben")
    expect(page.locator("#entry .entry-head")).to_contain_text("Ben rolls for team B")

    # Deal 1: Ben rolls 3 + 4, team B takes 6 tricks; Ann revokes (50, the default).
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="3").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="4").click()
    expect(page.locator("[data-target]")).to_have_text("7")
    tap(page, "tricks", "6")
    page.locator("details.penalties > summary").click()
    page.select_option("#f-penalties-0-player", label="Ann")
    page.fill("#f-penalties-0-reason", "revoke")
    preview_shows(page, "Team B +90")
    shoot_form(page, screenshot, "roller-derby-entry")
    save(page, "Deal 1 saved")

    # Deal 2: Cat rolls for team A and fails all or nothing.
    expect(page.locator("#entry .entry-head")).to_contain_text("Cat rolls for team A")
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="5").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="6").click()
    page.locator("label.switch", has_text="All or nothing").click()
    expect(page.locator("fieldset[data-field=tricks]")).to_be_hidden()
    tap(page, "made", "Failed")
    save(page, "Deal 2 saved")

    # Deal 3: Dan rolls 2 + 2; team B takes 4. All or nothing is spent for team A only.
    expect(page.locator("#entry .entry-head")).to_contain_text("Dan rolls for team B")
    expect(page.locator("[data-aon]")).to_be_enabled()
    page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="2").click()
    page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="2").click()
    tap(page, "tricks", "4")
    save(page, "Deal 3 saved")

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
    assert shown_totals(page) == [-50, 190]


def test_rook_sluff_whole_game(live_server, page: Page, screenshot, tmp_path):
    names = ["Ann", "Bartholomew-Maximilian", "Cat", "Dan", "Eve", "Fay"]
    game = start_game(page, live_server.url, game="rook_sluff", players=names, options={"deals": 2})
    deals = [
        ([3, 3, 0, 2, 3, 2], [3, 2, 2, 2, 3, 2]),
        ([2, 2, 2, 2, 2, 2], [3, 2, 2, 3, 2, 2]),
    ]
    for number, (bids, tricks) in enumerate(deals, start=1):
        for seat, (bid, took) in enumerate(zip(bids, tricks, strict=True)):
            if seat == 0:  # one player by the number pad, the rest typed
                pad = page.locator("[data-sluff] .pad")
                page.locator("#f-bids-0").click()
                pad.get_by_role("button", name=str(bid), exact=True).click()
                page.locator("#f-tricks-0").click()
                pad.get_by_role("button", name=str(took), exact=True).click()
            else:
                page.fill(f"#f-bids-{seat}", str(bid))
                page.fill(f"#f-tricks-{seat}", str(took))
        expect(page.locator("[data-remaining]")).to_have_text("0")
        expect(page.locator("[data-team-bid=A]")).to_have_text(str(sum(bids[0::2])))
        expect(page.locator("[data-team-bid=B]")).to_have_text(str(sum(bids[1::2])))
        page.locator("#f-tricks-5").dispatch_event("change")
        preview_shows(page, "Team A")
        if number == 1:
            shoot_form(page, screenshot, "rook-sluff-entry")
        save(page, f"Deal {number} saved")

    expect(page.locator("#entry .game-over")).to_contain_text("wins")
    shoot(page, screenshot, "rook-sluff-scoreboard")
    expected = typed_record(game, names, [{"bids": b, "tricks": t} for b, t in deals])
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
    tap(page, "widow", "Bought")
    tap(page, "widow.buyer", "Cat")
    page.fill("#f-widow\\.price", "2")
    tap(page, "poker.winners", "Ben")
    claims = {
        "ten_spades": "Dan",
        "jack_diamonds": "Ben",
        "king_hearts": "Cat",
        "ace_spades": "Ann",
        "ace_king_diamonds": "Dan",
    }
    for section, who in claims.items():
        claim(page, section, who)
    tap(page, "went_out", "Ben")
    expect(page.locator("#f-cards_left-1")).to_have_value("0")
    for seat, cards in ((0, 3), (2, 5), (3, 2)):
        page.fill(f"#f-cards_left-{seat}", str(cards))
    page.locator("#f-cards_left-3").dispatch_event("change")
    preview_shows(page, "Ben +13")
    shoot_form(page, screenshot, "rummoli-entry")
    save(page, "Hand 1 saved")
    assert shown_totals(page) == [44, 63, 38, 47]

    # Hand 2 (Ben deals): he exchanges; Ann, Cat and Dan bet 3 and Ann wins the pot;
    # three pay cards; a deadlock.
    tap(page, "widow", "Dealer exchanged")
    tap(page, "poker.winners", "Ann")
    for seat in (0, 2, 3):
        page.fill(f"#f-poker\\.bets-{seat}", "3")
    for section, who in {
        "queen_clubs": "Cat",
        "seven_eight_nine": "Dan",
        "ten_spades": "Ann",
    }.items():
        claim(page, section, who)
    tap(page, "went_out", "Deadlock")
    for seat, cards in enumerate((2, 4, 1, 3)):
        page.fill(f"#f-cards_left-{seat}", str(cards))
    page.locator("#f-cards_left-3").dispatch_event("change")
    preview_shows(page, "Ann")
    save(page, "Hand 2 saved")
    assert shown_totals(page) == [47, 50, 33, 40]
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
    assert shown_totals(page) == [47, 50, 33, 70]
