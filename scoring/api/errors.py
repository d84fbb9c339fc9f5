"""Every answer that is not a success: one envelope, a message naming the field (and round).

``{"errors": [{"round": n | null, "field": "name" | null, "message": "..."}]}``, whatever
refused the request: the body reader, a schema, the token, a throttle or a service.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, ngettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from scoring.api.schemas import MAX_ROUND_NUMBER
from scoring.engines.base import N_, Problem
from scoring.services import (
    GameChangeError,
    IdempotencyKeyReused,
    NoSuchGame,
    RoundConflict,
    StaleRevision,
)
from scoring.wording import problem_dict, translated

NO_SUCH_GAME = N_("no such game for this token")
E = TypeVar("E", bound=Exception)


class ApiError(Exception):
    """A request refused before it reaches a service: a clear message naming the field."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None,
        status: int = 400,
        round_number: int | None = None,
        values: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message  # a template marked with N_, its places filled by values
        self.values = dict(values or {})
        self.field = field
        self.status = status
        self.round_number = round_number

    def problem(self) -> dict[str, Any]:
        """The envelope's entry, its message in the reader's language (a marked template)."""
        message = translated(self.message)
        if self.values:
            message = message.format(**self.values)
        return {"round": self.round_number, "field": self.field, "message": message}


def errors_response(
    status: int, problems: Sequence[Mapping[str, Any]], **extra: Any
) -> JsonResponse:
    return JsonResponse({"errors": [dict(p) for p in problems], **extra}, status=status)


