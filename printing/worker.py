"""The work of a print job, as the task runs it: claim the job, draw, record the outcome.

Progress, the finished PDF and failures are written to the job row, where the
page reads them. Every write of a run names the run (``run_id``): a run that was
taken over (its worker seemed gone, or its message came back) writes nothing more
and stops at its next sheet, so a job is finished by exactly one run.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import F, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from printing.errors import PrintRequestError
from printing.models import PrintJob, stall_after
from printing.registry import SOURCES
from printing.render import render

logger = logging.getLogger(__name__)

# The failures a job's page shows, in the language of the person who asked for the sheets.
TOO_LONG = gettext_noop(
    "These sheets took too long to draw (over {seconds} seconds). "
    "Print fewer at once, or try again."
)
GAVE_UP = gettext_noop(
    "The print service stopped {times} times while drawing these sheets. "
    "Try again; if it stops again, print fewer at once or tell the organiser."
)
NOT_DRAWN = gettext_noop(
    "The sheets could not be drawn ({error}). Try again; if it fails again, tell the organiser."
)


def _said(what: Any, template: str, **values: Any) -> str:
    """A failure in the language of the person who asked for the sheets."""
    language = what.get("language") if isinstance(what, dict) else None
    with translation.override(language or settings.LANGUAGE_CODE):
        return gettext(template).format(**values)


class TakenOver(Exception):
    """Another run holds the job now: this one stops without writing."""


def printjob_run(*, job_id: int, task_id: str = "") -> str:
    """Render a job's sheets; record progress, the file, or a failure on the job row.

    Claimed atomically (one conditional UPDATE): a queued or waiting job; or a running
    one whose run has stopped: its own message delivered again (``task_id``, the worker
    was killed) or no progress for a while. Those restarts are bounded
    (``PRINT_RESTARTS``), then the job fails with a message. A task delivered twice
    renders once. Database outages are raised for the task to retry; anything else is
    recorded on the job for the page to show, and logged.
    """
    run_id = uuid.uuid4().hex
    claim = {
        "status": PrintJob.Status.RUNNING,
        "progress_done": 0,
        "attempts": F("attempts") + 1,
        "run_id": run_id,
        "task_id": task_id[:64],
        "updated_at": timezone.now(),
    }
    jobs = PrintJob.objects.filter(pk=job_id)
    fresh = Q(status__in=[PrintJob.Status.QUEUED, PrintJob.Status.WAITING])
    stopped = Q(status=PrintJob.Status.RUNNING, updated_at__lt=timezone.now() - stall_after())
    if task_id:
        stopped |= Q(status=PrintJob.Status.RUNNING, task_id=task_id)
    restartable = stopped & Q(restarts__lt=settings.PRINT_RESTARTS)
    claimed = jobs.filter(fresh).update(**claim) or jobs.filter(restartable).update(
        restarts=F("restarts") + 1, **claim
    )
    if not claimed:
        asked = jobs.values_list("what", flat=True).first()
        gave_up = jobs.filter(stopped).update(
            status=PrintJob.Status.FAILED,
            error=_said(asked, GAVE_UP, times=settings.PRINT_RESTARTS + 1),
            updated_at=timezone.now(),
        )
        if gave_up:
            return PrintJob.Status.FAILED
        status = jobs.values_list("status", flat=True).first()
        return status or "missing"
    job = PrintJob.objects.defer("pdf").get(pk=job_id)
    mine = jobs.filter(run_id=run_id)
    try:
        what = job.what or {}
        # The sheets speak the language of the person who asked for them.
        with translation.override(what.get("language") or settings.LANGUAGE_CODE):
            sheets, total = SOURCES.for_request(what).sheets(what)
            _update(mine, progress_total=total)
            pdf = render(
                sheets,
                job.paper_size,
                title=job.filename or "Scoresheets",
                total=total,
                on_progress=_Progress(mine, total),
            )
    except TakenOver:
        logger.warning("print job %s: taken over by another run", job_id)
        return "taken over"
    except (OperationalError, InterfaceError):
        _requeue_quietly(mine)
        raise
    except PrintRequestError as problem:
        _update(mine, status=PrintJob.Status.FAILED, error=str(problem)[:2000])
        return PrintJob.Status.FAILED
    except Exception as error:
        if error.__class__.__name__ == "SoftTimeLimitExceeded":
            message = _said(what, TOO_LONG, seconds=settings.PRINT_TIME_LIMIT)
        else:
            logger.exception("print job %s failed", job_id)
            cause = f"{error.__class__.__name__}: {error}"
            message = _said(what, NOT_DRAWN, error=cause)
        _update(mine, status=PrintJob.Status.FAILED, error=message)
        return PrintJob.Status.FAILED
    finished = _update(
        mine,
        status=PrintJob.Status.DONE,
        pdf=pdf,
        size=len(pdf),
        progress_done=total,
        progress_total=total,
        error="",
    )
    return PrintJob.Status.DONE if finished else "taken over"


def printjob_fail(*, job_id: int, error: str) -> None:
    """Record a failure on an unfinished job (a finished one keeps its file)."""
    unfinished = PrintJob.objects.filter(pk=job_id).exclude(status=PrintJob.Status.DONE)
    _update(unfinished, status=PrintJob.Status.FAILED, error=error[:2000])


def printjob_fail_quietly(*, job_id: int, error: str) -> None:
    """Record a failure if the database allows it (the caller has logged the cause)."""
    try:
        printjob_fail(job_id=job_id, error=error)
    except (OperationalError, InterfaceError):
        logger.warning("print job %s: could not record its failure", job_id)


def report_progress(run: QuerySet[PrintJob], done: int, total: int) -> None:
    """Write a run's progress; a run that was taken over stops here."""
    if not _update(run, progress_done=done, progress_total=total):
        raise TakenOver


class _Progress:
    """Writes progress to the job row, often enough to move a bar, rarely enough to be cheap.

    Each write also says the run is alive: a run whose progress stops is restarted.
    """

    def __init__(self, run: QuerySet[PrintJob], total: int):
        self.run = run
        self.step = max(1, total // 50)
        self.delay = settings.PRINT_SHEET_DELAY

    def __call__(self, done: int, total: int) -> None:
        if self.delay:
            time.sleep(self.delay)  # fault drills only: a job slow enough to interrupt
        if done == total or done % self.step == 0:
            report_progress(self.run, done, total)


def _update(jobs: QuerySet[PrintJob], **values: Any) -> int:
    return jobs.update(updated_at=timezone.now(), **values)


def _requeue_quietly(run: QuerySet[PrintJob]) -> None:
    # The database may be away: the retry then finds the job as it was left.
    with contextlib.suppress(OperationalError, InterfaceError):
        _update(run, status=PrintJob.Status.QUEUED)
