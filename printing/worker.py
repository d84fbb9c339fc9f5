"""The work of a print job, as the task runs it: claim the job, draw, record the outcome.

Progress, the finished PDF and failures are written to the job row, where the
page reads them.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.db import InterfaceError, OperationalError
from django.db.models import F, Q
from django.utils import timezone

from printing.errors import PrintRequestError
from printing.models import STALE_AFTER, PrintJob
from printing.registry import SOURCES
from printing.render import render

logger = logging.getLogger(__name__)


def printjob_run(*, job_id: int) -> str:
    """Render a job's sheets; record progress, the file, or a failure on the job row.

    Idempotent: only a queued (or stale running) job is claimed, so a task delivered
    twice renders once. Database outages are raised for the task to retry; anything
    else is recorded on the job for the page to show, and logged.
    """
    stale = timezone.now() - STALE_AFTER
    claimable = Q(status=PrintJob.Status.QUEUED) | Q(
        status=PrintJob.Status.RUNNING, updated_at__lt=stale
    )
    claimed = PrintJob.objects.filter(claimable, pk=job_id).update(
        status=PrintJob.Status.RUNNING,
        progress_done=0,
        attempts=F("attempts") + 1,
        updated_at=timezone.now(),
    )
    if not claimed:
        status = PrintJob.objects.filter(pk=job_id).values_list("status", flat=True).first()
        return status or "missing"
    job = PrintJob.objects.get(pk=job_id)
    try:
        what = job.what or {}
        sheets, total = SOURCES.for_request(what).sheets(what)
        _update(job_id, progress_total=total)
        pdf = render(
            sheets,
            job.paper_size,
            title=job.filename or "Scoresheets",
            total=total,
            on_progress=_Progress(job_id, total),
        )
    except (OperationalError, InterfaceError):
        _requeue_quietly(job_id)
        raise
    except PrintRequestError as problem:
        printjob_fail(job_id=job_id, error=str(problem))
        return PrintJob.Status.FAILED
    except Exception as error:
        logger.exception("print job %s failed", job_id)
        printjob_fail(
            job_id=job_id,
            error=f"The sheets could not be drawn ({error.__class__.__name__}: {error}). "
            "Try again; if it fails again, tell the organiser.",
        )
        return PrintJob.Status.FAILED
    _update(
        job_id,
        status=PrintJob.Status.DONE,
        pdf=pdf,
        size=len(pdf),
        progress_done=total,
        progress_total=total,
        error="",
    )
    return PrintJob.Status.DONE


def printjob_fail(*, job_id: int, error: str) -> None:
    _update(job_id, status=PrintJob.Status.FAILED, error=error[:2000])


def printjob_fail_quietly(*, job_id: int, error: str) -> None:
    """Record a failure if the database allows it (the caller has logged the cause)."""
    try:
        printjob_fail(job_id=job_id, error=error)
    except (OperationalError, InterfaceError):
        logger.warning("print job %s: could not record its failure", job_id)


def report_progress(job_id: int, done: int, total: int) -> None:
    _update(job_id, progress_done=done, progress_total=total)


class _Progress:
    """Writes progress to the job row, often enough to move a bar, rarely enough to be cheap."""

    def __init__(self, job_id: int, total: int):
        self.job_id = job_id
        self.step = max(1, total // 50)

    def __call__(self, done: int, total: int) -> None:
        if done == total or done % self.step == 0:
            report_progress(self.job_id, done, total)


def _update(job_id: int, **values: Any) -> None:
    PrintJob.objects.filter(pk=job_id).update(updated_at=timezone.now(), **values)


def _requeue_quietly(job_id: int) -> None:
    # The database may be away: the retry then finds the job as it was left.
    with contextlib.suppress(OperationalError, InterfaceError):
        _update(job_id, status=PrintJob.Status.QUEUED)
