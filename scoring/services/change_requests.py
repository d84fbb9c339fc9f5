"""A change asked of the other side of the table: opened, accepted or declined."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.engines.base import N_
from scoring.models import (
    ChangeRequest,
    Confirmation,
    Game,
    RoundEvent,
)
from scoring.selectors import (
    game_score,
    seats_that_may_accept,
)
from scoring.services.change import (
    Actor,
    ChangeResult,
    GameChangeError,
    SeatNotSaid,
    answered_status,
    asked_kind,
)
from scoring.services.checks import check_actor_seat, check_open, same_phone
from scoring.services.frame import audit, locked
from scoring.services.game import apply_end, apply_reopen, check_ending, check_reopen
from scoring.services.rounds import apply_undo, undo_target


@dataclass(frozen=True)
class RequestResult:
    request: ChangeRequest
    replayed: bool = False


def check_request(game: Game, kind: str, number: int | None, ending: Mapping[str, Any]) -> None:
    """Refuse a change that could not be made now (the game locked)."""
    if kind == ChangeRequest.Kind.UNDO:
        undo_target(game, number)
    elif kind == ChangeRequest.Kind.END:
        check_ending(game, ending)
    elif kind == ChangeRequest.Kind.REOPEN:
        check_reopen(game)
    else:
        raise GameChangeError.single(N_("undo, end or reopen can be asked for"), field="kind")


def change_request_open(
    *,
    game: Game,
    kind: str,
    actor: Actor,
    number: int | None = None,
    ending: Mapping[str, Any] | None = None,
) -> RequestResult:
    """Ask the other side to agree to undoing a round, ending the game early or reopening it.

    Only where the game's confirmation is on; the same request asked again is the same one.
    """
    ending = dict(ending or {})
    with transaction.atomic():
        game = locked(game.pk)
        check_open(game, actor, number)
        if game.confirmation == Confirmation.OFF:
            raise GameChangeError.single(
                N_("this table does not ask for confirmation: make the change directly"),
                field="kind",
            )
        if actor.seat is None:
            raise SeatNotSaid.single(
                N_("say which player is asking: another side agrees to it"), field="seat"
            )
        check_actor_seat(game, actor)
        if kind == ChangeRequest.Kind.UNDO and number is None:
            number = undo_target(game, None).number
        check_request(game, kind, number, ending)
        waiting = game.change_requests.filter(status=ChangeRequest.Status.OPEN).first()
        if waiting is not None:
            if (waiting.kind, waiting.round_number, waiting.ending) == (kind, number, ending):
                return RequestResult(request=waiting, replayed=True)
            raise GameChangeError.single(
                N_("the table is already asked to {kind}: answer that first"),
                field="kind",
                kind=asked_kind(waiting.kind),
            )
        request = ChangeRequest.objects.create(
            game=game,
            kind=kind,
            round_number=number,
            ending=ending,
            asked_by_seat=actor.seat,
            asked_by_device=actor.device[:64],
            asked_by_user=actor.user_or_none,
        )
        audit(
            game,
            RoundEvent.Action.REQUEST,
            actor,
            number=number,
            after={"kind": kind, "ending": ending} if ending else {"kind": kind},
        )
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return RequestResult(request=request)


def open_request(game: Game, request_id: int) -> ChangeRequest:
    request = game.change_requests.filter(pk=request_id).first()
    if request is None:
        raise GameChangeError.single(N_("there is no such request"), field="request")
    if request.status != ChangeRequest.Status.OPEN:
        raise GameChangeError.single(
            N_("this request was answered already ({status})"),
            field="request",
            status=answered_status(request.status),
        )
    return request


def _close(request: ChangeRequest, status: str, actor: Actor) -> None:
    request.status = status
    request.answered_by_seat = actor.seat
    request.answered_at = timezone.now()
    request.save(update_fields=["status", "answered_by_seat", "answered_at"])


def change_request_accept(*, game: Game, request_id: int, actor: Actor) -> ChangeResult:
    """A player who may confirm agrees: the change asked for is made, in the asker's name.

    A request the game has moved past (a round recorded since, the game ended or reopened
    meanwhile) lapses, and the reason is given.
    """
    lapsed: GameChangeError | None = None
    with transaction.atomic():
        game = locked(game.pk)
        if actor.seat is None:
            raise SeatNotSaid.single(N_("say which seat agrees"), field="seat")
        check_actor_seat(game, actor)
        request = open_request(game, request_id)
        if request.to_desk:
            raise GameChangeError.single(
                N_("the event's desk answers this request"), field="request"
            )
        if actor.seat not in seats_that_may_accept(game, request, game_score(game)):
            message = (
                N_("another player agrees to it, not the one who asked")
                if game.confirmation == Confirmation.ANY_OTHER_SEAT
                else N_("a player of another side agrees to it")
            )
            raise GameChangeError.single(message, field="seat")
        same_phone(game, actor, request.asked_by_device, request.round_number)
        try:
            check_request(game, request.kind, request.round_number, request.ending)
        except GameChangeError as gone:
            lapsed = gone
            _close(request, ChangeRequest.Status.LAPSED, actor)
            audit(game, RoundEvent.Action.DECLINE, actor, after={"status": "lapsed"})
            game.revision += 1
            game.save(update_fields=["revision", "updated_at"])
            score = game.score_cache
        else:
            asker = Actor(
                seat=request.asked_by_seat,
                device=request.asked_by_device,
                user=request.asked_by_user,
            )
            _close(request, ChangeRequest.Status.ACCEPTED, actor)
            audit(
                game,
                RoundEvent.Action.ACCEPT,
                actor,
                number=request.round_number,
                after={"kind": request.kind},
            )
            score = apply_request(game, request, asker)
    if lapsed is not None:
        raise GameChangeError.single(
            N_("the game changed since this was asked, so nothing was done ({why})"),
            field="request",
            why=lapsed.problems[0] if lapsed.problems else "",
        )
    return ChangeResult(game=game, score=score, round_number=request.round_number)


def apply_request(game: Game, request: ChangeRequest, actor: Actor) -> dict[str, Any]:
    """Make an agreed undo, ending or reopening, as ``actor``; the new score."""
    if request.kind == ChangeRequest.Kind.UNDO:
        return apply_undo(game, request.round_number, actor)
    if request.kind == ChangeRequest.Kind.END:
        return apply_end(game, request.ending, actor)
    return apply_reopen(game, actor)


def change_request_decline(*, game: Game, request_id: int, actor: Actor) -> RequestResult:
    """Say no to a request (or, from the player who asked, take it back): nothing changes."""
    with transaction.atomic():
        game = locked(game.pk)
        if actor.seat is None:
            raise SeatNotSaid.single(N_("say which seat answers"), field="seat")
        check_actor_seat(game, actor)
        request = open_request(game, request_id)
        if request.to_desk and actor.seat != request.asked_by_seat:
            raise GameChangeError.single(
                N_("the event's desk answers this request"), field="request"
            )
        status = (
            ChangeRequest.Status.WITHDRAWN
            if actor.seat == request.asked_by_seat
            else ChangeRequest.Status.DECLINED
        )
        _close(request, status, actor)
        audit(
            game,
            RoundEvent.Action.DECLINE,
            actor,
            number=request.round_number,
            after={"kind": request.kind, "status": status},
        )
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return RequestResult(request=request)
