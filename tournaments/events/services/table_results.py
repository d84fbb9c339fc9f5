"""A table's result corrected by the desk, and a table's request to the desk answered."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.db import models, transaction

from common.phrases import N_
from scoring.engines.base import Problem
from scoring.models import ChangeRequest, Confirmation, Game
from scoring.selectors import game_score, side_in_round
from scoring.services import (
    Actor,
    GameChangeError,
    Later,
    LaterDealsBreak,
    StaleRevision,
    desk_request_answer,
    game_end_at_totals,
    round_confirm,
    round_correct,
    round_remove,
)
from scoring.services.checks import checked_reason
from tournaments.errors import TournamentError
from tournaments.models import (
    BracketGame,
    Event,
    Table,
)
from tournaments.services.change import ActingUser, bump, event_locked, event_locked_open, event_log


def _event_table(event: Event, table: Table) -> tuple[Table, Game]:
    """The event's table and its game, or the refusal naming the table."""
    found = (
        Table.objects.select_related("game", "round")
        .filter(pk=table.pk, round__event=event)
        .first()
    )
    game = found.game if found is not None else None
    if found is None or game is None:
        raise TournamentError.single(N_("that table has no game in this event"), field="table")
    return found, game


def _refusal(table: Table, error: GameChangeError) -> TournamentError:
    """A game's refusal as the desk says it, naming the table (a change that would change
    how the game ended keeps its choices: ``LaterDealsBreak``, raised as it is)."""
    return TournamentError(
        [
            Problem(
                N_("table {table}: {problem}"),
                p.round,
                p.field,
                {"table": table.number, "problem": dataclasses.replace(p, of_deals=True)},
            )
            for p in error.problems
        ]
    )


def _reason(reason: str) -> str:
    try:
        return checked_reason(reason)
    except GameChangeError as error:
        raise TournamentError(error.problems) from None


def result_correct(
    *,
    event: Event,
    table: Table,
    number: int,
    entry: Mapping[str, Any],
    user: ActingUser,
    reason: str,
    revision: int | None = None,
    later: Later | None = None,
) -> Table:
    """The director replaces deal ``number`` of a table's game; the correction stands.

    ``reason`` is required and kept (the game's audit and the event's log). ``revision``
    is the game's revision the desk page showed: a table that changed since is refused
    (``StaleRevision``, shown with what is there now), never overwritten. A correction that
    would change how the game ended is refused (``LaterDealsBreak``, with its choices)
    unless ``later`` says what becomes of the later deals: removed, and the game ended at
    this deal ("end") or going on from it ("undo").

    Recorded in the game's own audit trail (as the director, entering for the seat that
    entered the deal, then confirming for a seat of another side) and in the event's log.
    """
    reason = _reason(reason)
    with transaction.atomic():
        event = event_locked_open(event)
        table, game = _event_table(event, table)
        existing = game.rounds.filter(number=number).first()
        if existing is None:
            raise TournamentError.single(
                N_("table {table} has no deal {number}"),
                field="number",
                table=table.number,
                number=number,
            )
        entering = existing.entered_by_seat if existing.entered_by_seat is not None else 0
        director = Actor(seat=entering, user=user, device="director's desk", desk=True)
        before = dict(existing.entry)
        ending_before = dict(game.ending)
        count_before = game.rounds.count()
        try:
            changed = round_correct(
                game=game,
                number=number,
                entry=entry,
                actor=director,
                revision=revision,
                later=later,
                reason=reason,
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
        except (StaleRevision, LaterDealsBreak):
            raise
        except GameChangeError as error:
            raise _refusal(table, error) from None
        after: dict[str, Any] = {
            "table": table.pk,
            "number": number,
            "entry": dict(entry),
            "reason": reason,
        }
        if later is not None:
            after["later"] = later
            after["removed"] = list(range(number + 1, count_before + 1))
            after["ending"] = dict(changed.game.ending)
        event_log(
            event,
            "result_correct",
            user,
            before={"table": table.pk, "number": number, "entry": before, "ending": ending_before},
            after=after,
        )
        bump(event)
    return table


def result_remove(
    *,
    event: Event,
    table: Table,
    number: int,
    user: ActingUser,
    reason: str,
    revision: int | None,
    later: Later | None = None,
) -> Table:
    """The director removes deal ``number`` of a table's game (the last one: undone); the
    later deals move up one, any ending goes, and the game is scored again. ``later``: the
    deals after it go too and the game ends there ("end") or goes on ("undo"); without it a
    removal that makes a later deal invalid is refused (``LaterDealsBreak``). The reason
    is required; a stale page is refused (``StaleRevision``). Kept in the game's audit and
    the event's log."""
    reason = _reason(reason)
    with transaction.atomic():
        event = event_locked_open(event)
        table, game = _event_table(event, table)
        # The deal asked for is checked by the game's service, after the revision: a page
        # opened before the table moved on is told so, not that the deal is gone.
        rounds = {r.number: dict(r.entry) for r in game.rounds.all()}
        ending_before = dict(game.ending)
        try:
            changed = round_remove(
                game=game,
                number=number,
                actor=Actor(user=user, device="director's desk", desk=True),
                reason=reason,
                revision=revision,
                later=later,
            )
        except (StaleRevision, LaterDealsBreak):
            raise
        except GameChangeError as error:
            raise _refusal(table, error) from None
        removed = [n for n in sorted(rounds) if n >= number] if later is not None else [number]
        event_log(
            event,
            "result_undo" if number == len(rounds) and later is None else "result_remove",
            user,
            before={
                "table": table.pk,
                "number": number,
                "entry": rounds[number],
                "ending": ending_before,
            },
            after={
                "table": table.pk,
                "removed": removed,
                "ending": dict(changed.game.ending),
                "reason": reason,
                **({"later": later} if later is not None else {}),
            },
        )
        bump(event)
    return table


def result_end_at_totals(
    *, event: Event, table: Table, user: ActingUser, reason: str, revision: int | None
) -> Table:
    """The director ends a table's game where it stands: the best total wins. The reason
    is required; a stale page is refused (``StaleRevision``). Kept in the game's audit and
    the event's log."""
    reason = _reason(reason)
    with transaction.atomic():
        event = event_locked_open(event)
        table, game = _event_table(event, table)
        try:
            changed = game_end_at_totals(
                game=game,
                actor=Actor(user=user, device="director's desk", desk=True),
                reason=reason,
                revision=revision,
            )
        except StaleRevision:
            raise
        except GameChangeError as error:
            raise _refusal(table, error) from None
        event_log(
            event,
            "result_end",
            user,
            before={"table": table.pk, "deals": changed.game.last_round_number},
            after={
                "table": table.pk,
                "totals": list(changed.score.get("totals", [])),
                "reason": reason,
            },
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
        raise TournamentError.single(N_("there is no such request at this event"), field="request")
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
