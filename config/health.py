"""Liveness of the parts Tablescore leans on: the database, the Celery broker and static files."""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.db import connection


def database_status() -> dict[str, object]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure means "not healthy", reported, not raised
        return {"ok": False, "vendor": connection.vendor, "error": error.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


def broker_status() -> dict[str, object]:
    if not settings.REDIS_URL:
        return {"ok": True, "mode": "eager"}
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        return {"ok": False, "mode": "redis", "error": error.__class__.__name__}
    finally:
        client.close()
    return {"ok": True, "mode": "redis"}


def static_status() -> dict[str, object]:
    """Whether every static file the pages may link to is in the manifest.

    Under manifest storage a page linking a file that was never collected
    answers 500, so such a file makes the service unhealthy, by name.
    """
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return {"ok": True, "mode": "plain"}
    collected = staticfiles_storage.hashed_files
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
