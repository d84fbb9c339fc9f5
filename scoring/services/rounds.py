"""The rounds of a game: recorded (a misdeal too), saved from the table, confirmed and
undone. Corrections and the desk's removals are ``corrections``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone

from common.compiled import CompiledInsert, write_together
from scoring.engines.base import N_, RoundResult, ScoredGame, Step
from scoring.models import Confirmation, Game, Round, RoundEvent
from scoring.selectors import game_record, game_score, scored_from_data, seats_that_may_confirm
from scoring.services.change import (
    Actor,
    ChangeResult,
    GameChangeError,
    NotTheNextRound,
    RoundConflict,
    SeatNotSaid,
)
from scoring.services.checks import (
    check_actor_seat,
    check_entering_seat,
    check_open,
    check_revision,
    same_phone,
)
from scoring.services.frame import (
    NEW_EVENT,
    NEW_KEYED_ANSWER,
    NEW_ROUND,
    SAVE_PROJECTION,
    announce_change,
    audit,
    audit_event,
    locked,
    save_projection,
    score_or_raise,
    score_round,
    set_standing,
)
from scoring.services.idempotency import (
    answer_to_keep,
    check_idempotency_key,
    prune_idempotent_requests,
    replay_of,
    withdraw_keyed_answers,
)


def round_record(
    *,
    game: Game,
    number: int,
    entry: Mapping[str, Any],
    actor: Actor,
    idempotency_key: str | None = None,
) -> ChangeResult:
    """Record round ``number``; a second phone sending the same number gets RoundConflict."""
    request = {"action": "record", "number": number, "round": entry}
    try:
        with transaction.atomic():
            game = locked(game.pk)
            check_idempotency_key(idempotency_key)
            try:
                step, whole = _next_round_scored(game, number, entry, actor)
            except GameChangeError:
                # A keyed request answered before is refused now (its round is recorded;
                # the game may have ended or its table closed since): its first answer
                # is replayed instead. Keyed answers are read only here: one that exists
                # is for a round recorded, which a request that passes cannot be.
                replay = replay_of(game, idempotency_key, request)
                if replay:
                    return replay
                raise
            confirmed = game.confirmation == Confirmation.OFF
            scored_round = step.round.as_dict()
            row = Round(
                game=game,
                number=number,
                entry=dict(entry),
                status=Round.Status.CONFIRMED if confirmed else Round.Status.PENDING,
                entered_by_seat=actor.seat,
                entered_by_device=actor.device[:64],
                entered_by_user=actor.user_or_none,
                confirmed_at=timezone.now() if confirmed else None,
                result=scored_round,
            )
            event = audit_event(
                game, RoundEvent.Action.RECORD, actor, number=number, after=dict(entry)
            )
            result = ChangeResult(
                game=game,
                score=step.standing,
                round_number=number,
                round=scored_round,
                row=row,
            )
            answer = answer_to_keep(game, idempotency_key, request, result)
            new: list[tuple[CompiledInsert[Any], Model]] = [(NEW_ROUND, row), (NEW_EVENT, event)]
            if answer is not None:
                new.append((NEW_KEYED_ANSWER, answer))
                transaction.on_commit(prune_idempotent_requests)
            if whole is None:
                game.last_round_number = number
                set_standing(game, step.standing, step.state)
                write_together(new, SAVE_PROJECTION, game)
            else:
                for insert, instance in new:
                    insert.insert(instance)
                save_projection(game, whole)
            announce_change(game)
            return result
    except IntegrityError:
        # The unique constraints are the last word when two writers slip past the lock,
        # and for a key whose round was undone since (its answer kept as a tombstone, the
        # key's row is there already): the replay below refuses it (RoundWithdrawn).
        recorded = Round.objects.filter(game_id=game.pk, number=number).first()
        if recorded is not None:
            raise RoundConflict(recorded) from None
        # What the failed write changed on the game in memory was rolled back in the database.
        game = Game.objects.filter(pk=game.pk).first() or game
        replay = replay_of(game, idempotency_key, request)
        if replay:
            return replay
        raise


def _next_round_scored(
    game: Game, number: int, entry: Mapping[str, Any], actor: Actor
) -> tuple[Step, ScoredGame | None]:
    """Round ``number`` scored, when it is the next one and the seat may enter it."""
    check_entering_seat(game, actor, number)
    # A table the desk closed mid-game (its bracket match decided) takes no deal.
    check_open(game, actor, number)
    last = game.last_round_number
    if 1 <= number <= last:
        raise RoundConflict(game.rounds.get(number=number))
    check_next_number(game, number)
    if game.ending:
        raise GameChangeError.single(
            N_("the game has already ended; no more rounds can be recorded"),
            round_number=number,
        )
    return score_round(game, number, entry)


def check_next_number(game: Game, number: int) -> None:
    """Refuse a round numbered neither the next one nor one recorded (NotTheNextRound)."""
    if not 1 <= number <= game.last_round_number + 1:
        raise NotTheNextRound(number, game.last_round_number + 1, game.engine.round_word)


def misdeal_record(
    *, game: Game, number: int, actor: Actor, idempotency_key: str | None = None
) -> ChangeResult:
    """Void a deal as a misdeal: nobody scores and the same dealer deals again."""
    if "misdeal" not in {
        spec.name for spec in game.engine.round_fields(game.seats.count(), game.options)
    }:
        raise GameChangeError.single(
            N_("{game} has no misdeals to record"), field="misdeal", game=game.engine.title
        )
    return round_record(
        game=game,
        number=number,
        entry={"misdeal": True},
        actor=actor,
        idempotency_key=idempotency_key,
    )


@runtime_checkable
class ReadInPart(Protocol):
    """Rounds' results of which only the last were read (the table's page reads no more,
    see ``scoring.web.scores.RecentResults``): one more round after them without reading
    the others."""

    def plus(self, result: RoundResult, row: Round | None = None) -> list[RoundResult]: ...


@dataclass(frozen=True)
class RoundSaved:
    """A round saved from the table: the change, and the game's score after it as the
    table shows it."""

    change: ChangeResult
    score: ScoredGame
    # The round saved is the only change since the score before it was read (not another
    # phone's round, a correction, an undo, a replayed key): it is the game's news.
    alone: bool


def round_save(
    *,
    game: Game,
    number: int,
    entry: Mapping[str, Any] | None,
    actor: Actor,
    before: ScoredGame,
    misdeal: bool = False,
    idempotency_key: str | None = None,
) -> RoundSaved | None:
    """Record round ``number`` from the table's form (a misdeal with ``misdeal``) and
    answer with the score after it.

    ``before`` is the game's score read with ``game`` (at ``game.revision``): the score
    after is it with the round just scored, when nothing else changed meanwhile; read
    again otherwise. ``entry`` None: the form could not be read (it says why). The
    refusals that need no entry are made first all the same (SeatNotSaid,
    NotTheNextRound); then nothing is done and None is answered.
    """
    read_at = game.revision
    if misdeal:
        change = misdeal_record(
            game=game, number=number, actor=actor, idempotency_key=idempotency_key
        )
    elif entry is None:
        check_entering_seat(game, actor, number)
        check_next_number(game, number)
        return None
    else:
        change = round_record(
            game=game, number=number, entry=entry, actor=actor, idempotency_key=idempotency_key
        )
    alone = (
        not change.replayed
        and change.round is not None
        and "rounds" not in change.score
        and change.game.revision == read_at + 1
        and change.round_number == len(before.rounds) + 1
    )
    if not alone or change.round is None:
        return RoundSaved(change=change, score=game_score(change.game), alone=False)
    after = scored_from_data({**change.score, "rounds": [change.round]})
    if isinstance(before.rounds, ReadInPart):
        after.rounds = before.rounds.plus(after.rounds[0], change.row)
    else:
        after.rounds = [*before.rounds, *after.rounds]
    return RoundSaved(change=change, score=after, alone=True)


def round_confirm(
    *, game: Game, number: int, actor: Actor, seen: Mapping[str, Any] | None = None
) -> ChangeResult:
    """Confirm a pending round; ``seen`` is the entry the confirming phone showed, if known."""
    with transaction.atomic():
        game = locked(game.pk)
        if actor.seat is None:
            raise SeatNotSaid.single(
                N_("say which seat confirms"), round_number=number, field="seat"
            )
        check_actor_seat(game, actor)
        round_ = game.rounds.filter(number=number).first()
        if round_ is None:
            raise GameChangeError.single(
                N_("there is no such round"), round_number=number, field="number"
            )
        if round_.status == Round.Status.CONFIRMED:
            return ChangeResult(
                game=game, score=game.score_cache, round_number=number, replayed=True
            )
        if seen is not None and dict(seen) != round_.entry:
            raise GameChangeError.single(
                N_("this round was changed since you looked at it: check it again"),
                round_number=number,
                field="round",
            )
        if actor.seat not in seats_that_may_confirm(game, round_, game_score(game)):
            message = (
                N_("another player confirms a round, not the one who entered it")
                if game.confirmation == Confirmation.ANY_OTHER_SEAT
                else N_("a player of another side confirms this round")
            )
            raise GameChangeError.single(message, round_number=number, field="seat")
        one_device = same_phone(game, actor, round_.entered_by_device, number)
        round_.status = Round.Status.CONFIRMED
        round_.confirmed_by_seat = actor.seat
        round_.confirmed_at = timezone.now()
        round_.save(update_fields=["status", "confirmed_by_seat", "confirmed_at", "updated_at"])
        after: dict[str, Any] = {"status": "confirmed"}
        if one_device:
            after["one_device"] = True  # entered and confirmed on one phone, handed over
        audit(game, RoundEvent.Action.CONFIRM, actor, number=number, after=after)
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return ChangeResult(game=game, score=game.score_cache, round_number=number)


def undo_target(game: Game, number: int | None) -> Round:
    """The round an undo removes (the last one), or the reason it cannot be (game locked)."""
    last = game.rounds.order_by("-number").first()
    if last is None:
        raise GameChangeError.single(N_("there is no round to undo"), field="number")
    if number is not None and number != last.number:
        raise GameChangeError.single(
            N_("only the last round (round {last}) can be undone"),
            round_number=number,
            field="number",
            last=last.number,
        )
    if game.ending:
        raise GameChangeError.single(
            N_("the game has ended; its rounds can be corrected, not undone")
        )
    return last


def apply_undo(game: Game, number: int | None, actor: Actor) -> dict[str, Any]:
    last = undo_target(game, number)
    before = last.entry
    removed = last.number
    last.delete()
    # A retry of the request that stored this round must neither be told it is still
    # saved nor store it again behind another phone's back.
    withdraw_keyed_answers(game, removed, "undone")
    scored = score_or_raise(game, game_record(game))
    audit(game, RoundEvent.Action.UNDO, actor, number=removed, before=before)
    return save_projection(game, scored)


def round_undo(
    *, game: Game, number: int | None, actor: Actor, revision: int | None = None
) -> ChangeResult:
    """Remove the last round (``number``, when given, must be the last one); ``revision``
    is the one the phone saw (None: not checked)."""
    with transaction.atomic():
        game = locked(game.pk)
        check_actor_seat(game, actor)
        check_revision(game, revision, number)
        check_open(game, actor, number)
        removed = undo_target(game, number).number
        score = apply_undo(game, number, actor)
    return ChangeResult(game=game, score=score, round_number=removed)
