"""A seating whose worker stopped, as the desk shows it on a phone: how long it has been
quiet, and a button that starts it again."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tournaments.events import services
from tournaments.models import TournamentRound

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_starts_a_stuck_seating_again(live_server, page: Page, eager_celery, screenshot):
    director = get_user_model().objects.create_user(
        "director", password="cards-at-eight", is_staff=True
    )
    event = services.event_create(owner=director, name="Thursday Roolz", game="roolz")
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(40)), user=director
    )
    services.tournament_round_generation_mark(
        event=event, state="queued", work="seat", round=1, done=0, total=3
    )
    event.refresh_from_db()
    event.generation = {**event.generation, "at": time.time() - 95}  # its worker stopped
    event.save(update_fields=["generation"])

    page.goto(f"{live_server.url}/desk/{event.pk}/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "cards-at-eight")
    page.get_by_role("button", name="Log in").click()
    box = page.locator("#generation")
    expect(box).to_contain_text(re.compile(r"No progress for \d+ s"))
    again = box.get_by_role("button", name="Start seating round 1 again")
    expect(again).to_be_visible()
    box.scroll_into_view_if_needed()
    screenshot(page, "desk-stuck-seating", full_page=False)
    again.click()
    expect(box).to_contain_text("Round 1 is seated", timeout=15_000)
    assert TournamentRound.objects.filter(event=event).count() == 1
