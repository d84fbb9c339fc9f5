"""The rounds of a game: recorded, a misdeal, confirmed, corrected and undone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol, runtime_checkable

from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone

from common.compiled import CompiledInsert, write_together
from scoring.engines.base import (
    N_,
    GameRecord,
    InvalidRecord,
    Phrase,
    Problem,
    RoundResult,
    ScoredGame,
    Step,
    ended_at_totals,
    through_deal,
    without_deal,
)
from scoring.models import (
    Confirmation,
    Game,
    Round,
    RoundEvent,
)
from scoring.selectors import (
    game_record,
    game_score,
    scored_from_data,
    seats_that_may_confirm,
)
from scoring.services.change import (
    NEW_EVENT,
    NEW_KEYED_ANSWER,
    NEW_ROUND,
    SAVE_PROJECTION,
    Actor,
    ChangeResult,
    GameChangeError,
    LaterDealsBreak,
    NotTheNextRound,
    RoundConflict,
    SeatNotSaid,
    announce_change,
    answer_to_keep,
    audit,
    audit_event,
    check_actor_seat,
    check_desk,
    check_entering_seat,
    check_idempotency_key,
    check_open,
    check_revision,
    checked_reason,
    locked,
    prune_idempotent_requests,
    replay_of,
    same_phone,
    save_projection,
    score_or_raise,
    score_round,
    set_standing,
    withdraw_keyed_answers,
)

# What happens to the deals after a changed one that no longer stand: removed, and the
# game ends there ("end", at the totals standing unless it ends there by itself), or goes
# on from there ("undo").
Later = Literal["end", "undo"]


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
        raise NotTheNextRound(number, game.last_round_number + 1)


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


def round_correct(
    *,
    game: Game,
    number: int,
    entry: Mapping[str, Any],
    actor: Actor,
    revision: int | None = None,
    later: Later | None = None,
    reason: str = "",
) -> ChangeResult:
    """Replace round ``number``; the whole game from there on must still stand.

    ``revision`` is the game's revision the correction was made against: another one is
    refused (StaleRevision), never silently applied. None: not checked (the caller did).
    ``later`` (the event's desk only): the deals after it are removed, and the game ends
    there ("end", at the totals standing unless it ends there by itself) or goes on from
    there ("undo"); without it a correction that changes how the game ended is refused
    (LaterDealsBreak). ``reason`` is kept in the audit.
    """
    with transaction.atomic():
        game = locked(game.pk)
        if not actor.desk:
            check_entering_seat(game, actor, number)
        check_revision(game, revision, number)
        check_open(game, actor, number)
        if later is None:
            score = apply_correct(game, number, entry, actor, reason)
        else:
            check_desk(actor)
            score = apply_correct_cut(game, number, entry, actor, later, reason)
    return ChangeResult(game=game, score=score, round_number=number)


def _deal_of(rounds: list[Round], number: int) -> Round:
    round_ = next((r for r in rounds if r.number == number), None)
    if round_ is None:
        raise GameChangeError.single(
            N_("there is no deal {number}"), round_number=number, field="number", number=number
        )
    return round_


def breaking(
    game: Game, record: GameRecord, invalid: InvalidRecord, number: int, *, removing: bool = False
) -> LaterDealsBreak | None:
    """What a change at deal ``number`` breaks after it (a later deal, or the ending), or
    None when its problems are at that deal itself."""
    kept = number - 1 if removing else number
    later = [p for p in invalid.problems if p.round and p.round > kept]
    if not later and (not record.extras or any(p.round for p in invalid.problems)):
        return None
    try:
        ends = game.engine.score(through_deal(record, kept)).finished
    except InvalidRecord:
        return None
    what = (
        Phrase(N_("removing deal {number}"), {"number": number})
        if removing
        else Phrase(N_("this correction"))
    )
    if later:
        first = later[0]
        # Once a deal is removed the later ones move up: say the number the table knows.
        at = (first.round or 0) + 1 if removing else (first.round or 0)
        problem = Problem(
            N_(
                "{what} would make deal {at} invalid ({problem}); "
                "correct or undo the later deals first"
            ),
            number,
            first.field,
            {"what": what, "at": at, "problem": replace(first, of_deals=True)},
        )
        return LaterDealsBreak(
            [problem], number=number, kept=kept, later=at, ends=ends, removing=removing
        )
    problems = [
        Problem(
            N_("{what} no longer fits how the game ended: {problem}"),
            number,
            p.field,
            {"what": what, "problem": replace(p, of_deals=True)},
        )
        for p in invalid.problems
    ]
    return LaterDealsBreak(
        problems, number=number, kept=kept, later=None, ends=ends, removing=removing
    )


def check_correct(game: Game, number: int, entry: Mapping[str, Any]) -> tuple[Round, ScoredGame]:
    """The round a correction replaces and the game scored with it, or the reason it cannot
    be (the game locked)."""
    rounds = list(game.rounds.order_by("number"))
    round_ = next((r for r in rounds if r.number == number), None)
    if round_ is None:
        raise GameChangeError.single(
            N_("there is no such round"), round_number=number, field="number"
        )
    record = game_record(game, rounds)
    entries = list(record.rounds)
    entries[number - 1] = entry
    changed = record.with_rounds(entries)
    try:
        scored = game.engine.score(changed)
    except InvalidRecord as invalid:
        broken = breaking(game, changed, invalid, number)
        if broken is not None:
            raise broken from None
        raise GameChangeError(invalid.problems) from None
    return round_, scored


def apply_correct(
    game: Game, number: int, entry: Mapping[str, Any], actor: Actor, reason: str = ""
) -> dict:
    round_, scored = check_correct(game, number, entry)
    return _corrected(game, round_, entry, actor, scored, reason=reason)


def _corrected(
    game: Game,
    round_: Round,
    entry: Mapping[str, Any],
    actor: Actor,
    scored: ScoredGame,
    *,
    reason: str = "",
) -> dict:
    number = round_.number
    before = round_.entry
    round_.entry = dict(entry)
    round_.corrected = True
    if game.confirmation != Confirmation.OFF:
        round_.status = Round.Status.PENDING
        round_.confirmed_by_seat = None
        round_.confirmed_at = None
    round_.entered_by_seat = actor.seat
    round_.entered_by_device = actor.device[:64]
    round_.entered_by_user = actor.user_or_none
    round_.save()
    withdraw_keyed_answers(game, number, "corrected")
    audit(
        game,
        RoundEvent.Action.CORRECT,
        actor,
        number=number,
        before=before,
        after=dict(entry),
        reason=reason,
    )
    return save_projection(game, scored)


def apply_correct_cut(
    game: Game, number: int, entry: Mapping[str, Any], actor: Actor, later: Later, reason: str
) -> dict:
    """Correct deal ``number`` with the later deals removed: the game ends there ("end")
    or goes on from there ("undo")."""
    rounds = list(game.rounds.order_by("number"))
    round_ = _deal_of(rounds, number)
    record = game_record(game, rounds)
    entries = list(record.rounds)
    entries[number - 1] = entry
    kept, scored = _cut(game, through_deal(record.with_rounds(entries), number), later)
    removed = _remove_after(game, rounds, number)
    ending_before = dict(game.ending)
    game.ending = dict(kept.extras)
    if removed or ending_before or game.ending:
        # The later deals' removal (and how the game now ends) in a row of its own.
        audit(
            game,
            RoundEvent.Action.REMOVE,
            actor,
            number=removed[0] if removed else None,
            before={"ending": ending_before},
            after={"removed": removed, "ending": game.ending, "later": later},
            reason=reason,
        )
    return _corrected(game, round_, entry, actor, scored, reason=reason)


def _cut(game: Game, record: GameRecord, later: Later) -> tuple[GameRecord, ScoredGame]:
    """The record kept, ended at the totals standing ("end") or going on ("undo")."""
    try:
        if later == "end":
            return ended_at_totals(game.engine, record)
        return record, game.engine.score(record)
    except InvalidRecord as invalid:
        raise GameChangeError([replace(p, of_deals=True) for p in invalid.problems]) from None


def _remove_after(game: Game, rounds: list[Round], number: int) -> list[int]:
    """Delete the deals after ``number`` (their keyed answers withdrawn); their numbers."""
    gone = [r.number for r in rounds if r.number > number]
    if gone:
        Round.objects.filter(game=game, number__gt=number).delete()
        for removed in gone:
            withdraw_keyed_answers(game, removed, "undone")
    return gone


def round_remove(
    *,
    game: Game,
    number: int,
    actor: Actor,
    reason: str,
    revision: int | None,
    later: Later | None = None,
) -> ChangeResult:
    """The event's desk removes deal ``number`` (the last one: an undo): the later deals
    move up one and the game is scored again without it; any ending goes (it stood on the
    deals as they were), so a game over may go on. ``later``: the deals after it are removed
    too and the game ends there ("end") or goes on ("undo"); without it a removal that makes
    a later deal invalid is refused (LaterDealsBreak). The reason is required and kept."""
    check_desk(actor)
    reason = checked_reason(reason)
    with transaction.atomic():
        game = locked(game.pk)
        check_revision(game, revision, number)
        rounds = list(game.rounds.order_by("number"))
        gone = _deal_of(rounds, number)
        record = game_record(game, rounds)
        if later is not None:
            kept, scored = _cut(game, through_deal(record, number - 1), later)
            removed = _remove_after(game, rounds, number - 1)
        else:
            kept = without_deal(record, number)
            try:
                scored = game.engine.score(kept)
            except InvalidRecord as invalid:
                broken = breaking(game, kept, invalid, number, removing=True)
                if broken is not None:
                    raise broken from None
                raise GameChangeError(invalid.problems) from None
            removed = [number]
            gone.delete()
            for moved in rounds[number:]:
                withdraw_keyed_answers(game, moved.number, "undone")
                Round.objects.filter(pk=moved.pk).update(number=moved.number - 1)
            withdraw_keyed_answers(game, number, "undone")
        ending_before = dict(game.ending)
        game.ending = dict(kept.extras)
        last = len(rounds) == number
        audit(
            game,
            RoundEvent.Action.UNDO if last and later is None else RoundEvent.Action.REMOVE,
            actor,
            number=number,
            before={"entry": gone.entry, "ending": ending_before},
            after={"removed": removed, "ending": game.ending},
            reason=reason,
        )
        score = save_projection(game, scored)
    return ChangeResult(game=game, score=score, round_number=number)


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
