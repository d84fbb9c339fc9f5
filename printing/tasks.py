"""Celery tasks of the printing app: thin, they take ids and call the worker's service.

They are queued with ``transaction.on_commit`` by the service that creates the
row they work on, and they are safe to run twice. They acknowledge late and a
message whose worker was killed goes back on the queue, so a job survives a
worker that dies mid-drawing.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from printing import worker
from printing.models import PrintJob

logger = logging.getLogger(__name__)

RETRIES = 4
UNREACHABLE = "The database could not be reached while drawing the sheets; try again later."


# The task keeps the name it had in the scoring app: messages queued before an upgrade still run.
@shared_task(
    bind=True,
    name="scoring.render_print_job",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=RETRIES,
)
def render_print_job(self, job_id: int) -> str:
    """Draw the sheets of print job ``job_id``; retried while the database is away."""
    try:
        return worker.printjob_run(job_id=job_id)
    except (OperationalError, InterfaceError) as error:
        # Run in the request (eager), a retry would meet the same database at once.
        if self.request.is_eager or self.request.retries >= RETRIES:
            logger.exception("print job %s: the database stayed away", job_id)
            worker.printjob_fail_quietly(job_id=job_id, error=UNREACHABLE)
            return PrintJob.Status.FAILED
        raise self.retry(exc=error, countdown=2**self.request.retries) from error
