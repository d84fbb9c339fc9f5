"""Who may do what: the table token opens its own game; starting games may need a login."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.http import HttpRequest
from ninja.security import HttpBearer

from common.compiled import HOLES, CompiledRead
from scoring.api.errors import ApiError
from scoring.api.limits import wrong_token
from scoring.engines.base import N_
from scoring.models import Game

LARGEST_ID = 2**63 - 1

# A game's table token, read by its key on every request (built once: see
# common.compiled). Never kept by a process between requests: an id can come back.
TABLE_TOKEN = CompiledRead(
    lambda game_id: Game.objects.filter(pk=game_id).order_by().values_list("table_token"),
    HOLES[:1],
)


def table_token_of(game_id: int) -> str | None:
    """The table token of game ``game_id`` (None: no such game): its one column, read by
    its key (each service then reads the game whole, locked)."""
    row = TABLE_TOKEN.first_row(game_id)
    return row[0] if row else None


class TableToken(HttpBearer):
    """``Authorization: Bearer <table token>``: the key to one game and no other.

    The game comes from the path; a wrong token, an unknown game and a missing header
    all answer the same 404. Wrong tokens are counted per address and past their rate
    answered 429; a right token always passes, whatever others at its address sent.

    The game it lets in holds its id and token only; each service reads it whole, locked
    (an endpoint that reads it unlocked reads it whole itself: ``full_game``).
    """

    def authenticate(self, request: HttpRequest, token: str) -> Game | None:
        match = request.resolver_match
        game_id = match.kwargs.get("game_id") if match else None
        known = (
            table_token_of(game_id)
            if isinstance(game_id, int) and 0 < game_id <= LARGEST_ID
            else None
        )
        if known is None or not secrets.compare_digest(token.strip().encode(), known.encode()):
            wrong_token(request)
            return None
        return Game.from_db(DEFAULT_DB_ALIAS, ["id", "table_token"], [game_id, known])


table_token = TableToken()


def may_start_games(request: HttpRequest) -> bool:
    """Anyone may start a game, unless the site requires a login (then 401)."""
    if settings.TABLESCORE_REQUIRE_LOGIN_TO_CREATE and not request.user.is_authenticated:
        raise ApiError(N_("sign in to start a game"), field="authorization", status=401)
    return True
