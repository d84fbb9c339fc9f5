"""The JSON API of Tablescore, its OpenAPI document generated from the schemas."""

from __future__ import annotations

from ninja import NinjaAPI

from scoring.api.errors import install_error_handlers
from scoring.api.parser import JsonBodyParser
from scoring.api.router import router

api = NinjaAPI(
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
api.add_router("", router)
