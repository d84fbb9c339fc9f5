"""The JSON API of Tablescore, composed from one router per app; mounted at /api/.

Its OpenAPI document is generated from the routers' schemas. An app adds its endpoints
by adding its router here.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver
from ninja import NinjaAPI

from scoring.api.errors import install_error_handlers
from scoring.api.parser import JsonBodyParser, refusing_large_bodies
from scoring.api.router import router as scoring


class TablescoreAPI(NinjaAPI):
    """ninja's API with the body limit in front of every path (the OpenAPI document too)."""

    def _get_urls(self) -> list[URLPattern | URLResolver]:
        urls = super()._get_urls()
        for pattern in urls:
            if isinstance(pattern, URLPattern):
                pattern.callback = refusing_large_bodies(pattern.callback)
        return urls


api = TablescoreAPI(
    title="Tablescore API",
    version="1",
    description="Games at one table: start them, record, correct, confirm and read rounds. "
    "The table token returned when a game starts is the bearer credential for that game "
    'only. Every refusal is `{"errors": [{"round", "field", "message"}]}`.',
    parser=JsonBodyParser(),
    openapi_url="/openapi.json",
    docs_url=None,
    urls_namespace="api",
)
install_error_handlers(api)
api.add_router("", scoring)
