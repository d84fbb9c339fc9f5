"""Reading a request body: JSON text of bounded size that can be stored and printed."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from io import BytesIO
from typing import Any, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from ninja.parser import Parser
from ninja.types import DictStrAny

from common.jsondoc import DocumentError, read_json
from scoring.api.errors import ApiError, on_api_error
from scoring.engines.base import N_


def body_too_large(limit: int) -> ApiError:
    return ApiError(
        N_("the body is larger than {limit} bytes"),
        field="body",
        status=413,
        values={"limit": limit},
    )


def refusing_large_bodies(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` behind the body limit: a body over it is a 413 before anything reads it,
    whatever the path and method (a body Django's own limit would refuse included)."""

    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        limit: int = settings.TABLESCORE_MAX_BODY_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            return on_api_error(request, body_too_large(limit))
        if not length and is_chunked(request) and not read_chunked_body(request, limit):
            return on_api_error(request, body_too_large(limit))
        return view(request, *args, **kwargs)

    return limited


def is_chunked(request: HttpRequest) -> bool:
    """A body sent in chunks: its length is known only once it has been read."""
    return "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()


def read_chunked_body(request: HttpRequest, limit: int) -> bool:
    """Read a chunked body (the server has taken the chunks apart), at most ``limit`` bytes.

    Django reads a body without a Content-Length as empty; this reads it, one byte past
    the limit at most, and gives it to the request as if its length had been sent.
    False when it is over the limit (the rest is never read).
    """
    stream = request.META.get("wsgi.input")
    if stream is None:
        return True
    body = bytearray()
    while len(body) <= limit:
        chunk = stream.read(min(64 * 1024, limit + 1 - len(body)))
        if not chunk:
            break
        body += chunk
    if len(body) > limit:
        return False
    request.META["CONTENT_LENGTH"] = str(len(body))
    request._stream = BytesIO(bytes(body))
    return True


def read_json_body(request: HttpRequest) -> Any:
    """The decoded body; ApiError (413 or 400, naming ``body``) for anything else."""
    limit: int = settings.TABLESCORE_MAX_BODY_BYTES
    if len(request.body) > limit:
        raise body_too_large(limit)
    if not request.body:
        raise ApiError(N_("the body must be JSON"), field="body")
    try:
        data = read_json(request.body, largest=limit)
    except DocumentError as error:
        raise ApiError(f"the body {error.reason}", field="body") from None
    # NUL decodes as JSON but cannot be stored or printed as text.
    if "\\u0000" in request.body.decode("utf-8-sig") or b"\x00" in request.body:
        raise ApiError(N_("the body holds a NUL character"), field="body")
    return data


class JsonBodyParser(Parser):
    """ninja's parser with the checks above; the schemas then check the shape."""

    def parse_body(self, request: HttpRequest) -> DictStrAny:
        # Not always a dict: a list or a string is refused by the schema, naming the body.
        return cast(DictStrAny, read_json_body(request))
