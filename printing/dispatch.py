"""Handing a print job to the print service: one message on the broker, or a clear "not now".

The task is named, not imported, so that the services that send it and the task that
runs them do not import each other. A broker that cannot be reached costs well under
a second here (one quick retry, a short connect timeout), never a failed request.
"""

from __future__ import annotations

import logging

from celery import current_app
from kombu.exceptions import KombuError

logger = logging.getLogger(__name__)

# The name the task had in the scoring app: messages queued before an upgrade still run.
RENDER_TASK = "scoring.render_print_job"
SWEEP_TASK = "printing.sweep"

# One quick retry: a request asking for sheets must not wait on a broker that is away.
PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def send(job_id: int) -> bool:
    """Queue the drawing of job ``job_id``; False when the print service cannot be reached.

    The result is not kept (the job row is the result): with a result backend, sending
    would first subscribe to the result in Redis and wait there for many seconds.
    """
    task = current_app.tasks[RENDER_TASK]
    try:
        task.apply_async((job_id,), retry_policy=PUBLISH_RETRY, ignore_result=True)
    except (KombuError, OSError) as error:
        logger.warning("print job %s: the print service cannot be reached (%s)", job_id, error)
        return False
    return True
