"""The API's limits: games started and wrong table tokens, counted by common.throttles.

Both are counted in the same place and at the same rates as the web pages'
(``TABLESCORE_RATES``); here they are raised as django-ninja's ``Throttled``, which the
error handlers answer with the envelope and ``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.http import HttpRequest
from ninja.errors import Throttled

from common import throttles


def take_or_raise(request: HttpRequest, group: str) -> None:
    """Count one of ``group``; past the rate, ``Throttled`` with the wait."""
    try:
        throttles.take(request, group)
    except throttles.TooMany as error:
        raise Throttled(wait=error.wait) from None


@contextmanager
def creation(request: HttpRequest, group: str) -> Iterator[None]:
    """Count one creation of ``group`` for what runs inside; given back if it fails."""
    take_or_raise(request, group)
    try:
        yield
    except BaseException:
        throttles.give_back(request, group)
        raise


def wrong_token(request: HttpRequest) -> None:
    """A wrong token from this request's address: counted; past the rate, Throttled."""
    take_or_raise(request, "wrong_tokens")


__all__: list[str] = ["creation", "take_or_raise", "wrong_token"]
