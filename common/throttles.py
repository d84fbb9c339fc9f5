"""Limits on the pages that create work: new games, print jobs.

The counting is django-ratelimit's, per address, in the default cache; the rates are
settings (``TABLESCORE_RATES``), read at each request so that tests and operators can
change them. An address over its rate gets a 429 that says when to try again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django_ratelimit.decorators import ratelimit

View = TypeVar("View", bound=Callable[..., HttpResponse])


def rate_for(group: str, request: HttpRequest) -> str | None:
    """The rate of one kind of request ("games", "print_jobs"); None: unlimited."""
    return settings.TABLESCORE_RATES.get(group)


def throttled(group: str) -> Callable[[View], View]:
    """Limit the POSTs of a view to the rate of ``group`` per address."""
    limit: Callable[[View], View] = ratelimit(
        group=group, key="ip", rate=rate_for, method="POST", block=True
    )
    return limit


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The answer to a request over its rate: JSON for scripts, a page for people."""
    message = "Too many requests from this address: wait a minute and try again."
    if "application/json" in request.headers.get("Accept", ""):
        answer: HttpResponse = JsonResponse(
            {"errors": [{"round": None, "field": None, "message": message}]}, status=429
        )
    else:
        answer = render(request, "too_many_requests.html", {"message": message}, status=429)
    answer["Retry-After"] = "60"
    return answer
