"""Refusals as a person sees them on a phone: past a limit, a desk that is not theirs,
and a round number that is not the next one."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page

from common.throttles import in_words
from tests.scoring.factories import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOBODY = "A" * 43


def test_past_the_wrong_token_rate_the_page_says_when(
    page: Page, live_server, settings, screenshot
):
    settings.TABLESCORE_RATES = {**settings.TABLESCORE_RATES, "wrong_tokens": "1/h"}
    page.goto(f"{live_server.url}/t/{NOBODY}/")
    answer = page.goto(f"{live_server.url}/t/{NOBODY}/")
    assert answer is not None and answer.status == 429
    # An hourly window, the clock's: minutes, or seconds near its end; as Retry-After says.
    wait = int(answer.headers["retry-after"])
    assert 0 < wait <= 3600
    assert f"try again in {in_words(wait)}" in page.inner_text("main")
    screenshot(page, "refusal-429")
    game = new_game()
    ok = page.goto(f"{live_server.url}/t/{game.table_token}/")
    assert ok is not None and ok.status == 200


def test_a_player_account_at_the_desk_is_told_why(page: Page, live_server, screenshot):
    player = get_user_model().objects.create_user("player", password="pw")
    client = Client()
    client.force_login(player)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    answer = page.goto(f"{live_server.url}/desk/")
    assert answer is not None and answer.status == 403
    assert "may not use the director's desk" in page.inner_text("main")
    screenshot(page, "refusal-403")


def test_a_round_number_that_is_not_the_next_is_the_forms_error(
    page: Page, live_server, screenshot
):
    game = new_game()
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    with page.expect_navigation():
        page.evaluate(
            """() => {
                const form = document.querySelector('input[name="number"]').form;
                form.querySelector('input[name="number"]').value = "0";
                HTMLFormElement.prototype.submit.call(form);
            }"""
        )
    page.wait_for_selector("[data-first-problem]")
    assert "The next deal is deal 1" in page.inner_text("[data-first-problem]")
    page.locator("[data-first-problem]").scroll_into_view_if_needed()
    screenshot(page, "refusal-round-number", full_page=False)
