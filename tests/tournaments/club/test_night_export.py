"""A club night's seating report keeps each table's mean rating (a list): exported and
imported back, the round keeps it as it was."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.club.test_flow import night, play_round
from tournaments.club import services as club
from tournaments.events import services
from tournaments.models import TournamentRound

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


def test_a_club_nights_table_means_survive_export_and_import(
    director, django_capture_on_commit_callbacks
):
    season = club.season_create(roster=club.roster_for(owner=director), name="Spring", rule={})
    play_round(
        night(director, "Week 1", season=season), director, django_capture_on_commit_callbacks
    )
    second = night(director, "Week 2", season=season)  # its players are rated by now
    play_round(second, director, django_capture_on_commit_callbacks)
    report = TournamentRound.objects.get(event=second).report
    means = report["table_means"]
    assert isinstance(means, list) and len(means) == second.rounds.get().tables.count()

    document = services.event_export(event=second)
    with django_capture_on_commit_callbacks(execute=True):
        copy = services.event_import(data=document, owner=director)
    assert copy.rounds.get().report["table_means"] == means
    assert copy.rounds.get().report == report
