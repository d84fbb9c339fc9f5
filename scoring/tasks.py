"""Celery tasks of the scoring app: thin, they take ids and call a service.

They are queued with ``transaction.on_commit`` by the service that creates the
row they work on, and they are safe to run twice.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from scoring import printing

logger = logging.getLogger(__name__)

RETRIES = 4
UNREACHABLE = "The database could not be reached while drawing the sheets; try again later."


@shared_task(bind=True, name="scoring.render_print_job", acks_late=True, max_retries=RETRIES)
def render_print_job(self, job_id: int) -> str:
    """Draw the sheets of print job ``job_id``; retried while the database is away."""
    try:
        return printing.print_job_run(job_id=job_id)
    except (OperationalError, InterfaceError) as error:
        # Run in the request (eager), a retry would meet the same database at once.
        if self.request.is_eager or self.request.retries >= RETRIES:
            logger.exception("print job %s: the database stayed away", job_id)
            printing.print_job_fail_quietly(job_id=job_id, error=UNREACHABLE)
            return printing.PrintJob.Status.FAILED
        raise self.retry(exc=error, countdown=2**self.request.retries) from error
