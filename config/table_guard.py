"""Wrong table tokens on the table pages (``/t/<token>/...``): counted per address, and
answered 429 past their rate, while a right token always passes.

A table page whose token opens no game answers 404 and counts as a wrong token (the same
count as the API's). An address past the rate is answered 429 for every wrong token,
without the view running; a phone at that address holding a right token is let through.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from django.http import HttpRequest, HttpResponse

from config import throttles
from scoring.models import Game

GROUP = "wrong_tokens"


def _table_token(request: HttpRequest) -> str | None:
    match = request.resolver_match
    if match is None or match.namespace != "scoring":
        return None
    token = match.kwargs.get("token")
    return token if isinstance(token, str) else None


def _opens_a_game(token: str) -> bool:
    return Game.objects.filter(table_token=token).exists()


class WrongTableTokens:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        token = _table_token(request)
        if (
            token is not None
            and response.status_code == 404
            and not getattr(request, "_wrong_token_counted", False)
            and not _opens_a_game(token)
        ):
            # This one is answered 404 already; past the rate, the next is refused.
            with suppress(throttles.TooMany):
                throttles.take(request, GROUP)
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        token = _table_token(request)
        if token is None:
            return None
        wait = throttles.over(request, GROUP)
        if wait is None or _opens_a_game(token):
            return None
        request._wrong_token_counted = True  # type: ignore[attr-defined]
        return throttles.too_many_requests(request, throttles.TooMany(GROUP, wait))
