"""A table's result corrected by the desk, and a table's request to the desk answered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models, transaction

from scoring.engines.base import Problem
from scoring.models import ChangeRequest, Confirmation, Game
from scoring.selectors import game_score, side_in_round
from scoring.services import (
    Actor,
    GameChangeError,
    StaleRevision,
    desk_request_answer,
    round_confirm,
    round_correct,
)
from tournaments.errors import TournamentError
from tournaments.models import (
    BracketGame,
    Event,
    Table,
)
from tournaments.services.change import ActingUser, bump, event_locked, event_locked_open, event_log


def result_correct(
    *,
    event: Event,
    table: Table,
    number: int,
    entry: Mapping[str, Any],
    user: ActingUser,
    revision: int | None = None,
) -> Table:
    """The director replaces deal ``number`` of a table's game; the correction stands.

    ``revision`` is the game's revision the desk page showed: a table that changed since
    is refused (``StaleRevision``, shown with what is there now), never overwritten.

    Recorded in the game's own audit trail (as the director, entering for the seat that
    entered the deal, then confirming for a seat of another side) and in the event's log.
    """
    with transaction.atomic():
        event = event_locked_open(event)
        found = (
            Table.objects.select_related("game", "round")
            .filter(pk=table.pk, round__event=event)
            .first()
        )
        game = found.game if found is not None else None
        if found is None or game is None:
            raise TournamentError.single("that table has no game in this event", field="table")
        table = found
        existing = game.rounds.filter(number=number).first()
        if existing is None:
            raise TournamentError.single(
                f"table {table.number} has no deal {number}", field="number"
            )
        entering = existing.entered_by_seat if existing.entered_by_seat is not None else 0
        director = Actor(seat=entering, user=user, device="director's desk", desk=True)
        before = dict(existing.entry)
        try:
            changed = round_correct(
                game=game, number=number, entry=entry, actor=director, revision=revision
            )
            if game.confirmation != Confirmation.OFF:
                score = game_score(changed.game)
                everyone = range(len(score.players))
                others = sorted(
                    set(everyone) - side_in_round(changed.game, score, number, entering)
                ) or [s for s in everyone if s != entering]
                round_confirm(
                    game=changed.game,
                    number=number,
                    actor=Actor(seat=others[0], user=user, device="director's desk", desk=True),
                )
        except StaleRevision:
            raise
        except GameChangeError as error:
            raise TournamentError(
                [
                    Problem(f"table {table.number}: {p.message}", p.round, p.field)
                    for p in error.problems
                ]
            ) from None
        event_log(
            event,
            "result_correct",
            user,
            before={"table": table.pk, "number": number, "entry": before},
            after={"table": table.pk, "number": number, "entry": dict(entry)},
        )
        bump(event)
    return table


def table_request_answer(
    *,
    event: Event,
    request_id: int,
    accept: bool,
    reason: str,
    revision: int | None,
    user: ActingUser,
) -> ChangeRequest:
    """A director's answer to a change a closed table asked of the desk (the caller checked
    that ``user`` directs ``event``): made or declined, with the reason, in the table's
    audit trail and the event's log. ``revision`` is the table's as the desk page showed
    it: a table that changed since is refused (``StaleRevision``)."""
    request = (
        ChangeRequest.objects.select_related("game")
        .filter(pk=request_id, to_desk=True, game__in=_event_games(event))
        .first()
    )
    if request is None:
        raise TournamentError.single("there is no such request at this event", field="request")
    with transaction.atomic():
        event = event_locked(event)
        try:
            desk_request_answer(
                game=request.game,
                request_id=request.pk,
                accept=accept,
                reason=reason,
                actor=Actor(user=user, device="director's desk", desk=True),
                revision=revision,
            )
        except StaleRevision:
            raise
        except GameChangeError as error:
            raise TournamentError(error.problems) from None
        request.refresh_from_db()
        event_log(
            event,
            "table_request_answer",
            user,
            before={"game": request.game_id, "kind": request.kind, "number": request.round_number},
            after={"status": request.status, "reason": request.reason},
        )
        bump(event)
    return request


def _event_games(event: Event) -> Any:
    """The ids of every game played at the event: its tables' and its bracket's."""
    tables = Table.objects.filter(round__event=event, game__isnull=False).values("game_id")
    bracket = BracketGame.objects.filter(stage__event=event).values("game_id")
    return Game.objects.filter(models.Q(pk__in=tables) | models.Q(pk__in=bracket)).values("pk")
