"""A change asked of an event's desk from its table: opened and answered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.engines.base import N_
from scoring.models import (
    ChangeRequest,
    Game,
    Round,
    RoundEvent,
)
from scoring.selectors import (
    table_closed,
)
from scoring.services.change import Actor, ChangeResult, GameChangeError, asked_kind
from scoring.services.change_requests import (
    RequestResult,
    apply_request,
    check_request,
    open_request,
)
from scoring.services.checks import (
    REASON_LONGEST,
    check_actor_seat,
    check_revision,
    checked_reason,
)
from scoring.services.corrections import apply_correct, check_correct
from scoring.services.frame import audit, locked
from scoring.services.rounds import undo_target

__all__ = ["REASON_LONGEST", "desk_request_answer", "desk_request_open"]


def _check_desk_request(
    game: Game,
    kind: str,
    number: int | None,
    entry: Mapping[str, Any] | None,
    ending: Mapping[str, Any],
) -> None:
    """Refuse a change asked of the desk that could not be made now (the game locked)."""
    if kind == ChangeRequest.Kind.CORRECT:
        if number is None or not isinstance(entry, Mapping):
            raise GameChangeError.single(
                N_("say which round and how it should read"), field="round"
            )
        check_correct(game, number, entry)
    else:
        check_request(game, kind, number, ending)


def desk_request_open(
    *,
    game: Game,
    kind: str,
    actor: Actor,
    revision: int | None,
    number: int | None = None,
    entry: Mapping[str, Any] | None = None,
    ending: Mapping[str, Any] | None = None,
    why: str = "",
) -> RequestResult:
    """At a closed event table, ask the event's desk to correct a round, undo the last one,
    end or reopen the game. Nothing changes until a director answers; the same request
    asked again is the same one. ``revision`` is the one the phone saw; ``why`` the
    player's reason, optional, shown to the director and kept in the audit."""
    why = checked_reason(why, required=False, field="why")
    ending = dict(ending or {})
    entry = dict(entry) if isinstance(entry, Mapping) else None
    with transaction.atomic():
        game = locked(game.pk)
        if not table_closed(game):
            raise GameChangeError.single(
                N_("this table is still playing: make the change at the table"), field="kind"
            )
        check_actor_seat(game, actor)
        check_revision(game, revision, number)
        if kind == ChangeRequest.Kind.UNDO and number is None:
            number = undo_target(game, None).number
        _check_desk_request(game, kind, number, entry, ending)
        waiting = game.change_requests.filter(status=ChangeRequest.Status.OPEN).first()
        if waiting is not None:
            if (waiting.kind, waiting.round_number, waiting.ending, waiting.entry) == (
                kind,
                number,
                ending,
                entry,
            ):
                return RequestResult(request=waiting, replayed=True)
            raise GameChangeError.single(
                N_("the desk is already asked to {kind}: it answers that first"),
                field="kind",
                kind=asked_kind(waiting.kind),
            )
        request = ChangeRequest.objects.create(
            game=game,
            kind=kind,
            round_number=number,
            ending=ending,
            entry=entry,
            to_desk=True,
            revision=game.revision,
            why=why,
            asked_by_seat=actor.seat if actor.seat is not None else 0,
            asked_by_device=actor.device[:64],
            asked_by_user=actor.user_or_none,
        )
        after: dict[str, Any] = {"kind": kind, "to": "desk"}
        if ending:
            after["ending"] = ending
        if entry is not None:
            after["round"] = entry
        audit(game, RoundEvent.Action.REQUEST, actor, number=number, after=after, reason=why)
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return RequestResult(request=request)


def desk_request_answer(
    *,
    game: Game,
    request_id: int,
    accept: bool,
    reason: str,
    actor: Actor,
    revision: int | None,
) -> ChangeResult:
    """A director's answer to a change a closed table asked of the desk: made (in the
    director's name, the correction standing confirmed) or declined, with a reason.

    ``revision`` is the one the desk page showed: a table that moved on since is refused
    (StaleRevision). A request the game has moved past lapses, and the reason is given.
    """
    if not actor.desk:
        raise GameChangeError.single(N_("only a director of the event answers"), field="request")
    reason = checked_reason(reason)
    lapsed: GameChangeError | None = None
    with transaction.atomic():
        game = locked(game.pk)
        request = open_request(game, request_id)
        if not request.to_desk:
            raise GameChangeError.single(N_("the table answers this request"), field="request")
        check_revision(game, revision, request.round_number)
        score = game.score_cache
        status = ChangeRequest.Status.ACCEPTED if accept else ChangeRequest.Status.DECLINED
        if accept:
            try:
                _check_desk_request(
                    game, request.kind, request.round_number, request.entry, request.ending
                )
            except GameChangeError as gone:
                lapsed = gone
                status = ChangeRequest.Status.LAPSED
        request.status = status
        request.answered_by_user = actor.user_or_none
        request.answered_at = timezone.now()
        request.reason = reason
        request.save(update_fields=["status", "answered_by_user", "answered_at", "reason"])
        audit(
            game,
            RoundEvent.Action.ACCEPT
            if status == ChangeRequest.Status.ACCEPTED
            else RoundEvent.Action.DECLINE,
            actor,
            number=request.round_number,
            after={"kind": request.kind, "status": status, "reason": reason, "by": "desk"},
        )
        if status != ChangeRequest.Status.ACCEPTED:
            game.revision += 1
            game.save(update_fields=["revision", "updated_at"])
        elif request.kind == ChangeRequest.Kind.CORRECT:
            assert request.round_number is not None and request.entry is not None
            score = apply_correct(game, request.round_number, request.entry, actor)
            game.rounds.filter(number=request.round_number).update(
                status=Round.Status.CONFIRMED, confirmed_at=timezone.now()
            )
        else:
            score = apply_request(game, request, actor)
    if lapsed is not None:
        raise GameChangeError.single(
            N_("the game changed since this was asked, so nothing was done ({why})"),
            field="request",
            why=lapsed.problems[0] if lapsed.problems else "",
        )
    return ChangeResult(game=game, score=score, round_number=request.round_number)
