"""The tournament bench's event, small: both rounds it times are seated and published
through the same services a director uses, so the bench fails here when they change."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from bench.tournaments import generate_and_publish
from tournaments.models import Event, TournamentRound


@pytest.mark.django_db
def test_both_rounds_are_seated_and_published_with_everyone():
    owner = get_user_model().objects.create_user("bench-director-small")
    rows = generate_and_publish(owner, players=12)
    assert [row.figure.split(",")[1].strip() for row in rows] == [
        "round 1 generated and published (3 tables)",
        "round 2 generated and published (3 tables)",
    ]
    event = Event.objects.get(owner=owner)
    published = TournamentRound.objects.filter(event=event, status=TournamentRound.Status.PUBLISHED)
    assert published.count() == 2
    for tournament_round in published:
        seated = {
            seat.entrant_id for table in tournament_round.tables.all() for seat in table.seats.all()
        }
        assert len(seated) == 12
