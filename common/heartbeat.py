"""The health record the workers keep: when the print sweep last ran.

A worker writes it (``record_sweep``); ``config.health`` reads it to say whether the
print service (a worker and Celery beat) is alive.
"""

from __future__ import annotations

import time

from django.conf import settings

SWEEP_KEY = "tablescore:print-sweep"  # when the print sweep last ran (seconds since the epoch)


def record_sweep() -> None:
    """Called by the print sweep (in a worker): a worker and beat are alive just now."""
    if not settings.REDIS_URL:
        return
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.set(SWEEP_KEY, str(time.time()), ex=24 * 3600)
    except redis.RedisError:
        pass  # the sweep itself came through this broker; a failure here is reported by health
    finally:
        client.close()
