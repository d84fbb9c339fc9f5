"""Queueing a Celery task by name, without waiting on a broker that is away.

Apps publish through here rather than through the Celery app in ``config``: the app
that is current (``config.celery``'s, once Django has started) knows every task.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from kombu.exceptions import KombuError

logger = logging.getLogger(__name__)

# One quick retry: a request must not wait on a broker that is away.
PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def publish(task_name: str, *args: Any, **kwargs: Any) -> bool:
    """Queue the task named ``task_name``; False when the broker cannot be reached.

    No result is kept (the rows the task writes are its result): with a result
    backend, sending would first subscribe to the result and wait there for seconds.
    """
    task = current_app.tasks[task_name]
    try:
        task.apply_async(args, kwargs, retry_policy=PUBLISH_RETRY, ignore_result=True)
    except (KombuError, OSError) as error:
        logger.warning("%s: the broker cannot be reached (%s)", task_name, error)
        return False
    return True
