"""Liveness of the parts Tablescore leans on: the database, the Celery broker and static files.

``report()`` is the answer of ``/healthz``: every part with its own ``ok``, and the
names of the failing parts in ``failing``. The database, the broker and the static
files are what pages need: one failing makes the service unavailable (503). The print
service (a worker and Celery beat, seen through the sweep they run) is reported and
named when it fails, without a 503: pages and score entry work without it.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.db import connection

from common.heartbeat import SWEEP_KEY


def database_status() -> dict[str, object]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure means "not healthy", reported, not raised
        return {"ok": False, "vendor": connection.vendor, "error": error.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


PAGES_NEED = ("database", "broker", "static")


def report() -> tuple[dict[str, Any], int]:
    """The body and status code of ``/healthz``."""
    broker, print_service = broker_and_print_service_status()
    parts: dict[str, dict[str, object]] = {
        "database": database_status(),
        "broker": broker,
        "static": static_status(),
        "print_service": print_service,
    }
    failing = [name for name, part in parts.items() if not part["ok"]]
    healthy = not any(name in PAGES_NEED for name in failing)
    body: dict[str, Any] = {"status": "ok" if healthy else "unavailable", "failing": failing}
    body.update(parts)
    return body, 200 if healthy else 503


def broker_and_print_service_status() -> tuple[dict[str, object], dict[str, object]]:
    """The broker answers a ping; a worker has run the print sweep Celery beat sends lately."""
    if not settings.REDIS_URL:
        return {"ok": True, "mode": "eager"}, {"ok": True, "mode": "eager"}
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
        last = client.get(SWEEP_KEY)
    except redis.RedisError as error:
        unknown = {"ok": False, "error": "the broker cannot be reached"}
        return {"ok": False, "mode": "redis", "error": error.__class__.__name__}, unknown
    finally:
        client.close()
    return {"ok": True, "mode": "redis"}, _sweep_status(last)


def _sweep_status(last: bytes | str | None) -> dict[str, object]:
    allowed = 3 * settings.PRINT_SWEEP_SECONDS + 10
    start = "start a Celery worker with beat (celery -A config worker -B)"
    if last is None:
        return {"ok": False, "error": f"the print sweep has not run: {start}"}
    ago = max(0.0, time.time() - float(last))
    if ago > allowed:
        return {
            "ok": False,
            "last_sweep_seconds_ago": round(ago),
            "error": f"the print sweep has not run for {round(ago)} s: {start}",
        }
    return {"ok": True, "last_sweep_seconds_ago": round(ago)}


def static_status() -> dict[str, object]:
    """Whether every static file the pages may link to is in the manifest.

    Under manifest storage a page linking a file that was never collected
    answers 500, so such a file makes the service unhealthy, by name.
    """
    # The stubs type the configured storage as a plain Storage; it is whatever
    # STORAGES names, a manifest storage in production.
    storage: object = staticfiles_storage
    if not isinstance(storage, ManifestFilesMixin):
        return {"ok": True, "mode": "plain"}
    collected = storage.hashed_files
    missing = sorted(
        path
        for finder in finders.get_finders()
        for path, _ in finder.list(["CVS", ".*", "*~"])
        if path not in collected
    )
    if missing:
        return {
            "ok": False,
            "mode": "manifest",
            "error": "static files are not collected: run manage.py collectstatic",
            "missing": missing[:5],
        }
    return {"ok": True, "mode": "manifest"}
