"""Print job services: ask for a stack of sheets, ask again, keep unfinished jobs moving.

One call per change, atomic. The drawing itself happens in a worker
(``printing.tasks`` -> ``printing.worker``), sent once the transaction commits so
that the worker always finds the row. When the print service (the broker) cannot be
reached the job is kept as "waiting for the print service", never an error: the sweep
(``printjob_sweep``, run by Celery beat) and every look at the job's page
(``printjob_watch``) send it again, and they restart a running job whose worker
stopped. Sending twice is harmless: a worker claims a job atomically.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from printing import dispatch
from printing.models import STALE_AFTER, PrintJob, stall_after
from printing.paper import default_paper, normalise_paper
from printing.registry import SOURCES

KEEP_JOBS = timedelta(days=7)  # finished print jobs (and their PDFs) are dropped after this
# A job is sent again at most this often, however many pages and sweeps look at it.
SEND_AGAIN_AFTER = timedelta(seconds=5)
# A queued job nobody has claimed for this long may have lost its message (a Redis
# restarted empty): it is sent again; a second message for a claimed job does nothing.
QUEUED_LOST_AFTER = timedelta(minutes=5)
SWEEP_LIMIT = 200  # jobs sent again by one sweep


def request_key(what: Mapping[str, Any], paper: str) -> str:
    """The same request (same sheets, same paper, same game revisions) has the same key."""
    material: dict[str, Any] = {"what": what, "paper": paper}
    material.update(SOURCES.for_request(what).freshness(what))
    canonical = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def in_asking_language(what: Mapping[str, Any]) -> dict[str, Any]:
    """``what`` with the language of the person asking (the active one), which the worker
    draws the sheets in; the default language is left unsaid, so an English job's request
    is what it always was."""
    asked = dict(what)
    language = translation.get_language() or settings.LANGUAGE_CODE
    if "language" not in asked and language.lower() != settings.LANGUAGE_CODE.lower():
        asked["language"] = language
    return asked


def printjob_create(*, what: Mapping[str, Any], paper: str | None = None) -> PrintJob:
    """The print job for this request: an existing one when asked before, else a new one.

    A finished or running job is reused; a failed or long-stuck one is queued again, one
    waiting for the print service is sent again. The task is sent after the transaction
    commits, so the worker always finds the row. ``what`` names its sheet source by its
    ``kind`` (``printing.registry``); the sheets are drawn in the language of the person
    asking (``in_asking_language``), and the same sheets asked in two languages are two jobs.
    """
    what = in_asking_language(what)
    paper = normalise_paper(paper or default_paper())
    source = SOURCES.for_request(what)
    key = request_key(what, paper)
    with transaction.atomic():
        job, created = PrintJob.objects.select_for_update().get_or_create(
            request_key=key,
            defaults={
                "what": dict(what),
                "paper_size": paper,
                "filename": source.filename(what),
                "sent_at": timezone.now(),
            },
        )
        if created:
            _send_on_commit(job.pk)
            _forget_old_jobs()
        else:
            _queue_again_if_needed(job)
    # Outside a transaction the task has been sent (or, eager, has run) by now.
    return PrintJob.objects.defer("pdf").get(pk=job.pk)


def printjob_retry(*, job_id: int) -> PrintJob:
    """Queue a failed (or stuck) job again; a job that is fine is left as it is."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().defer("pdf").get(pk=job_id)
        _queue_again_if_needed(job)
    return PrintJob.objects.defer("pdf").get(pk=job_id)


def printjob_watch(*, job: PrintJob) -> PrintJob:
    """The job as its page shows it, sent again first if it is waiting or its worker stopped.

    The page polls while a job is unfinished, so a job waiting for the print service
    starts soon after the service is back even where no sweep runs.
    """
    if job.status == PrintJob.Status.WAITING or job.stalled:
        _send_again(job.pk, now=timezone.now())
        return PrintJob.objects.defer("pdf").get(pk=job.pk)
    return job


def printjob_sweep(*, now: datetime | None = None) -> int:
    """Send again every job the print service does not have: the number of jobs sent.

    Waiting jobs (the broker was away when they were asked for), queued jobs nobody took
    for long (their message was lost), and running jobs whose progress stopped (their
    worker was killed; the next run takes them over, a bounded number of times).
    """
    now = now or timezone.now()
    ids = list(
        PrintJob.objects.filter(_needs_sending(now))
        .order_by("pk")
        .values_list("pk", flat=True)[:SWEEP_LIMIT]
    )
    return sum(_send_again(job_id, now=now) for job_id in ids)


def _needs_sending(now: datetime) -> Q:
    def not_sent_since(moment: datetime) -> Q:
        return Q(sent_at__isnull=True) | Q(sent_at__lt=moment)

    waiting = Q(status=PrintJob.Status.WAITING) & not_sent_since(now - SEND_AGAIN_AFTER)
    lost = Q(
        status=PrintJob.Status.QUEUED, updated_at__lt=now - QUEUED_LOST_AFTER
    ) & not_sent_since(now - QUEUED_LOST_AFTER)
    stall = stall_after()
    stalled = Q(status=PrintJob.Status.RUNNING, updated_at__lt=now - stall) & not_sent_since(
        now - stall
    )
    return waiting | lost | stalled


def _send_again(job_id: int, *, now: datetime) -> bool:
    """Send the job if it still needs it and nobody else just did; True when sent."""
    # The conditional update is the lock: of pages and sweeps looking at once, one sends.
    taken = PrintJob.objects.filter(_needs_sending(now), pk=job_id).update(sent_at=now)
    if not taken:
        return False
    if not dispatch.send(job_id):
        return False
    PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.WAITING).update(
        status=PrintJob.Status.QUEUED, updated_at=timezone.now()
    )
    return True


def _send_on_commit(job_id: int) -> None:
    transaction.on_commit(lambda: _send_or_wait(job_id))


def _send_or_wait(job_id: int) -> None:
    if dispatch.send(job_id):
        return
    # Nobody has the job: it waits for the print service, and says so on its page.
    PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.WAITING, updated_at=timezone.now()
    )


def _forget_old_jobs() -> None:
    """Print jobs are not records: a week on, their PDFs go, so the table stays small."""
    PrintJob.objects.filter(updated_at__lt=timezone.now() - KEEP_JOBS).delete()


def _queue_again_if_needed(job: PrintJob) -> None:
    stuck = not job.finished and timezone.now() - job.updated_at > STALE_AFTER
    if job.status == PrintJob.Status.FAILED or stuck:
        job.status = PrintJob.Status.QUEUED
        job.error = ""
        job.progress_done = 0
        job.restarts = 0
        job.sent_at = timezone.now()
        job.save(
            update_fields=["status", "error", "progress_done", "restarts", "sent_at", "updated_at"]
        )
        _send_on_commit(job.pk)
    elif job.status == PrintJob.Status.WAITING or job.stalled:
        transaction.on_commit(lambda: _send_again(job.pk, now=timezone.now()))
