"""A database that cannot be reached answers 503 with "try again", never a 500.

The database dropping a connection mid-request, or being down, is not a bug of ours:
Django turns the exception into the site's 500 handler, which is this one. A request
under ``/api/`` gets the API's errors envelope with ``Retry-After``; a page gets a short
"try again" page. Nothing half-done was kept: every change is one transaction, and a
retried round with its Idempotency-Key is stored once. Any other exception is still
the plain 500 it always was.
"""

from __future__ import annotations

import sys

import psycopg
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.defaults import server_error

from scoring.api.errors import errors_response

RETRY_AFTER_SECONDS = 2
MESSAGE = "the database cannot be reached just now: try again in a moment"


def database_unavailable(error: BaseException | None) -> bool:
    """Whether ``error`` (or what it came from) is the database being out of reach: a
    connection refused, dropped or cut, or a conversation with the server broken off
    mid-answer (the driver's own error, with no SQLSTATE from the server: behind PgBouncer a
    server connection dying at COMMIT reads as "received 2 results from command 'COMMIT'").
    The change's outcome is then unknown to this request; a retry with its
    Idempotency-Key finds it stored, or stores it, once."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, OperationalError | InterfaceError):
            return True
        if isinstance(error, psycopg.InternalError) and error.sqlstate is None:
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


def unavailable_response(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        response: HttpResponse = errors_response(
            503, [{"round": None, "field": None, "message": MESSAGE}]
        )
    else:
        # No request context: a context processor could reach for the database again.
        page = render_to_string("unavailable.html", {"retry_after": RETRY_AFTER_SECONDS})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def server_error_or_unavailable(request: HttpRequest) -> HttpResponse:
    """The site's 500 handler: a 503 when the database is out of reach, else Django's 500."""
    if database_unavailable(sys.exc_info()[1]):
        return unavailable_response(request)
    return server_error(request)
