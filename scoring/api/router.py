"""The endpoints: thin views that read a schema, make one service call and answer.

Every answer is JSON; every refusal is the errors envelope (see ``errors``).
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest
from ninja import Router
from ninja.params.functions import Header, Path, Query
from ninja.responses import Status
from pydantic import WithJsonSchema

from scoring.api.auth import may_start_games, table_token
from scoring.api.errors import ApiError
from scoring.api.limits import creation
from scoring.api.schemas import (
    MAX_ROUND_NUMBER,
    ChangeOut,
    ConfirmationIn,
    ConfirmedOut,
    CorrectionIn,
    DeskRequestOut,
    EndedOut,
    EndingIn,
    Errors,
    GameCreated,
    GameOut,
    GameRecordIn,
    RecordRefusedOut,
    RoundIn,
    RoundRecorded,
    StaleOut,
    UndoIn,
)
from scoring.engines.base import N_
from scoring.models import Confirmation, Game
from scoring.selectors import game_record_dict, game_score_data, rounds_data
from scoring.services import (
    Actor,
    NoSuchGame,
    TableClosed,
    desk_request_open,
    game_create,
    game_end,
    round_confirm,
    round_correct,
    round_record,
    round_undo,
)

router = Router(tags=["games"])

MAX_IDEMPOTENCY_KEY = 128
# Every path answers a body over the limit with 413 (see ``parser.refusing_large_bodies``).
REFUSED: dict[int, Any] = {400: Errors, 404: Errors, 413: Errors, 429: Errors}
REFUSED_BODY: dict[int, Any] = REFUSED
# A change that names its revision: 409 when the game moved on; 202 at a closed event
# table, where it is asked of the event's desk instead.
REVISED: dict[int, Any] = {202: DeskRequestOut, 409: StaleOut, **REFUSED_BODY}


def round_in_path() -> Any:
    return Path(..., ge=1, le=MAX_ROUND_NUMBER, description="the round's number: 1, 2, ...")


def the_game(request: HttpRequest) -> Game:
    """The game the token let in, by its id and token alone (see ``TableToken``): what a
    service takes, which reads the game whole, locked."""
    game = request.auth  # type: ignore[attr-defined]  # set by TableToken
    assert isinstance(game, Game)
    return game


def full_game(request: HttpRequest) -> Game:
    """The game the token let in, read whole (a 404 when it was deleted meanwhile)."""
    game = Game.objects.filter(pk=the_game(request).pk).order_by().first()
    if game is None:
        raise NoSuchGame.single(N_("no such game"), field="game")
    return game


def actor_for(request: HttpRequest, seat: int | None) -> Actor:
    device = request.headers.get("X-Device", "")[:64] or "api"
    return Actor(seat=seat, device=device, user=request.user)


def asked_of_the_desk(
    request: HttpRequest,
    kind: str,
    *,
    seat: int | None,
    revision: int | None,
    number: int | None = None,
    entry: dict[str, Any] | None = None,
    why: str | None = None,
) -> Status[dict[str, Any]]:
    """202: at a closed event table the change becomes a request to the event's desk
    (``why``: the table's reason, optional)."""
    asked = desk_request_open(
        game=the_game(request),
        kind=kind,
        actor=actor_for(request, seat),
        revision=revision,
        number=number,
        entry=entry,
        why=why or "",
    ).request
    return Status(
        202,
        {
            "request": {
                "id": asked.pk,
                "kind": asked.kind,
                "number": asked.round_number,
                "status": asked.status,
                "to": "desk",
            }
        },
    )


@router.post(
    "/games/",
    auth=may_start_games,
    response={201: GameCreated, 401: Errors, **REFUSED_BODY},
    summary="Start a game from a game record (rounds optional)",
)
def games(
    request: HttpRequest,
    record: GameRecordIn,
    confirmation: Annotated[
        str | None, WithJsonSchema({"type": "string", "enum": list(Confirmation.values)})
    ] = Query(
        None,
        description="who confirms a round: nobody (off, the default for casual games), "
        "any other seat, or a seat of the other side",
    ),
) -> Status[dict[str, Any]]:
    with creation(request, "games"):
        result = game_create(
            record=record.model_dump(exclude_unset=True),
            actor=actor_for(request, None),
            confirmation=confirmation,
        )
    game = result.game
    return Status(
        201,
        {
            "id": game.pk,
            "token": game.table_token,
            "table_url": request.build_absolute_uri(game.get_absolute_url()),
            "score": result.score,
        },
    )


@router.get(
    "/games/{int:game_id}/",
    auth=table_token,
    response={200: GameOut, **REFUSED},
    summary="The record, the score and every round with its status",
)
def game_detail(request: HttpRequest, game_id: int) -> dict[str, Any]:
    game = full_game(request)
    return {
        "id": game.pk,
        "status": game.status,
        "confirmation": game.confirmation,
        "revision": game.revision,
        "record": game_record_dict(game),
        "score": game_score_data(game),
        "rounds": rounds_data(game),
    }


@router.post(
    "/games/{int:game_id}/rounds/",
    auth=table_token,
    response={201: RoundRecorded, 409: RecordRefusedOut, 422: Errors, **REFUSED_BODY},
    summary="Record the next round",
    description="The answer is that round and how the game stands after it (its size does "
    "not grow with the game; the whole score is on GET). A retry with the same "
    "Idempotency-Key within a day gets the first answer and stores nothing twice; another "
    "phone's round under the same number is a 409 showing it (`recorded`); a retry whose "
    "round was undone or corrected since is a 409 with what is there now (`current`), and "
    "nothing is stored again; a key reused for another request is a 422.",
)
def game_rounds(
    request: HttpRequest,
    game_id: int,
    entry: RoundIn,
    idempotency_key: str | None = Header(
        None,
        alias="Idempotency-Key",
        description=f"up to {MAX_IDEMPOTENCY_KEY} printable characters, one per request",
    ),
) -> Status[dict[str, Any]]:
    key = (idempotency_key or "").strip() or None
    if key and len(key) > MAX_IDEMPOTENCY_KEY:
        raise ApiError(
            N_("the idempotency key is longer than {longest} characters"),
            field="idempotency_key",
            values={"longest": MAX_IDEMPOTENCY_KEY},
        )
    result = round_record(
        game=the_game(request),
        number=entry.number,
        entry=entry.round,
        actor=actor_for(request, entry.seat),
        idempotency_key=key,
    )
    return Status(
        201, {"number": result.round_number, "round": result.round, "standing": result.score}
    )


@router.put(
    "/games/{int:game_id}/rounds/{int:number}/",
    auth=table_token,
    response={200: ChangeOut, **REVISED},
    summary="Correct a round; the rest of the game is rescored",
    description="Made against `revision`: if the game changed since, 409 with what is there "
    "now. At an event table whose game is over, 202: asked of the event's desk.",
)
def game_round_correct(
    request: HttpRequest, game_id: int, correction: CorrectionIn, number: int = round_in_path()
) -> Any:
    if correction.number is not None and correction.number != number:
        raise ApiError(
            N_("the body names round {named} but the path round {number}"),
            field="number",
            round_number=number,
            values={"named": correction.number, "number": number},
        )
    try:
        result = round_correct(
            game=the_game(request),
            number=number,
            entry=correction.round,
            actor=actor_for(request, correction.seat),
            revision=correction.revision,
        )
    except TableClosed:
        return asked_of_the_desk(
            request,
            "correct",
            seat=correction.seat,
            revision=correction.revision,
            number=number,
            entry=correction.round,
            why=correction.why,
        )
    return {"number": result.round_number, "score": result.score}


@router.delete(
    "/games/{int:game_id}/rounds/{int:number}/",
    auth=table_token,
    response={200: ChangeOut, **REVISED},
    summary="Undo the last round, made against the revision in the body",
    description="If the game changed since `revision`, 409 with what is there now. At an "
    "event table whose game is over, 202: asked of the event's desk.",
)
def game_round_undo(
    request: HttpRequest, game_id: int, undo: UndoIn | None = None, number: int = round_in_path()
) -> Any:
    if undo is None:
        raise ApiError(
            N_(
                "revision is required: the game's revision the undo was made against (GET gives it)"
            ),
            field="revision",
            round_number=number,
        )
    try:
        result = round_undo(
            game=the_game(request),
            number=number,
            actor=actor_for(request, undo.seat),
            revision=undo.revision,
        )
    except TableClosed:
        return asked_of_the_desk(
            request, "undo", seat=undo.seat, revision=undo.revision, number=number, why=undo.why
        )
    return {"number": result.round_number, "score": result.score}


@router.post(
    "/games/{int:game_id}/rounds/{int:number}/confirm/",
    auth=table_token,
    response={200: ConfirmedOut, **REFUSED_BODY},
    summary="Confirm a pending round from a seat the game's confirmation allows",
)
def game_round_confirm(
    request: HttpRequest, game_id: int, confirmation: ConfirmationIn, number: int = round_in_path()
) -> dict[str, Any]:
    result = round_confirm(
        game=the_game(request),
        number=number,
        actor=actor_for(request, confirmation.seat),
        seen=confirmation.round,
    )
    score = game_score_data(result.game)
    return {"number": result.round_number, "status": "confirmed", "score": score}


@router.post(
    "/games/{int:game_id}/end/",
    auth=table_token,
    response={200: EndedOut, 409: StaleOut, **REFUSED_BODY},
    summary="End the game by one of its own endings (an early finish, leftovers given out)",
)
def game_ending(request: HttpRequest, game_id: int, ending: EndingIn) -> dict[str, Any]:
    result = game_end(
        game=the_game(request),
        ending=ending.ending(),
        actor=actor_for(request, ending.seat),
        revision=ending.revision,
    )
    return {"score": result.score}
