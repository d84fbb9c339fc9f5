"""What each endpoint takes and answers, as the OpenAPI document shows it.

A round's input is a JSON object whose fields depend on the game (rules.md lists
them); the schemas check its shape and the game's engine checks its content, so
each rule is stated once, in the engine. Keys a game adds to its record (an early
finish, leftovers given out) are listed from the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from scoring.api.shapes import any_ending_schema, any_round_schema, game_record_schema
from scoring.models import Confirmation

MAX_ROUND_NUMBER = 10_000

RoundNumber = Annotated[
    int, Field(strict=True, ge=1, le=MAX_ROUND_NUMBER, description="the round's number: 1, 2, ...")
]
SeatNumber = Annotated[
    int, Field(strict=True, ge=0, description="a seat at the table, 0-based, in player order")
]
Revision = Annotated[
    int,
    Field(
        strict=True,
        ge=0,
        description="the game's revision the change was made against (GET gives it): "
        "if the game changed since, the change is refused with 409 and what is there now",
    ),
]
ROUND_DESCRIPTION = (
    "the round's input for the path's game, as in rules.md: one of the shapes below, "
    "the one of the game the path's game plays; the game's engine checks it"
)


def _documented_as(shape: Callable[[], dict[str, Any]]) -> Callable[[dict[str, Any]], None]:
    """A ``json_schema_extra`` that shows ``shape()`` in the document (built when asked)."""

    def show(schema: dict[str, Any]) -> None:
        schema.clear()
        schema.update(shape())

    return show


RoundInput = Annotated[
    dict[str, Any],
    Field(json_schema_extra=_documented_as(lambda: any_round_schema(ROUND_DESCRIPTION))),
]
Score = Annotated[
    dict[str, Any],
    Field(
        description="the engine's output: players, teams, rounds (dealer, deltas, totals), "
        "totals, finished, winners, plus the game's own keys"
    ),
]


class Body(BaseModel):
    """A request body: unknown fields are refused, naming them.

    Requests are plain pydantic models: ninja's Schema reads attributes and would
    drop the extra keys that a record or an ending may carry.
    """

    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- requests


class GameRecordIn(BaseModel):
    """A game record (game-record.md): the players, options and any rounds already played.

    Read loosely here and checked whole by the engine; the document shows each game's
    exact shape (``shapes.game_record_schema``).
    """

    model_config = ConfigDict(extra="allow", json_schema_extra=_documented_as(game_record_schema))

    format: StrictInt | None = Field(None, description="the record format: 1")
    game: StrictStr = Field(description="which game")
    players: list[StrictStr] = Field(description="the players' names in seat order")
    options: dict[str, Any] | None = Field(None, description="the game's options")
    first_dealer: StrictInt | None = Field(None, description="the seat that deals first")
    rounds: list[dict[str, Any]] | None = Field(
        None, description="rounds already played, each the input of one round"
    )


class RoundIn(Body):
    number: RoundNumber
    round: RoundInput
    seat: SeatNumber | None = Field(
        None, description="the seat entering it (required when the game needs confirmation)"
    )


class CorrectionIn(Body):
    round: RoundInput
    revision: Revision
    seat: SeatNumber | None = Field(
        None, description="the seat correcting it (required when the game needs confirmation)"
    )
    number: RoundNumber | None = Field(
        None, description="the round's number again, as in the path; when given, it must match"
    )
    why: str | None = Field(
        None,
        max_length=500,
        description="at an event table whose game is over: why the table asks the desk "
        "(optional; the director reads it)",
    )


class ConfirmationIn(BaseModel):
    seat: SeatNumber | None = Field(None, description="the seat confirming (required)")
    round: RoundInput | None = Field(
        None,
        description="the round as the confirming phone showed it: refused if it was "
        "corrected since",
    )


class UndoIn(BaseModel):
    seat: SeatNumber | None = Field(None, description="the seat undoing it")
    revision: Revision
    why: str | None = Field(
        None,
        max_length=500,
        description="at an event table whose game is over: why the table asks the desk "
        "(optional; the director reads it)",
    )


def _add_endings(schema: dict[str, Any]) -> None:
    schema.setdefault("properties", {}).update(any_ending_schema())
    schema["additionalProperties"] = False


class EndingIn(BaseModel):
    """How the game ends: one of the game's own record keys, as the engine describes it."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_add_endings)

    seat: SeatNumber | None = Field(None, description="the seat ending the game")
    revision: Revision | None = None

    def ending(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


# --------------------------------------------------------------------------- answers


class ProblemOut(Schema):
    round: int | None = Field(description="the round it is about (1-based), if any")
    field: str | None = Field(description="the field it is about, if any")
    message: str


class Errors(Schema):
    errors: list[ProblemOut]


class RecordedRound(Schema):
    number: int
    round: dict[str, Any]
    status: str


class RecordRefusedOut(Errors):
    """409 to a round recorded: another phone's round under that number, or a retry of a
    keyed request whose round was undone or corrected since its first answer."""

    recorded: RecordedRound | None = Field(
        None, description="what another phone recorded under that number"
    )
    current: dict[str, Any] | None = Field(
        None,
        description="a retry of a request whose round was undone or corrected since: nothing "
        "was stored; what is there now (the game's revision and that round, or null when it "
        "is gone), to enter the round again from",
    )


class StaleOut(Errors):
    current: dict[str, Any] = Field(
        description="what is there now: the game's revision and, for a round, that round "
        "(number, round, status), or null when it is gone; the change can be made again "
        "against this revision"
    )


class DeskRequestOut(Schema):
    request: dict[str, Any] = Field(
        description="the game at this event table is over: the change was asked of the "
        "event's desk instead (id, kind, number, status, to), where a director decides"
    )


class GameCreated(Schema):
    id: int
    token: str = Field(description="the table token: send it as `Authorization: Bearer <token>`")
    table_url: str = Field(description="the table's page, for the phones at the table")
    score: Score


class RoundRow(Schema):
    number: int
    status: str = Field(description="pending or confirmed")
    round: dict[str, Any]
    entered_by_seat: int | None
    confirmed_by_seat: int | None
    corrected: bool


class GameOut(Schema):
    id: int
    status: str
    confirmation: str = Field(json_schema_extra={"enum": list(Confirmation.values)})
    revision: int
    record: dict[str, Any] = Field(description="the game record (game-record.md)")
    score: Score
    rounds: list[RoundRow]


class RoundRecorded(Schema):
    number: int = Field(description="the round recorded")
    round: dict[str, Any] = Field(
        description="that round as the engine scored it: number, dealer, deltas, totals, "
        "plus the game's own keys"
    )
    standing: dict[str, Any] = Field(
        description="how the game stands after it: the score without its rounds (players, "
        "teams, totals, finished, winners, next, plus the game's own keys); the whole "
        "score, every round included, is on GET /api/games/{id}/"
    )


class ChangeOut(Schema):
    number: int = Field(description="the round recorded, corrected or undone")
    score: Score


class ConfirmedOut(ChangeOut):
    status: Literal["confirmed"]


class EndedOut(Schema):
    score: Score
