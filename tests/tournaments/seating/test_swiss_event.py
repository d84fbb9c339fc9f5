"""A swiss event seats its next round by the standings' points, as the desk generates it:
the points of the standings' first metric go to the seating with the standings order."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.events.services.tournament_rounds import _standings_order
from tournaments.standings import adapter as results

pytestmark = pytest.mark.django_db


def test_round_two_keeps_equal_points_together(django_capture_on_commit_callbacks):
    director = get_user_model().objects.create_user("director", password="x")
    event = services.event_create(
        owner=director,
        name="Swiss night",
        game="roolz",
        options=ROOLZ_OPTIONS,
        format="swiss",
        rounds_planned=2,
    )
    for number in range(12):
        services.entrant_add(event=event, name=f"Player {number:02}", user=director)
    first = services.tournament_round_generate(event=event, user=director)
    first = services.tournament_round_publish(event=event, round=first, user=director)
    for table in first.tables.select_related("game"):
        with django_capture_on_commit_callbacks(execute=True):
            play_table(table)  # seat 0's team wins every table
    standings = results.event_standings(event)
    metric = standings.metrics[0]
    points = {row.entrant: float(row.values[metric] or 0) for row in standings.rows}
    assert sorted(set(points.values())) == [1.0, 7.0]  # 6 winners, 6 losers
    assert _standings_order(event) == ([row.entrant for row in standings.rows], points)

    second = services.tournament_round_generate(event=event, user=director)
    tables = [[seat.entrant_id for seat in table.seats.all()] for table in second.tables.all()]
    assert sorted(len(table) for table in tables) == [4, 4, 4]
    # Six players on 7 points fill the top table and half the next; six on 1 point the
    # rest. The top table must seat two partners of round 1 again (four players from
    # three tables' winners): no swap with a player on 1 point is worth it.
    assert sorted(max(points[e] for e in t) - min(points[e] for e in t) for t in tables) == [
        0,
        0,
        6,
    ]
