"""Celery tasks of the printing app: thin, they take ids and call the worker's service.

The drawing task is sent after the transaction that made its row commits, and is
safe to run twice. It acknowledges late and a message whose worker process was
killed goes back on the queue at once (``reject_on_worker_lost``), where the next
run takes the job over. Its result is not kept: the job row is the result. The
sweep, sent by Celery beat, sends again what the print service does not have.
"""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from common.heartbeat import record_sweep
from printing import services, worker
from printing.dispatch import RENDER_TASK, SWEEP_TASK
from printing.models import PrintJob

logger = logging.getLogger(__name__)

RETRIES = 4
UNREACHABLE = "The database could not be reached while drawing the sheets; try again later."


@shared_task(
    bind=True,
    name=RENDER_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=RETRIES,
    soft_time_limit=settings.PRINT_TIME_LIMIT,
    time_limit=settings.PRINT_TIME_LIMIT + 30,
)
def render_print_job(self: Task, job_id: int) -> str:
    """Draw the sheets of print job ``job_id``; retried while the database is away."""
    try:
        return worker.printjob_run(job_id=job_id, task_id=self.request.id or "")
    except (OperationalError, InterfaceError) as error:
        # Run in the request (eager), a retry would meet the same database at once.
        if self.request.is_eager or self.request.retries >= RETRIES:
            logger.exception("print job %s: the database stayed away", job_id)
            worker.printjob_fail_quietly(job_id=job_id, error=UNREACHABLE)
            return PrintJob.Status.FAILED
        raise self.retry(exc=error, countdown=2**self.request.retries) from error


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep_print_jobs() -> int:
    """Send again the print jobs the print service does not have; say that the sweep ran."""
    sent = services.printjob_sweep()
    record_sweep()
    return sent
