"""Limits that fit a venue: real creations per address, and wrong table tokens.

Each limit is a rate in ``TABLESCORE_RATES`` (``"600/h"``, ``"30/min"``, ``"2/3s"``;
None: no limit), read at each request. What counts:

- ``games``: a game started (the new-game page, a rematch, ``POST /api/games/``), per
  address, or per user when signed in. Only a game really created counts: the form's
  refreshes and a refused record never do, and an event's tables (made by publishing a
  round) never pass through here.
- ``print_jobs``: a print job asked for, per address.
- ``wrong_tokens``: a table token that opens no game, on the table pages and the API,
  per address. Past the limit a wrong token is answered 429; a right one always passes.
- ``signups``: a registration made on an event's sign-up page or through the API, per
  address (a refused one is given back).

Counts are kept per window (a fixed window of the rate's length) in the default cache,
which is shared by every server process whenever Redis is configured; ``incr`` keeps
them exact under concurrency. A 429 says when the window ends, on the page, in the
API's envelope and in ``Retry-After``. If the cache cannot be reached the request
passes: a limit never stops scoring.
"""

from __future__ import annotations

import logging
import math
import re
import time
from contextlib import suppress
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_noop, ngettext
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")

WHAT = {
    "games": gettext_noop("new games"),
    "print_jobs": gettext_noop("print requests"),
    "wrong_tokens": gettext_noop("wrong table links"),
    "signups": gettext_noop("sign-ups"),
}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str | None) -> Rate | None:
    """``"600/h"`` -> Rate(600, 3600); ``"2/3s"`` -> Rate(2, 3); None or "none" -> None."""
    if text is None or text.strip().lower() == "none":
        return None
    match = RATE.match(text.lower())
    if match is None or match.group(3) not in UNITS:
        raise ValueError(f"a rate is <count>/<s|min|hour|day>, not {text!r}")
    return Rate(int(match.group(1)), int(match.group(2) or 1) * UNITS[match.group(3)])


def rate_of(group: str) -> Rate | None:
    return parse_rate(settings.TABLESCORE_RATES.get(group))


def client_address(request: HttpRequest) -> str:
    """The client's address; behind NUM_PROXIES proxies, read from X-Forwarded-For."""
    proxies = settings.NUM_PROXIES
    if proxies > 0:
        forwarded = [a.strip() for a in request.headers.get("X-Forwarded-For", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if forwarded:
            return forwarded[-min(proxies, len(forwarded))]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def login_address(request: HttpRequest) -> str | None:
    """The client's address for the login lock-out (django-axes), as every throttle reads
    it; None when a request carries none (a login made in code, not over the network)."""
    address = client_address(request)
    return None if address == "unknown" else address


def who(request: HttpRequest, group: str) -> str:
    """Whom a count belongs to: a signed-in user for games, else the address."""
    user = getattr(request, "user", None)
    if group == "games" and user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_address(request)}"


class TooMany(Exception):
    """Over the rate: ``wait`` seconds until the window ends."""

    def __init__(self, group: str, wait: int):
        self.group = group
        self.wait = wait
        super().__init__(f"too many {WHAT.get(group, group)}: try again in {wait} s")


def _window(rate: Rate, ident: str, group: str) -> tuple[str, int]:
    now = time.time()
    start = int(now // rate.seconds) * rate.seconds
    wait = max(1, math.ceil(start + rate.seconds - now))
    return f"throttle:{group}:{ident}:{start}", wait


def take(request: HttpRequest, group: str, count: int = 1) -> None:
    """Count ``count`` of ``group`` (one unless told) for this request's client; raise
    TooMany past the rate."""
    rate = rate_of(group)
    if rate is None or count < 1:
        return
    key, wait = _window(rate, who(request, group), group)
    try:
        cache.add(key, 0, timeout=rate.seconds + 1)
        count = cache.incr(key, count)
    except (RedisError, OSError) as error:
        log.warning("throttle %s not counted: %s", group, error)
        return
    if count > rate.count:
        raise TooMany(group, wait)


def give_back(request: HttpRequest, group: str) -> None:
    """Undo one count: what was counted was not created after all."""
    rate = rate_of(group)
    if rate is None:
        return
    key, _wait = _window(rate, who(request, group), group)
    # The window may have turned meanwhile, or the cache be away: nothing to give back.
    with suppress(ValueError, RedisError, OSError):
        cache.decr(key)


def over(request: HttpRequest, group: str) -> int | None:
    """Seconds to wait if this client is already past the rate of ``group``, else None.
    Counts nothing."""
    rate = rate_of(group)
    if rate is None:
        return None
    key, wait = _window(rate, who(request, group), group)
    try:
        count = cache.get(key, 0)
    except (RedisError, OSError) as error:
        log.warning("throttle %s not read: %s", group, error)
        return None
    return wait if count >= rate.count else None


def in_words(wait: int) -> str:
    """A wait in the reader's language: "45 seconds", "3 minutes", "2 hours"."""
    if wait < 90:
        return ngettext("{count} second", "{count} seconds", wait).format(count=wait)
    minutes = math.ceil(wait / 60)
    if minutes < 90:
        return ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    hours = math.ceil(minutes / 60)
    return ngettext("{count} hour", "{count} hours", hours).format(count=hours)


def too_many_requests(request: HttpRequest, refused: TooMany) -> HttpResponse:
    """The answer past a rate: JSON for scripts, a page for people; both say when."""
    what = gettext(WHAT.get(refused.group, gettext_noop("requests")))
    template = (
        gettext("Too many {what} from this address: try again in {wait}.")
        if refused.group != "games" or not request.user.is_authenticated
        else gettext("Too many {what} from this account: try again in {wait}.")
    )
    message = template.format(what=what, wait=in_words(refused.wait))
    if "application/json" in request.headers.get("Accept", ""):
        answer: HttpResponse = JsonResponse(
            {"errors": [{"round": None, "field": None, "message": message}]}, status=429
        )
    else:
        answer = render(
            request,
            "too_many_requests.html",
            {"message": message, "wait": refused.wait},
            status=429,
        )
    answer["Retry-After"] = str(refused.wait)
    return answer


def refused(request: HttpRequest, group: str, count: int = 1) -> HttpResponse | None:
    """Count one creation of ``group`` (or ``count`` of them, say the wrong tokens of one
    request); the 429 to answer when past the rate, else None."""
    try:
        take(request, group, count)
    except TooMany as error:
        return too_many_requests(request, error)
    return None
