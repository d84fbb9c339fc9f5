"""The JSON API of Tablescore, composed from one router per app; mounted at /api/.

Its OpenAPI document is generated from the routers' schemas. An app adds its endpoints
by adding its router here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, re_path
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.openapi.schema import OpenAPISchema

from scoring.api.document import finish
from scoring.api.errors import errors_response, install_error_handlers
from scoring.api.parser import JsonBodyParser, refusing_large_bodies
from scoring.api.router import router as scoring
from tournaments.api.router import router as own_links
from tournaments.api.signup import router as signup


@csrf_exempt
def no_such_path(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under /api/ (a round number that is not a number, say): the JSON 404."""
    return errors_response(404, [{"round": None, "field": None, "message": "not found"}])


def json_not_allowed(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` whose 405 (a method the path does not take) is the errors envelope too,
    its Allow header kept (ninja answers it as plain text)."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if response.status_code != 405 or response.get("Content-Type") == "application/json":
            return response
        allowed = response.get("Allow", "")
        message = (
            f"this path takes {allowed}, not {request.method}"
            if allowed
            else f"{request.method} is not taken here"
        )
        refused = errors_response(405, [{"round": None, "field": None, "message": message}])
        if allowed:
            refused["Allow"] = allowed
        return refused

    return answer


class TablescoreAPI(NinjaAPI):
    """ninja's API with the body limit in front of every path (the OpenAPI document too),
    and the errors envelope for every path it does not know."""

    def get_openapi_schema(self, **kwargs: Any) -> OpenAPISchema:
        """The document, made once per process (it is built from the code alone)."""
        key = repr(sorted(kwargs.items()))
        made: dict[str, OpenAPISchema] = self.__dict__.setdefault("_documents", {})
        if key not in made:
            made[key] = super().get_openapi_schema(**kwargs)
            finish(made[key])
        return made[key]

    def _get_urls(self) -> list[URLPattern | URLResolver]:
        # [\s\S] and \Z: a path holding a line break (%0A) is one the API does not know too.
        urls = [*super()._get_urls(), re_path(r"^(?P<rest>[\s\S]*)\Z", no_such_path)]
        for pattern in urls:
            if isinstance(pattern, URLPattern):
                pattern.callback = refusing_large_bodies(json_not_allowed(pattern.callback))
        return urls


api = TablescoreAPI(
    title="Tablescore API",
    version="1",
    description="Games at one table: start them, record, correct, confirm and read rounds. "
    "The table token returned when a game starts is the bearer credential for that game "
    'only. Every refusal is `{"errors": [{"round", "field", "message"}]}`, on every path '
    "under /api/. The shapes below are each game's own; rules across fields (points that "
    "add up, a seat beyond the table's size, an option offered only at some table sizes) "
    "are the engine's, answered 400 naming the round and field. A database out of reach "
    "answers 503 with Retry-After: send the same request again. Under /api/me a player's "
    "own link: the private token of their link is the bearer credential (check in, their "
    "seat, drop out).",
    parser=JsonBodyParser(),
    openapi_url="/openapi.json",
    docs_url=None,
    urls_namespace="api",
)
install_error_handlers(api)
api.add_router("", scoring)
api.add_router("", own_links)
api.add_router("", signup)
