"""The round clock on an event's table pages (entry and view links), reached through
scoring's settings hook; casual games show none."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.models import Game
from scoring.services import game_create
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import selectors, services
from tournaments.models import TournamentRound

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_round():
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n}" for n in range(1, 9)), user=director
    )
    draft = services.tournament_round_generate(event=event, user=director)
    round_ = services.tournament_round_publish(event=event, round=draft, user=director)
    return event, TournamentRound.objects.get(pk=getattr(round_, "pk", draft.pk)), director


def a_table_game(round_: TournamentRound) -> Game:
    table = round_.tables.exclude(game=None).select_related("game").first()
    assert table is not None
    return table.game


def both_pages(client, game: Game) -> list[str]:
    return [
        client.get(f"/t/{game.table_token}/").content.decode(),
        client.get(f"/v/{game.view_token}/").content.decode(),
    ]


def test_no_clock_until_the_director_starts_it(client, event_round):
    _, round_, _ = event_round
    for html in both_pages(client, a_table_game(round_)):
        assert "data-clock" not in html


def test_a_running_clock_shows_on_both_table_pages(client, event_round):
    event, round_, director = event_round
    services.tournament_round_clock_start(event=event, round=round_, minutes=30, user=director)
    for html in both_pages(client, a_table_game(round_)):
        assert 'data-clock-state="running"' in html
        assert "Time left" in html
        left = int(html.split('data-clock-left="')[1].split('"')[0])
        assert 29 * 60 <= left <= 30 * 60


def test_a_paused_clock_stands_still_and_says_so(client, event_round):
    event, round_, director = event_round
    services.tournament_round_clock_start(event=event, round=round_, minutes=10, user=director)
    services.tournament_round_clock_pause(event=event, round=round_, user=director)
    for html in both_pages(client, a_table_game(round_)):
        assert 'data-clock-state="paused"' in html
        assert "Clock paused" in html


def test_at_zero_the_table_pages_say_last_deal(client, event_round):
    _, round_, _ = event_round
    TournamentRound.objects.filter(pk=round_.pk).update(
        clock_ends_at=timezone.now() - timedelta(seconds=5)
    )
    for html in both_pages(client, a_table_game(round_)):
        assert selectors.LAST_DEAL in html
        assert "is-up" in html


def test_the_live_part_carries_the_clock(client, event_round):
    event, round_, director = event_round
    services.tournament_round_clock_start(event=event, round=round_, minutes=20, user=director)
    game = a_table_game(round_)
    html = client.get(f"/t/{game.table_token}/live/", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-clock-state="running"' in html


def test_a_casual_game_shows_no_clock(client, event_round):
    event, round_, director = event_round
    services.tournament_round_clock_start(event=event, round=round_, minutes=30, user=director)
    record = {"game": "roolz", "options": ROOLZ_OPTIONS, "players": ["Ann", "Bob", "Cy", "Di"]}
    casual = game_create(record=record).game
    for html in both_pages(client, casual):
        assert "data-clock" not in html
