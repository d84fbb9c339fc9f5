import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)

app = Celery("tablescore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="tablescore.ping")
def ping(payload: dict) -> dict:
    """Echo a payload back: proves a round trip through the broker and a worker."""
    return {"pong": payload}
