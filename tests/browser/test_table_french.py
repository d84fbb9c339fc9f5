"""A deal of each game at a French-speaking table, on a phone (390x844), light and dark: the
table page with the deal waiting for the other side's confirmation and the next deal's form,
and the history. The parts of the page whose words are marked say no English word: a word
shown on the same part of the English page is English left over, unless it is a name, a
number or a word both languages write alike. Screenshots are saved under
test-artifacts/screenshots/fr-*.png to be looked at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game
from scoring.services import Actor, game_create, round_record
from tests.games import GAMES as ALL_GAMES
from tests.games import expected

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# The parts of the table page whose every word is marked: the scoreboard (teams, marks,
# facts), a deal waiting for confirmation with its summary, the round form (labels, help,
# choices, the Save bar) and the last deals with their summaries.
MARKED_PARTS = (
    "#identity",
    ".scoreboard",
    ".pending",
    "#entry",
    ".share summary",
    ".more-links",
    "#recent",
)
# Words both languages write alike, and the games' own names.
ALIKE = frozenset(
    {
        "Confirmation",
        "Options",
        "Poker",
        "Sluff",
        "Rook",
        "Roolz",
        "Rummoli",
        "Roller",
        "Derby",
        "Tablescore",
        "PDF",
        "QR",
        "Plus",
        "Points",
        "points",
        "total",
        "rummoli",
        "poker",
        "pot",
        "as",  # an ace in French ("as de pique")
        # The months both languages shorten alike (the history's times).
        "Jan",
        "Mar",
        "Sep",
        "Oct",
        "Nov",
        "Jokers",
        "table",
        "confirmation",
        "code",
    }
)


def make(kind: str) -> tuple[Game, list[str]]:
    players, rounds = expected(kind).LOOK
    game = game_create(
        record={"game": kind, "players": players, "options": {}},
        confirmation="other_side",
    ).game
    round_record(game=game, number=1, entry=rounds[0], actor=Actor(seat=0))
    return game, players


def words_of(page: Page, selectors: tuple[str, ...]) -> set[str]:
    """The words shown in the parts ``selectors`` name, each text of the page apart (two
    names in neighbouring boxes are two words, not one)."""
    text = page.evaluate(
        """(selectors) => selectors.flatMap(s => Array.from(document.querySelectorAll(s)))
             .filter(el => el.offsetParent || el.closest('details'))
             .flatMap(el => {
               const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
               const texts = [];
               for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                 const parent = node.parentElement;
                 if (parent && !parent.closest('script, style, template, [hidden]')) {
                   texts.push(node.textContent);
                 }
               }
               return texts;
             }).join(' ')""",
        list(selectors),
    )
    return set(re.findall(r"[^\W\d_]{2,}", text))


def english_left(french: set[str], english: set[str], names: list[str]) -> set[str]:
    named = {word for name in names for word in re.findall(r"[^\W\d_]{2,}", name)}
    return (french & english) - ALIKE - named


def test_the_check_sees_an_english_word_left():
    assert english_left({"Enregistrer", "Ann", "Save"}, {"Save", "Ann"}, ["Ann"]) == {"Save"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("kind", sorted(ALL_GAMES))
def test_a_deal_of_each_game_in_french(
    live_server, browser, browser_context_args, screenshot, kind, scheme
):
    game, names = make(kind)
    shown: dict[str, set[str]] = {}
    history: dict[str, set[str]] = {}
    for locale in ("en-CA", "fr-CA"):
        context = browser.new_context(
            **{**browser_context_args, "viewport": PHONE}, color_scheme=scheme, locale=locale
        )
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/t/{game.table_token}/")
            expect(page.locator("#entry form[data-entry]")).to_be_visible()
            shown[locale] = words_of(page, MARKED_PARTS)
            if locale == "fr-CA":
                expect(page.locator(".pending .badge").first).to_have_text(
                    "En attente de confirmation"
                )
                screenshot(page, f"fr-{kind}-{scheme}-table", full_page=True)
                page.evaluate("document.querySelector('#entry').scrollIntoView({block: 'start'})")
                screenshot(page, f"fr-{kind}-{scheme}-form", full_page=False)
            page.goto(f"{live_server.url}/t/{game.table_token}/history/")
            expect(page.locator("h1")).to_be_visible()
            history[locale] = words_of(page, ("main",))
            if locale == "fr-CA":
                expect(page.locator("h1")).to_contain_text("Toutes les")
                screenshot(page, f"fr-{kind}-{scheme}-history", full_page=True)
        finally:
            context.close()
    assert english_left(shown["fr-CA"], shown["en-CA"], names) == set()
    assert english_left(history["fr-CA"], history["en-CA"], names) == set()
