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
        tasks.tournament_round_generate_queue(event=event, user=event.owner)
    assert len(callbacks) == 1
    progress = selectors.generation_for(event=event)
    assert (progress.state, progress.round_number, progress.done) == ("done", 1, 3)
    draft = TournamentRound.objects.get(event=event)
    assert draft.status == TournamentRound.Status.DRAFT
    assert draft.tables.count() == 10
    actions = list(EventLog.objects.filter(event=event).values_list("action", flat=True))
    assert actions[-3:] == ["round_generation_queued", "round_generate", "round_generation_done"]
    # Delivered twice (a worker lost after the work): nothing changes.
    assert tasks.tournament_round_generate_task(event.pk, 1) == "done"
    assert TournamentRound.objects.filter(event=event).count() == 1


def test_a_refused_generation_is_stored_as_failed(event):
    event.rounds_planned = 0
    event.save()
    assert tasks.tournament_round_generate_task(event.pk, 1) == "failed"
    progress = selectors.generation_for(event=event)
    assert progress.state == "failed" and "rounds are published" in progress.message


def test_a_second_queue_while_one_waits_is_refused(event):
    tasks.tournament_round_generate_queue(
        event=event, user=event.owner
    )  # not committed: stays queued
    with pytest.raises(services.TournamentError):
        tasks.tournament_round_generate_queue(event=event, user=event.owner)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_generates_the_round(celery_worker_app):
    director = get_user_model().objects.create_user("worker-director")
    event = services.event_create(owner=director, name="Worker night", game="rummoli")
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(24)), user=director
    )
    tasks.tournament_round_generate_queue(event=event, user=director)  # autocommit: sent at once
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
    tasks.tournament_round_generate_queue(
        event=event, user=director
    )  # autocommit: on_commit runs now
    assert selectors.generation_for(event=event).state == "done"
    assert TournamentRound.objects.get(event=event).tables.count() == 4


# --------------------------------------------------------------------------- publishing


def test_a_large_draft_is_published_by_the_worker_a_chunk_at_a_time(
    event, eager_celery, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(tasks, "PUBLISH_CHUNK", 3)  # 10 tables: four chunks
    draft = services.tournament_round_generate(event=event, user=event.owner)
    marks: list[tuple[int, int]] = []
    mark = services.tournament_round_generation_mark

    def watched(**kwargs):
        if kwargs.get("state") == "running":
            marks.append((kwargs["done"], kwargs["total"]))
        return mark(**kwargs)

    monkeypatch.setattr(services, "tournament_round_generation_mark", watched)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.tournament_round_publish_queue(event=event, round=draft, user=event.owner)
    draft.refresh_from_db()
    assert draft.status == TournamentRound.Status.PUBLISHED
    assert marks == [(3, 10), (6, 10), (9, 10), (10, 10)]
    assert not draft.tables.filter(game__isnull=True).exists()
    progress = selectors.generation_for(event=event)
    assert (progress.state, progress.work, progress.done) == ("done", "publish", 10)
    # Delivered twice: nothing changes.
    games = set(draft.tables.values_list("game_id", flat=True))
    assert tasks.tournament_round_publish_task(event.pk, draft.pk) == "done"
    assert set(draft.tables.values_list("game_id", flat=True)) == games


def test_a_worker_lost_half_way_leaves_a_draft_finished_on_redelivery(event, monkeypatch):
    draft = services.tournament_round_generate(event=event, user=event.owner)
    done, total = services.tournament_round_publish_part(event=event, round=draft, most=4)
    assert (done, total) == (4, 10)
    draft.refresh_from_db()
    assert draft.status == TournamentRound.Status.DRAFT  # players see nothing yet
    prepared = set(draft.tables.exclude(game=None).values_list("game_id", flat=True))
    assert tasks.tournament_round_publish_task(event.pk, draft.pk) == "done"
    draft.refresh_from_db()
    assert draft.status == TournamentRound.Status.PUBLISHED
    assert prepared <= set(draft.tables.values_list("game_id", flat=True))


def test_seating_again_removes_the_games_prepared_for_the_old_draft(event):
    from scoring.models import Game

    draft = services.tournament_round_generate(event=event, user=event.owner)
    services.tournament_round_publish_part(event=event, round=draft, most=4)
    prepared = set(draft.tables.exclude(game=None).values_list("game_id", flat=True))
    services.tournament_round_generate(event=event, user=event.owner)
    assert not Game.objects.filter(pk__in=prepared).exists()


def test_the_desk_publishes_a_large_round_in_the_background(
    event, client, eager_celery, django_capture_on_commit_callbacks
):
    event.owner.is_staff = True
    event.owner.save()
    client.force_login(event.owner)
    draft = services.tournament_round_generate(event=event, user=event.owner)
    from django.urls import reverse

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("tournaments:round_publish", args=[event.pk, 1]))
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:desk_event", args=[event.pk])
    draft.refresh_from_db()
    assert draft.status == TournamentRound.Status.PUBLISHED
    page = client.get(reverse("tournaments:desk_event", args=[event.pk])).content.decode()
    assert "Round 1 is published" in page
