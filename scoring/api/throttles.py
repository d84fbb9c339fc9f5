"""Limits on starting games and on guessing tokens, at rates read from the settings.

The rates live in ``NINJA_DEFAULT_THROTTLE_RATES`` under the scopes ``games`` and
``wrong_tokens`` (``"30/min"``, ``"100/hour"``...; ``None`` switches a limit off) and
are read at each request, so a changed setting takes effect at once.
"""

from __future__ import annotations

import math
import time

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from ninja.conf import settings as ninja_settings
from ninja.errors import Throttled
from ninja.throttling import SimpleRateThrottle, UserRateThrottle


def rate_for(scope: str) -> str | None:
    rates = ninja_settings.DEFAULT_THROTTLE_RATES
    if scope not in rates:
        raise ImproperlyConfigured(f"NINJA_DEFAULT_THROTTLE_RATES has no rate for {scope!r}")
    return rates[scope]


class GameCreationThrottle(UserRateThrottle):
    """New games per signed-in user, or per address for everyone else."""

    scope = "games"

    def get_rate(self) -> str | None:
        return rate_for(self.scope)

    def allow_request(self, request: HttpRequest) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.num_requests is None:
            return True
        return super().allow_request(request)


class WrongTokenThrottle(SimpleRateThrottle):
    """Wrong table tokens per address: past the limit, no token is even looked at.

    Only failures count, so a phone with the right token is never slowed down by its
    own traffic. Keeps no state on the instance: one instance serves every thread.
    """

    scope = "wrong_tokens"

    def get_rate(self) -> str | None:
        return rate_for(self.scope)

    def get_cache_key(self, request: HttpRequest) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _recent(self, request: HttpRequest) -> tuple[list[float], int, int] | None:
        count, duration = self.parse_rate(self.get_rate())
        if count is None or duration is None:
            return None
        now = time.time()
        history = [t for t in self.cache.get(self.get_cache_key(request), []) if t > now - duration]
        return history, count, duration

    def check(self, request: HttpRequest) -> None:
        """Raise Throttled when this address has guessed too often lately."""
        recent = self._recent(request)
        if recent is None:
            return
        history, count, duration = recent
        if len(history) >= count:
            oldest = min(history)
            raise Throttled(wait=max(1, math.ceil(oldest + duration - time.time())))

    def record_failure(self, request: HttpRequest) -> None:
        recent = self._recent(request)
        if recent is None:
            return
        history, _count, duration = recent
        self.cache.set(self.get_cache_key(request), [time.time(), *history], duration)


game_creation_throttle = GameCreationThrottle()
wrong_token_throttle = WrongTokenThrottle()
