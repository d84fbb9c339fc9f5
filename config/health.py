"""Liveness of the parts Tablescore leans on: the database and the Celery broker."""

from __future__ import annotations

from django.conf import settings
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
