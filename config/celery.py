import logging
import os
from typing import Any

from celery import Celery
from kombu.exceptions import KombuError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)

app = Celery("tablescore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="tablescore.ping")
def ping(payload: dict) -> dict:
    """Echo a payload back: proves a round trip through the broker and a worker."""
    return {"pong": payload}


# One quick retry: a request must not wait on a broker that is away.
PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def publish(task_name: str, *args: Any, **kwargs: Any) -> bool:
    """Queue the task named ``task_name``; False when the broker cannot be reached.

    No result is kept (the rows the task writes are its result): with a result
    backend, sending would first subscribe to the result and wait there for seconds.
    """
    task = app.tasks[task_name]
    try:
        task.apply_async(args, kwargs, retry_policy=PUBLISH_RETRY, ignore_result=True)
    except (KombuError, OSError) as error:
        logging.getLogger(__name__).warning(
            "%s: the broker cannot be reached (%s)", task_name, error
        )
        return False
    return True
