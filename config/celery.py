"""The Celery app. Every module that defines tasks is named here, so that a worker started
any way (``deploy/bin/worker``) knows every task, whatever else it imports: Celery's
autodiscovery would import each app's top ``tasks`` module only, and miss a subpackage's."""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)

TASK_MODULES = (
    "printing.tasks",
    "tournaments.tasks",
    "tournaments.club.tasks",
)

app = Celery("tablescore", include=list(TASK_MODULES))
app.config_from_object("django.conf:settings", namespace="CELERY")


@app.task(name="tablescore.ping")
def ping(payload: dict) -> dict:
    """Echo a payload back: proves a round trip through the broker and a worker."""
    return {"pong": payload}