def problem_dicts(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    return [problem_dict(p) for p in problems]


# --------------------------------------------------------------------------- schema errors

MESSAGES = {
    "missing": N_("{field} is required"),
    "extra_forbidden": N_("unknown field {field!r}"),
    "int_type": N_("{field} must be a whole number"),
    "int_parsing": N_("{field} must be a whole number"),
    "int_from_float": N_("{field} must be a whole number"),
    "bool_type": N_("{field} must be true or false"),
    "string_type": N_("{field} must be text"),
    "list_type": N_("{field} must be a list"),
    "dict_type": N_("{field} must be a JSON object"),
    "model_type": N_("{field} must be a JSON object"),
    "model_attributes_type": N_("{field} must be a JSON object"),
    "greater_than_equal": N_("{field} must be at least {ge}"),
    "less_than_equal": N_("{field} must be at most {le}"),
    "string_too_long": N_("{field} must be at most {max_length} characters"),
}


def _field_name(loc: Sequence[Any]) -> str:
    """The field a schema error is about, as a client wrote it.

    ``loc`` is ninja's: the source (body, query, header, path), then for a body the
    parameter's name, then the path inside it; a list index names its list.
    """
    source, rest = (loc[0], list(loc[1:])) if loc else ("body", [])
    if source == "body":
        rest = rest[1:]
    names = [part for part in rest if isinstance(part, str)]
    if not names:
        return "body"
    name = names[0]
    return name.lower().replace("-", "_") if source == "header" else name


def schema_problem(error: Mapping[str, Any], round_number: int | None) -> dict[str, Any]:
    loc = list(error.get("loc", ()))
    field = _field_name(loc)
    if field == "body" and error.get("type") in {"model_type", "model_attributes_type"}:
        message = translated(N_("the body must be a JSON object"))
    else:
        template = MESSAGES.get(str(error.get("type")))
        template = translated(template) if template else None
        context = dict(error.get("ctx") or {})
        try:
            message = template.format(field=field, **context) if template else ""
        except (KeyError, IndexError):
            message = ""
        if not message:
            message = f"{field}: {str(error.get('msg', 'is not valid')).lower()}"
    return {"round": round_number, "field": field, "message": message}


def _round_number(request: HttpRequest) -> int | None:
    """The round a request is about when the path names it, for the envelope's ``round``."""
    match = request.resolver_match
    number = match.kwargs.get("number") if match else None
    return number if isinstance(number, int) and 1 <= number <= MAX_ROUND_NUMBER else None


# --------------------------------------------------------------------------- handlers


def on_api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return errors_response(exc.status, [exc.problem()])


def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    if not request.body and any(e.get("loc", ("",))[0] == "body" for e in exc.errors):
        return errors_response(400, [ApiError(N_("the body must be JSON"), field="body").problem()])
    number = _round_number(request)
    return errors_response(400, [schema_problem(e, number) for e in exc.errors])


def on_wrong_token(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    """No token, a wrong one or no such game: the same 404, so nothing is revealed."""
    return errors_response(404, [ApiError(NO_SUCH_GAME, field="authorization").problem()])


def on_no_such_game(request: HttpRequest, exc: NoSuchGame) -> HttpResponse:
    """A game deleted after its token let the request in: the same 404 as a wrong token."""
    return errors_response(404, [ApiError(NO_SUCH_GAME, field="authorization").problem()])


def on_throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    wait = math.ceil(exc.wait) if exc.wait else None
    if wait:
        message = ngettext(
            "too many requests: try again in {wait} second",
            "too many requests: try again in {wait} seconds",
            wait,
        ).format(wait=wait)
    else:
        message = gettext("too many requests: try again later")
    response = errors_response(429, [{"round": None, "field": None, "message": message}])
    if wait:
        response["Retry-After"] = str(wait)
    return response


def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    # ninja wraps what the body reader raises; its own message names the field.
    if isinstance(exc.__cause__, ApiError):
        return on_api_error(request, exc.__cause__)
    field = "body" if exc.status_code == 400 else None
    return errors_response(exc.status_code, [{"round": None, "field": field, "message": str(exc)}])


def on_data_too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    """Django's own limit, should a body slip past the size it announced: the same 413."""
    limit = settings.TABLESCORE_MAX_BODY_BYTES
    message = gettext("the body is larger than {limit} bytes").format(limit=limit)
    return errors_response(413, [{"round": None, "field": "body", "message": message}])


def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return errors_response(404, [{"round": None, "field": None, "message": gettext("not found")}])


def on_round_conflict(request: HttpRequest, exc: RoundConflict) -> HttpResponse:
    recorded = exc.recorded
    return errors_response(
        409,
        problem_dicts(exc.problems),
        recorded={"number": recorded.number, "round": recorded.entry, "status": recorded.status},
    )


def on_stale_revision(request: HttpRequest, exc: StaleRevision) -> HttpResponse:
    """409: the game changed since the client's revision; what is there now comes along."""
    current: dict[str, Any] = {"revision": exc.current}
    number = exc.problems[0].round if exc.problems else None
    if number is not None:
        game = getattr(request, "auth", None)
        found = game.rounds.filter(number=number).first() if game is not None else None
        current["round"] = (
            {"number": found.number, "round": found.entry, "status": found.status}
            if found is not None
            else None
        )
    return errors_response(409, problem_dicts(exc.problems), current=current)


def on_idempotency_key_reused(request: HttpRequest, exc: IdempotencyKeyReused) -> HttpResponse:
    return errors_response(422, problem_dicts(exc.problems))


def on_game_change_error(request: HttpRequest, exc: GameChangeError) -> HttpResponse:
    return errors_response(400, problem_dicts(exc.problems))


def _handler(
    kind: type[E], answer: Callable[[HttpRequest, E], HttpResponse]
) -> Callable[[HttpRequest, E | type[E]], HttpResponse]:
    """``answer`` in the shape ninja's signature asks for (it always passes an instance)."""

    def handle(request: HttpRequest, exc: E | type[E]) -> HttpResponse:
        if not isinstance(exc, kind):
            raise TypeError(f"expected an instance of {kind.__name__}, not {exc!r}")
        return answer(request, exc)

    return handle


def install_error_handlers(api: NinjaAPI) -> None:
    """Replace ninja's answers (``{"detail": ...}``, 401, 422) by the envelope."""
    api.add_exception_handler(ApiError, _handler(ApiError, on_api_error))
    api.add_exception_handler(ValidationError, _handler(ValidationError, on_validation_error))
    api.add_exception_handler(AuthenticationError, _handler(AuthenticationError, on_wrong_token))
    api.add_exception_handler(Throttled, _handler(Throttled, on_throttled))
    api.add_exception_handler(HttpError, _handler(HttpError, on_http_error))
    api.add_exception_handler(Http404, _handler(Http404, on_not_found))
    api.add_exception_handler(RequestDataTooBig, _handler(RequestDataTooBig, on_data_too_big))
    api.add_exception_handler(RoundConflict, _handler(RoundConflict, on_round_conflict))
    api.add_exception_handler(StaleRevision, _handler(StaleRevision, on_stale_revision))
    api.add_exception_handler(
        IdempotencyKeyReused, _handler(IdempotencyKeyReused, on_idempotency_key_reused)
    )
    api.add_exception_handler(NoSuchGame, _handler(NoSuchGame, on_no_such_game))
    api.add_exception_handler(GameChangeError, _handler(GameChangeError, on_game_change_error))
