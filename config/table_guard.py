"""Wrong table tokens on the table pages (``/t/<token>/...``): counted per address, and
answered 429 past their rate, while a right token always passes.

Only a table page answering 404 is looked at: if its token opens no game it counts as a
wrong token (the same count as the API's), and past the rate the 404 becomes a 429 that
says when to try again. A right token never touches the count, so a phone at its table
is served whatever others at its address guessed, and costs nothing extra.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from common import throttles
from scoring.models import Game

GROUP = "wrong_tokens"


def _table_token(request: HttpRequest) -> str | None:
    match = request.resolver_match
    if match is None or match.namespace != "scoring":
        return None
    token = match.kwargs.get("token")
    return token if isinstance(token, str) else None


class WrongTableTokens:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 404:
            return response
        token = _table_token(request)
        if token is None or Game.objects.filter(table_token=token).exists():
            return response
        try:
            throttles.take(request, GROUP)
        except throttles.TooMany as refused:
            return throttles.too_many_requests(request, refused)
        return response
