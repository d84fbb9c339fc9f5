"""The health of the parts Tablescore leans on: the database, static files, the Celery broker
and the print service.

Two checks read the same parts, for two readers:

- readiness (``/healthz``), for a load balancer: 200 while this node can serve pages and
  score entry, that is while the database and the static files are well. A failing
  broker or print service is named in ``degraded`` (and ``failing``) without a 503:
  pages and score entry work without them, and a balancer must not take the site down
  with the broker.
- monitoring (``/healthz/monitor``): 503 as soon as any part fails, so that someone is
  told.

Liveness (``/healthz/live``) checks no part at all: the process answers.
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


PAGES_NEED = ("database", "static")  # what pages and score entry cannot work without


def parts() -> dict[str, dict[str, object]]:
    """Every part with its own ``ok`` and, when not, an ``error``."""
    broker, print_service = broker_and_print_service_status()
    return {
        "database": database_status(),
        "static": static_status(),
        "broker": broker,
        "print_service": print_service,
    }


def report(*, monitoring: bool = False) -> tuple[dict[str, Any], int]:
    """The body and status code of the readiness check, or with ``monitoring`` of the
    monitoring check (503 for any failing part)."""
    found = parts()
    failing = [name for name, part in found.items() if not part["ok"]]
    down = [name for name in failing if name in PAGES_NEED]
    degraded = [name for name in failing if name not in PAGES_NEED]
    status = "unavailable" if down else "degraded" if degraded else "ok"
    body: dict[str, Any] = {"status": status, "failing": failing, "degraded": degraded}
    body.update(found)
    healthy = not failing if monitoring else not down
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
    start = "start Celery beat (deploy/bin/beat) beside a worker (deploy/bin/worker)"
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
