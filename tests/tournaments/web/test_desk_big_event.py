"""A large event's desk stays light: players and tables a page at a time, with search."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.web.desk.views import LIVE_TABLES_SHOWN, PLAYERS_PAGE

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
BIG = 2_000
LIGHTEST = 300 * 1024  # what a desk page of any event may weigh


@pytest.fixture
def big(director):
    event = services.event_create(
        owner=director, name="Big night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:05d}" for n in range(BIG)), user=director
    )
    return event


def test_the_desk_of_a_large_event_lists_a_page_of_players_and_stays_light(desk, big, director):
    draft = services.tournament_round_generate(event=big, user=director)
    services.tournament_round_publish(event=big, round=draft, user=director)
    response = desk.get(reverse("tournaments:desk_event", args=[big.pk]))
    page = response.content.decode()
    assert len(response.content) < LIGHTEST
    assert page.count('class="check-in"') == PLAYERS_PAGE
    assert f"{BIG} players, page 1 of {BIG // PLAYERS_PAGE}" in page
    assert page.count('class="live-row') == LIVE_TABLES_SHOWN
    assert f"And {BIG // 4 - LIVE_TABLES_SHOWN} more tables" in page
    assert "Round 2 seats 2000 players" in page


def test_search_and_pages_find_every_player(desk, big):
    address = reverse("tournaments:desk_event", args=[big.pk])
    page = desk.get(address, {"q": "player 01234"}).content.decode()
    assert "Player 01234" in page and "1 player matches" in page
    page = desk.get(address, {"page": str(BIG // PLAYERS_PAGE)}).content.decode()
    assert f"Player {BIG - 1:05d}" in page and "Player 00000" not in page
    # Checking in from a later page answers with that same page.
    entrant = big.entrants.get(name="Player 01999")
    answer = desk.post(
        reverse("tournaments:entrant_check_in", args=[big.pk, entrant.pk]),
        {"checked_in": "on", "q": "", "page": str(BIG // PLAYERS_PAGE)},
        **HX,
    ).content.decode()
    first = big.entrants.get(name="Player 00000")
    assert f'id="entrant-{entrant.pk}"' in answer
    assert f'id="entrant-{first.pk}"' not in answer
    assert "and 1969 more." in answer  # the away players, named up to thirty
