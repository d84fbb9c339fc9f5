"""Print jobs: stacks of sheets rendered by a Celery task, eagerly and through a real worker."""

from __future__ import annotations

import subprocess
import threading
import time
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from printing import services, sources, worker
from printing.errors import PrintRequestError
from printing.models import STALE_AFTER, PrintJob, stall_after
from printing.tasks import render_print_job
from tests.scoring.factories import new_game, roolz_round

NAMES = ["Zoë", "Łukasz", "Søren", "Ðorđe"]


def pdf_text(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")


def finished(job: PrintJob, timeout: float = 30) -> PrintJob:
    """The job once a worker has finished it (the row is the task's result)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.finished:
            return job
        time.sleep(0.05)
    raise AssertionError(f"print job {job.pk} still {job.status} after {timeout} s")


def blank(copies: int = 3, game: str = "roolz", players: int = 4):
    return sources.blank_request(game=game, players=players, copies=copies)


def game_with_names(names=NAMES, rounds=2):
    record = {
        "format": 1,
        "game": "roolz",
        "players": list(names),
        "rounds": [roolz_round(bidder=n % 4) for n in range(rounds)],
    }
    return new_game(record)


# --------------------------------------------------------------------------- eager


@pytest.mark.django_db
def test_a_stack_of_blank_sheets_is_rendered_with_progress(
    eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        job = services.printjob_create(what=blank(copies=5), paper="LETTER")
    assert len(queued) == 1
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE
    assert (job.progress_done, job.progress_total) == (5, 5)
    assert job.attempts == 1
    pdf = bytes(job.pdf)
    assert pdf.startswith(b"%PDF")
    assert job.size == len(pdf)
    assert pdf_text(pdf).count("Roolz scoresheet") == 5
    assert b"/MediaBox [ 0 0 612 792 ]" in pdf
    assert job.filename == "roolz-4-players-blank-x5.pdf"
    assert job.about == "5 blank Roolz sheets for 4 players, US Letter"


@pytest.mark.django_db
def test_the_same_request_gets_the_same_job_and_no_second_render(
    eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = services.printjob_create(what=blank(), paper="A4")
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = services.printjob_create(what=blank(), paper="A4")
    assert again.pk == first.pk
    assert queued == []  # done already: nothing queued
    with django_capture_on_commit_callbacks(execute=True):
        letter = services.printjob_create(what=blank(), paper="LETTER")
    assert letter.pk != first.pk


@pytest.mark.django_db
def test_the_task_is_idempotent(eager_celery, django_capture_on_commit_callbacks, monkeypatch):
    with django_capture_on_commit_callbacks(execute=True):
        job = services.printjob_create(what=blank(copies=2), paper="A4")
    renders = []
    monkeypatch.setattr(worker, "render", lambda *a, **k: renders.append(1) or b"%PDF-")
    assert render_print_job.delay(job.pk).get() == "done"
    assert renders == []  # a second delivery finds the job done and leaves it
    job.refresh_from_db()
    assert job.attempts == 1


@pytest.mark.django_db
def test_the_task_is_queued_only_after_the_commit(eager_celery, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        job = services.printjob_create(what=blank(), paper="A4")
        job.refresh_from_db()
        assert job.status == PrintJob.Status.QUEUED
    assert len(queued) == 1
    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED  # the callback was held back
    queued[0]()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE


@pytest.mark.django_db
def test_the_sheets_of_several_games(eager_celery, django_capture_on_commit_callbacks):
    first = game_with_names()
    second = game_with_names(["Ann", "Ben", "Cat", "Dan"], rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.printjob_create(what=sources.games_request([first.pk, second.pk]))
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE
    assert (job.progress_done, job.progress_total) == (2, 2)
    text = pdf_text(bytes(job.pdf))
    assert "Zoë" in text and "Ðorđe" in text and "Ben" in text
    assert f"#{first.pk}" in text and f"#{second.pk}" in text
    assert job.about == "Scoresheets of 2 games, A4"


@pytest.mark.django_db
def test_a_game_that_changed_is_printed_afresh(eager_celery, django_capture_on_commit_callbacks):
    from scoring.services import Actor, round_record

    game = game_with_names(rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        before = services.printjob_create(what=sources.games_request([game.pk]))
    round_record(game=game, number=2, entry=roolz_round(bidder=1), actor=Actor())
    with django_capture_on_commit_callbacks(execute=True):
        after = services.printjob_create(what=sources.games_request([game.pk]))
    assert after.pk != before.pk


@pytest.mark.django_db
def test_a_failure_is_recorded_on_the_job(
    eager_celery, django_capture_on_commit_callbacks, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("the ink ran out")

    monkeypatch.setattr(worker, "render", broken)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.printjob_create(what=blank(), paper="A4")
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "the ink ran out" in job.error
    assert job.pdf is None


@pytest.mark.django_db
def test_a_game_deleted_before_printing_fails_with_a_clear_message(
    eager_celery, django_capture_on_commit_callbacks
):
    game = game_with_names()
    what = sources.games_request([game.pk])
    game.delete()
    with django_capture_on_commit_callbacks(execute=True):
        job = services.printjob_create(what=what)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert job.error == f"Game #{what['games'][0]} no longer exists."


@pytest.mark.django_db
def test_a_failed_job_is_queued_again_when_asked_again(
    eager_celery, django_capture_on_commit_callbacks, monkeypatch
):
    real = worker.render
    monkeypatch.setattr(worker, "render", lambda *a, **k: 1 / 0)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.printjob_create(what=blank(), paper="A4")
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    monkeypatch.setattr(worker, "render", real)
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = services.printjob_create(what=blank(), paper="A4")
    assert again.pk == job.pk and len(queued) == 1
    again.refresh_from_db()
    assert again.status == PrintJob.Status.DONE
    assert again.error == ""
    assert again.attempts == 2


@pytest.mark.django_db
def test_a_stale_job_is_queued_again(eager_celery, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        job = services.printjob_create(what=blank(), paper="A4")
    long_ago = timezone.now() - STALE_AFTER - timedelta(minutes=1)
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, updated_at=long_ago)
    with django_capture_on_commit_callbacks(execute=True) as queued:
        services.printjob_create(what=blank(), paper="A4")
    assert len(queued) == 1
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE


@pytest.mark.django_db
def test_a_database_outage_in_the_request_fails_the_job_for_the_page(eager_celery, monkeypatch):
    job = PrintJob.objects.create(request_key="k", what=blank(), paper_size="A4")

    def down(*, job_id, task_id=""):
        raise OperationalError("the database went away")

    monkeypatch.setattr(worker, "printjob_run", down)
    assert render_print_job.delay(job.pk).get() == "failed"
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "database could not be reached" in job.error


@pytest.mark.django_db
def test_requests_a_person_can_fix_are_refused_up_front():
    with pytest.raises(PrintRequestError, match="copies must be from 1 to"):
        blank(copies=0)
    with pytest.raises(PrintRequestError, match="not 9"):
        blank(game="rummoli", players=9)
    with pytest.raises(PrintRequestError, match="no such game: 999999"):
        sources.games_request([999999])
    with pytest.raises(PrintRequestError, match="at least one game"):
        sources.games_request([])


# --------------------------------------------------------------------------- a real worker


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_renders_the_stack_and_reports_progress(
    celery_worker_in_process, monkeypatch
):
    """Progress is watched in the job row from here while the worker draws the sheets.

    The worker waits after each progress report until this test has seen it in the
    database, so every step is observed, however fast the drawing is.
    """
    seen_here = threading.Semaphore(0)
    real_report = worker.report_progress

    def report_and_wait(run, done, total):
        real_report(run, done, total)
        seen_here.acquire(timeout=15)

    monkeypatch.setattr(worker, "report_progress", report_and_wait)
    job = services.printjob_create(what=blank(copies=4, game="rook_sluff", players=6))
    observed: list[tuple[str, int, int]] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        row = PrintJob.objects.defer("pdf").get(pk=job.pk)
        step = (row.status, row.progress_done, row.progress_total)
        if row.status == PrintJob.Status.RUNNING and row.progress_done and step not in observed:
            observed.append(step)
            seen_here.release()
        if row.finished:
            break
        time.sleep(0.01)
    assert observed == [("running", n, 4) for n in (1, 2, 3, 4)]
    row = PrintJob.objects.get(pk=job.pk)
    assert row.status == PrintJob.Status.DONE, row.error
    assert (row.progress_done, row.progress_total) == (4, 4)
    assert pdf_text(bytes(row.pdf)).count("Rook Sluff scoresheet") == 4


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_reports_a_failure_on_the_job(celery_worker_app):
    game = game_with_names()
    job = PrintJob.objects.create(
        request_key="worker-failure", what={"kind": "games", "games": [game.pk, 987654321]}
    )
    render_print_job.delay(job.pk)
    job = finished(job)
    assert job.status == PrintJob.Status.FAILED
    assert job.error == "Game #987654321 no longer exists."
    assert job.progress_total == 2


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_renders_games_with_latin_names(celery_worker_app):
    game = game_with_names(rounds=3)
    job = finished(services.printjob_create(what=sources.games_request([game.pk])))
    assert job.status == PrintJob.Status.DONE, job.error
    text = pdf_text(bytes(job.pdf))
    for name in NAMES:
        assert name in text


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_retries_while_the_database_is_away(celery_worker_in_process, monkeypatch):
    job = PrintJob.objects.create(request_key="worker-retry", what=blank(copies=1))
    calls = []
    real = worker.printjob_run

    def flaky(*, job_id, task_id=""):
        calls.append(job_id)
        if len(calls) == 1:
            raise OperationalError("the database went away")
        return real(job_id=job_id, task_id=task_id)

    monkeypatch.setattr(worker, "printjob_run", flaky)
    render_print_job.delay(job.pk)
    job = finished(job)
    assert calls == [job.pk, job.pk]
    assert job.status == PrintJob.Status.DONE


# --------------------------------------------------------------------------- faults


def running_job(*, key: str = "running", stopped: bool, **values) -> PrintJob:
    """A job some run holds; ``stopped``: its progress has not moved for a while."""
    job = PrintJob.objects.create(
        request_key=key,
        what=blank(copies=3),
        status=PrintJob.Status.RUNNING,
        progress_done=1,
        progress_total=3,
        attempts=1,
        run_id="first-run",
        task_id="first-message",
        **values,
    )
    if stopped:
        PrintJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - 2 * stall_after())
    return job


@pytest.mark.django_db
def test_a_run_that_was_taken_over_writes_nothing_more(monkeypatch):
    """The same message delivered again while its first run still draws: one finishes it."""
    job = PrintJob.objects.create(request_key="takeover", what=blank(copies=4))
    real = worker.render
    second: list[str] = []

    def render_and_meanwhile(sheets, paper, *, on_progress, **rest):
        def progress(done, total):
            on_progress(done, total)
            if done == 2 and not second:
                second.append("started")  # the message comes back while this run draws
                second.append(worker.printjob_run(job_id=job.pk, task_id="message-1"))

        return real(sheets, paper, on_progress=progress, **rest)

    monkeypatch.setattr(worker, "render", render_and_meanwhile)
    first = worker.printjob_run(job_id=job.pk, task_id="message-1")
    assert second == ["started", "done"]
    assert first == "taken over"  # stopped at its next sheet, writing nothing
    job.refresh_from_db()
    assert (job.status, job.attempts, job.restarts) == (PrintJob.Status.DONE, 2, 1)
    assert (job.progress_done, job.progress_total) == (4, 4)
    assert pdf_text(bytes(job.pdf)).count("Roolz scoresheet") == 4


@pytest.mark.django_db
def test_another_message_leaves_a_live_run_alone():
    job = running_job(stopped=False)
    assert worker.printjob_run(job_id=job.pk, task_id="another-message") == "running"
    job.refresh_from_db()
    assert (job.run_id, job.attempts, job.restarts) == ("first-run", 1, 0)


@pytest.mark.django_db
def test_a_run_whose_progress_stopped_is_taken_over_by_any_message():
    job = running_job(stopped=True)
    assert worker.printjob_run(job_id=job.pk, task_id="another-message") == "done"
    job.refresh_from_db()
    assert (job.status, job.attempts, job.restarts) == (PrintJob.Status.DONE, 2, 1)
    assert job.task_id == "another-message"


@pytest.mark.django_db
def test_restarts_are_bounded(settings):
    job = running_job(stopped=True, restarts=settings.PRINT_RESTARTS)
    assert worker.printjob_run(job_id=job.pk, task_id="first-message") == "failed"
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert f"stopped {settings.PRINT_RESTARTS + 1} times" in job.error
    assert job.pdf is None


@pytest.mark.django_db
def test_an_unreachable_print_service_leaves_the_job_waiting(
    broker_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job = services.printjob_create(what=blank(copies=2), paper="A4")
    job.refresh_from_db()  # the job was sent (or not) once its transaction committed
    assert job.status == PrintJob.Status.WAITING
    PrintJob.objects.filter(pk=job.pk).update(sent_at=timezone.now() - timedelta(minutes=1))
    assert services.printjob_sweep() == 0  # still away
    job.refresh_from_db()
    assert job.status == PrintJob.Status.WAITING
    assert timezone.now() - job.sent_at < timedelta(minutes=1)  # tried again just now
    with django_capture_on_commit_callbacks(execute=True):
        again = services.printjob_create(what=blank(copies=2), paper="A4")
    again.refresh_from_db()
    assert again.pk == job.pk and again.status == PrintJob.Status.WAITING


@pytest.mark.django_db
def test_the_sweep_sends_again_only_what_the_print_service_lacks(eager_celery):
    now = timezone.now()
    long_ago = now - services.QUEUED_LOST_AFTER - timedelta(minutes=1)

    def job(key, status, *, sent, touched=now, **values):
        made = PrintJob.objects.create(
            request_key=key, what=blank(copies=1), status=status, sent_at=sent, **values
        )
        PrintJob.objects.filter(pk=made.pk).update(updated_at=touched)
        return made

    waiting = job("waiting", PrintJob.Status.WAITING, sent=now - timedelta(minutes=1))
    just_tried = job("just-tried", PrintJob.Status.WAITING, sent=now)
    lost = job("lost", PrintJob.Status.QUEUED, sent=long_ago, touched=long_ago)
    in_line = job("in-line", PrintJob.Status.QUEUED, sent=now - timedelta(seconds=30))
    stalled = running_job(key="stalled", stopped=True)
    drawing = running_job(key="drawing", stopped=False)
    assert services.printjob_sweep() == 3
    status = dict(PrintJob.objects.values_list("request_key", "status"))
    assert status == {
        waiting.request_key: "done",
        lost.request_key: "done",
        stalled.request_key: "done",
        just_tried.request_key: "waiting",
        in_line.request_key: "queued",
        drawing.request_key: "running",
    }
    assert services.printjob_sweep() == 0  # nothing is sent twice in a row
