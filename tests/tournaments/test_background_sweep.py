"""Seating and publishing in the background never stay stuck: the sweep (sent by Celery
beat) sends again a job whose message was lost or whose worker died, and it finishes
exactly once; the desk shows a stuck job and starts it again."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import Game
from tournaments import tasks
from tournaments.events import selectors, services
from tournaments.models import Event, TournamentRound

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    director = get_user_model().objects.create_user("director", is_staff=True)
    event = services.event_create(owner=director, name="Big night", game="roolz")
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(40)), user=director
    )
    return event


def gone_quiet(event: Event, seconds: float = 3600) -> None:
    """The job's last progress ``seconds`` ago."""
    event.refresh_from_db()
    event.generation = {**event.generation, "at": time.time() - seconds}
    event.save(update_fields=["generation"])


def test_a_lost_seating_message_is_sent_again_and_seats_the_round_once(event, eager_celery):
    # Queued in a transaction whose commit never sends (the message lost with the broker).
    tasks.tournament_round_generate_queue(event=event, user=event.owner)
    assert selectors.generation_for(event=event).state == "queued"
    assert tasks.background_sweep_task() == 0  # not quiet for long yet: left alone
    gone_quiet(event)
    assert tasks.background_sweep_task() == 1
    progress = selectors.generation_for(event=event)
    assert (progress.state, progress.round_number, progress.restarts) == ("done", 1, 1)
    draft = TournamentRound.objects.get(event=event)
    seated = [seat.entrant_id for table in draft.tables.all() for seat in table.seats.all()]
    assert len(seated) == len(set(seated)) == 40
    assert tasks.background_sweep_task() == 0  # done: nothing more to send


def test_a_publishing_whose_worker_died_half_way_is_finished_once(event, eager_celery):
    draft = services.tournament_round_generate(event=event, user=event.owner)
    tasks.tournament_round_publish_queue(event=event, round=draft, user=event.owner)
    services.tournament_round_publish_part(event=event, round=draft, most=4)  # then the worker died
    services.tournament_round_generation_mark(event=event, state="running", done=4, total=10)
    prepared = set(draft.tables.exclude(game=None).values_list("game_id", flat=True))
    gone_quiet(event)
    assert tasks.background_sweep_task() == 1
    draft.refresh_from_db()
    assert draft.status == TournamentRound.Status.PUBLISHED
    games = list(draft.tables.values_list("game_id", flat=True))
    assert None not in games and len(set(games)) == 10
    assert prepared <= set(games)
    assert Game.objects.filter(event_table__round=draft).count() == 10  # no table twice
    assert selectors.generation_for(event=event).state == "done"


def test_a_second_run_meeting_the_first_ones_published_round_reports_done(event):
    draft = services.tournament_round_generate(event=event, user=event.owner)
    tasks.tournament_round_publish_task(event.pk, draft.pk)
    draft.refresh_from_db()
    assert draft.status == TournamentRound.Status.PUBLISHED
    # A copy sent by the sweep while the first still ran, arriving after it.
    services.tournament_round_generation_mark(
        event=event, state="queued", work="publish", round=1, round_id=draft.pk
    )
    assert tasks.tournament_round_publish_task(event.pk, draft.pk) == "done"
    assert selectors.generation_for(event=event).state == "done"


def test_restarts_spent_the_job_fails_with_a_message(event, settings):
    settings.BACKGROUND_RESTARTS = 1
    tasks.tournament_round_generate_queue(event=event, user=event.owner)
    event.refresh_from_db()
    event.generation = {**event.generation, "restarts": 1}
    event.save(update_fields=["generation"])
    gone_quiet(event)
    assert tasks.background_sweep_task() == 0
    progress = selectors.generation_for(event=event)
    assert progress.state == "failed"
    assert progress.message == services.tournament_rounds.GONE_QUIET
    # The desk may seat the round again.
    tasks.tournament_round_generate_queue(event=event, user=event.owner)
    assert selectors.generation_for(event=event).state == "queued"


def test_the_desk_shows_a_stuck_job_and_starts_it_again(
    event, client, eager_celery, django_capture_on_commit_callbacks
):
    client.force_login(event.owner)
    tasks.tournament_round_generate_queue(event=event, user=event.owner)
    page = client.get(reverse("tournaments:desk_event", args=[event.pk])).content.decode()
    assert "again</button>" not in page  # under way and moving: nothing to offer
    gone_quiet(event, seconds=45)
    page = client.get(reverse("tournaments:desk_event", args=[event.pk])).content.decode()
    quiet = re.search(r"No progress for (\d+) s", page)
    assert quiet and 45 <= int(quiet.group(1)) < 600
    assert "Start seating round 1 again</button>" in page
    with django_capture_on_commit_callbacks(execute=True) as sent:
        answer = client.post(
            reverse("tournaments:generation_restart", args=[event.pk]), HTTP_HX_REQUEST="true"
        )
    assert answer.status_code == 200 and len(sent) == 1
    shown = client.get(reverse("tournaments:generation", args=[event.pk]), HTTP_HX_REQUEST="true")
    assert "Round 1 is seated" in shown.content.decode()
    assert TournamentRound.objects.filter(event=event).count() == 1
    # With nothing under way, starting again is refused in words.
    refused = client.post(
        reverse("tournaments:generation_restart", args=[event.pk]), HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 200
    assert TournamentRound.objects.filter(event=event).count() == 1


def test_a_late_copy_of_an_earlier_seating_seats_nothing(event, eager_celery):
    """A killed worker's message comes back from the broker after the sweep's copy did
    the work and the director moved on to the next round: it changes nothing."""
    round_1 = services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event, user=event.owner)
    )
    tasks.tournament_round_generate_queue(
        event=event, user=event.owner, go_on=True
    )  # round 2, queued
    assert tasks.tournament_round_generate_task(event.pk, round_1.number) == "stale"
    assert TournamentRound.objects.filter(event=event).count() == 1
    assert selectors.generation_for(event=event).state == "queued"
