"""The JSON API: games by their table token. Thin views over the services.

Every answer is JSON; every mistake is a 4xx with a message naming the field.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from scoring.models import Game
from scoring.openapi import openapi_document
from scoring.selectors import game_record_dict, round_rows
from scoring.selectors import game_score_data as game_score
from scoring.services import (
    Actor,
    GameChangeError,
    IdempotencyKeyReused,
    RoundConflict,
    game_create,
    game_end,
    round_confirm,
    round_correct,
    round_record,
    round_undo,
)


class BadRequest(Exception):
    def __init__(self, message: str, field: str | None = None, status: int = 400):
        self.message, self.field, self.status = message, field, status


def error_response(status: int, errors: list[dict[str, Any]], **extra: Any) -> JsonResponse:
    return JsonResponse({"errors": errors, **extra}, status=status)


def problems_response(error: GameChangeError, status: int = 400) -> JsonResponse:
    return error_response(status, [p.as_dict() for p in error.problems])


def json_body(request: HttpRequest) -> Any:
    if len(request.body) > settings.TABLESCORE_MAX_BODY_BYTES:
        raise BadRequest(
            f"the body is larger than {settings.TABLESCORE_MAX_BODY_BYTES} bytes", "body", 413
        )
    if not request.body:
        raise BadRequest("the body must be JSON", "body")
    try:
        data = json.loads(request.body.decode("utf-8"))
        # Lone surrogates and NUL decode as JSON but cannot be stored or printed as text.
        text = json.dumps(data, ensure_ascii=False)
        text.encode("utf-8")
    except (UnicodeError, ValueError, RecursionError):  # ValueError: JSON errors, huge ints
        raise BadRequest("the body is not valid JSON text", "body") from None
    if "\\u0000" in text or "\x00" in text:
        raise BadRequest("the body holds a NUL character", "body")
    return data


def json_object(data: Any, name: str = "body") -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest(f"{name} must be a JSON object", name)
    return data


def optional_seat(data: dict[str, Any]) -> int | None:
    seat = data.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise BadRequest("seat must be a seat number", "seat")
    return seat


def api_view(*methods: str) -> Callable:
    """JSON in and out, bad input as 4xx; the token (not a cookie) is the credential."""

    def decorate(view: Callable) -> Callable:
        @csrf_exempt
        @require_http_methods(list(methods))
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            try:
                return view(request, *args, **kwargs)
            except BadRequest as bad:
                return error_response(bad.status, [{"field": bad.field, "message": bad.message}])
            except RoundConflict as conflict:
                recorded = conflict.recorded
                return error_response(
                    409,
                    [p.as_dict() for p in conflict.problems],
                    recorded={
                        "number": recorded.number,
                        "round": recorded.entry,
                        "status": recorded.status,
                    },
                )
            except IdempotencyKeyReused as reused:
                return problems_response(reused, 422)
            except GameChangeError as invalid:
                return problems_response(invalid)

        return wrapper

    return decorate


def game_for_token(request: HttpRequest, game_id: int) -> Game:
    """The game, if the bearer token is its table token; otherwise 404 (nothing revealed)."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    game = Game.objects.filter(pk=game_id).first()
    if (
        game is None
        or scheme.lower() != "bearer"
        or not secrets.compare_digest(token.strip().encode(), game.table_token.encode())
    ):
        raise BadRequest("no such game for this token", "authorization", 404)
    return game


def actor_for(request: HttpRequest, seat: int | None) -> Actor:
    device = request.headers.get("X-Device", "")[:64] or "api"
    return Actor(seat=seat, device=device, user=request.user)


def table_url(request: HttpRequest, game: Game) -> str:
    return request.build_absolute_uri(reverse("scoring:table", args=[game.table_token]))


@api_view("POST")
def games(request: HttpRequest) -> JsonResponse:
    if settings.TABLESCORE_REQUIRE_LOGIN_TO_CREATE and not request.user.is_authenticated:
        raise BadRequest("sign in to start a game", "authorization", 401)
    record = json_object(json_body(request))
    confirmation = request.GET.get("confirmation") or None
    result = game_create(record=record, actor=actor_for(request, None), confirmation=confirmation)
    game = result.game
    return JsonResponse(
        {
            "id": game.pk,
            "token": game.table_token,
            "table_url": table_url(request, game),
            "score": result.score,
        },
        status=201,
    )


@api_view("GET")
def game_detail(request: HttpRequest, game_id: int) -> JsonResponse:
    game = game_for_token(request, game_id)
    return JsonResponse(
        {
            "id": game.pk,
            "status": game.status,
            "confirmation": game.confirmation,
            "revision": game.revision,
            "record": game_record_dict(game),
            "score": game_score(game),
            "rounds": round_rows(game),
        }
    )


@api_view("POST")
def game_rounds(request: HttpRequest, game_id: int) -> JsonResponse:
    game = game_for_token(request, game_id)
    body = json_object(json_body(request))
    unknown = set(body) - {"number", "round", "seat"}
    if unknown:
        raise BadRequest(f"unknown field {sorted(unknown)[0]!r}", sorted(unknown)[0])
    number = body.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10_000:
        raise BadRequest("number must be the round's number (1, 2, ...)", "number")
    entry = json_object(body.get("round"), "round")
    key = request.headers.get("Idempotency-Key", "").strip() or None
    if key and len(key) > 128:
        raise BadRequest("the idempotency key is longer than 128 characters", "idempotency_key")
    result = round_record(
        game=game,
        number=number,
        entry=entry,
        actor=actor_for(request, optional_seat(body)),
        idempotency_key=key,
    )
    return JsonResponse({"number": result.round_number, "score": result.score}, status=201)


@api_view("PUT", "DELETE")
def game_round(request: HttpRequest, game_id: int, number: int) -> JsonResponse:
    game = game_for_token(request, game_id)
    if request.method == "DELETE":
        seat = optional_seat(json_object(json_body(request))) if request.body else None
        result = round_undo(game=game, number=number, actor=actor_for(request, seat))
        return JsonResponse({"number": result.round_number, "score": result.score})
    body = json_object(json_body(request))
    unknown = set(body) - {"round", "seat", "number"}
    if unknown:
        raise BadRequest(f"unknown field {sorted(unknown)[0]!r}", sorted(unknown)[0])
    entry = json_object(body.get("round"), "round")
    result = round_correct(
        game=game, number=number, entry=entry, actor=actor_for(request, optional_seat(body))
    )
    return JsonResponse({"number": result.round_number, "score": result.score})


@api_view("POST")
def game_round_confirm(request: HttpRequest, game_id: int, number: int) -> JsonResponse:
    game = game_for_token(request, game_id)
    body = json_object(json_body(request))
    seen = body.get("round")
    if seen is not None:
        seen = json_object(seen, "round")
    result = round_confirm(
        game=game, number=number, actor=actor_for(request, optional_seat(body)), seen=seen
    )
    return JsonResponse(
        {"number": result.round_number, "status": "confirmed", "score": result.score}
    )


@api_view("POST")
def game_ending(request: HttpRequest, game_id: int) -> JsonResponse:
    game = game_for_token(request, game_id)
    body = json_object(json_body(request))
    seat = optional_seat(body)
    ending = {key: value for key, value in body.items() if key != "seat"}
    result = game_end(game=game, ending=ending, actor=actor_for(request, seat))
    return JsonResponse({"score": result.score})


@require_http_methods(["GET"])
def openapi(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_document())
