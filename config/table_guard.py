"""Wrong table tokens on the table pages (``/t/<token>/...``, a game's scoresheet, the
print jobs' pages): counted per address, and answered 429 past their rate, while a right
token always passes.

Only such a page answering 404 is looked at: if its token opens no game it counts as a
wrong token (the same count as the API's), and past the rate the 404 becomes a 429 that
says when to try again. A right token never touches the count, so a phone at its table
is served whatever others at its address guessed, and costs nothing extra.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from common import throttles
from printing.models import PrintJob
from scoring.models import Game

GROUP = "wrong_tokens"


def _token_opens_nothing(request: HttpRequest) -> bool:
    """Whether the request's page took a table token (or a print job's) that opens
    nothing: the table pages, a game's scoresheet and the print jobs' pages."""
    match = request.resolver_match
    token = match.kwargs.get("token") if match is not None else None
    if match is None or not isinstance(token, str):
        return False
    if match.namespace == "scoring" or match.url_name == "scoresheet_pdf":
        return not Game.objects.filter(table_token=token).exists()
    if match.namespace == "printing" and str(match.url_name).startswith("print_job"):
        return not PrintJob.objects.filter(token=token).exists()
    return False


class WrongTableTokens:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 404:
            return response
        if not _token_opens_nothing(request):
            return response
        try:
            throttles.take(request, GROUP)
        except throttles.TooMany as refused:
            return throttles.too_many_requests(request, refused)
        return response
