"""Values kept in the cache every process reads (Redis when REDIS_URL is set), read and
written so that a cache away keeps nothing and fails nothing: the caller computes anew."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.core.cache import cache
from redis.exceptions import RedisError

AWAY = (RedisError, OSError)


def kept_get(key: str) -> Any:
    with suppress(*AWAY):
        return cache.get(key)
    return None


def kept_get_many(keys: list[str]) -> dict[str, Any]:
    """Several keys in one round trip; those not kept are missing from the answer."""
    with suppress(*AWAY):
        return dict(cache.get_many(keys))
    return {}


def kept_set(key: str, value: Any, seconds: float) -> None:
    with suppress(*AWAY):
        cache.set(key, value, seconds)


def kept_set_many(values: dict[str, Any], seconds: float) -> None:
    """Several keys in one round trip."""
    with suppress(*AWAY):
        cache.set_many(values, seconds)


def kept_add(key: str, value: Any, seconds: float) -> bool:
    """Whether this process took the key (with the cache away: yes, it goes ahead)."""
    with suppress(*AWAY):
        return bool(cache.add(key, value, seconds))
    return True


def kept_delete(key: str) -> None:
    with suppress(*AWAY):
        cache.delete(key)
