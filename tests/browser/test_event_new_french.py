"""The new-event page of the director's desk in French, on a phone (390x844), light and dark:
once a game is chosen, every word the desk writes is French, the game's options (their
labels, help, choices and defaults) included. A word shown on the same part of the English
page is English left over, unless both languages write it alike or it is a game's name.
Screenshots:
test-artifacts/screenshots/fr-event-new-*.png."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.test_table_french import ALIKE, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Words both languages write alike on this page, beyond the table page's ("on" is a French
# pronoun too), a metric named after a person and a card of Roolz's.
ALSO_ALIKE = frozenset(
    {"Format", "Date", "possible", "tables", "points", "pages", "Buchholz", "on", "Roolerz"}
)


def desk_words(page: Page) -> set[str]:
    """The words of the new-event form, its options' included."""
    text = page.evaluate(
        """() => {
             const form = document.querySelector('form.new-event').cloneNode(true);
             form.querySelectorAll('[data-game-words], noscript').forEach(el => el.remove());
             const words = [];
             const walk = document.createTreeWalker(form, NodeFilter.SHOW_TEXT);
             while (walk.nextNode()) words.push(walk.currentNode.nodeValue);
             form.querySelectorAll('[placeholder], [aria-label]').forEach(el => words.push(
               ['placeholder', 'aria-label'].map(n => el.getAttribute(n) || '').join(' ')));
             return words.join(' ');
           }"""
    )
    return set(re.findall(r"[^\W\d_]{2,}", text))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_new_event_page_says_no_english_word_in_french(
    live_server, browser, browser_context_args, screenshot, scheme
):
    user = get_user_model().objects.create_user("director", password="cards", is_staff=True)
    shown: dict[str, set[str]] = {}
    for locale in ("en-CA", "fr-CA"):
        context = browser.new_context(
            **{**browser_context_args, "viewport": PHONE}, color_scheme=scheme, locale=locale
        )
        page = context.new_page()
        try:
            # The game named in the address: its options are drawn with the page (choosing
            # it by a tap races the page's script loading, which this test is not about).
            page.goto(f"{live_server.url}/admin/login/?next=/desk/new/%3Fgame%3Droolz")
            page.fill("#id_username", user.username)
            page.fill("#id_password", "cards")
            page.locator("input[type=submit]").click()
            expect(page.locator("#option-target")).to_be_visible()
            if locale == "fr-CA":
                expect(page.locator("h1")).to_have_text("Nouvel événement")
                expect(page.locator("button.start")).to_have_text("Créer l'événement")
                screenshot(page, f"fr-event-new-{scheme}", full_page=True)
                # A mistake is said in French beside its field.
                page.fill("#rounds_planned", "0")
                page.locator("button.start").click()
                expect(page.locator("#name-error")).to_have_text("Donnez un nom à l'événement.")
                screenshot(page, f"fr-event-new-{scheme}-refused", full_page=True)
            shown[locale] = desk_words(page)
        finally:
            context.close()
    left = (shown["fr-CA"] & shown["en-CA"]) - ALIKE - ALSO_ALIKE
    assert sorted(left) == [], " ".join(sorted(left))
