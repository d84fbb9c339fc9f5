"""The background round generation: progress is stored, eagerly and on a real worker."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model

from tournaments import tasks
from tournaments.events import selectors, services
from tournaments.models import EventLog, TournamentRound

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    director = get_user_model().objects.create_user("director")
    event = services.event_create(owner=director, name="Big night", game="roolz")
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(40)), user=director
    )
    return event


def test_queued_generation_runs_on_commit_and_reports_done(
    event, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        tasks.round_generate_queue(event=event, user=event.owner)
    assert len(callbacks) == 1
    progress = selectors.generation_for(event=event)
    assert (progress.state, progress.round_number, progress.done) == ("done", 1, 3)
    draft = TournamentRound.objects.get(event=event)
    assert draft.status == TournamentRound.Status.DRAFT
    assert draft.tables.count() == 10
    actions = list(EventLog.objects.filter(event=event).values_list("action", flat=True))
    assert actions[-3:] == ["round_generation_queued", "round_generate", "round_generation_done"]
    # Delivered twice (a worker lost after the work): nothing changes.
    assert tasks.round_generate_task(event.pk, 1) == "done"
    assert TournamentRound.objects.filter(event=event).count() == 1


def test_a_refused_generation_is_stored_as_failed(event):
    event.rounds_planned = 0
    event.save()
    assert tasks.round_generate_task(event.pk, 1) == "failed"
    progress = selectors.generation_for(event=event)
    assert progress.state == "failed" and "rounds are published" in progress.message


def test_a_second_queue_while_one_waits_is_refused(event):
    tasks.round_generate_queue(event=event, user=event.owner)  # not committed: stays queued
    with pytest.raises(services.TournamentError):
        tasks.round_generate_queue(event=event, user=event.owner)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_generates_the_round(celery_worker_app):
    director = get_user_model().objects.create_user("worker-director")
    event = services.event_create(owner=director, name="Worker night", game="rummoli")
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(24)), user=director
    )
    tasks.round_generate_queue(event=event, user=director)  # autocommit: sent at once
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        progress = selectors.generation_for(event=event)
        if progress.state in ("done", "failed"):
            break
        time.sleep(0.05)
    assert progress.state == "done", progress.message
    draft = TournamentRound.objects.get(event=event)
    assert sum(table.seats.count() for table in draft.tables.all()) == 24


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_away_the_round_is_generated_in_the_request(broker_down):
    director = get_user_model().objects.create_user("offline-director")
    event = services.event_create(owner=director, name="No broker", game="roolz")
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(16)), user=director
    )
    tasks.round_generate_queue(event=event, user=director)  # autocommit: on_commit runs now
    assert selectors.generation_for(event=event).state == "done"
    assert TournamentRound.objects.get(event=event).tables.count() == 4
