"""Deals corrected or removed: the whole game from there on must still stand, or the
desk removes the deals after the changed one (the game ends there, or goes on)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from django.db import transaction

from scoring.engines.base import (
    N_,
    GameRecord,
    InvalidRecord,
    Phrase,
    Problem,
    ScoredGame,
    ended_at_totals,
    through_deal,
    without_deal,
)
from scoring.models import Confirmation, Game, Round, RoundEvent
from scoring.selectors import game_record
from scoring.services.change import Actor, ChangeResult, GameChangeError, LaterDealsBreak
from scoring.services.checks import (
    check_desk,
    check_entering_seat,
    check_open,
    check_revision,
    checked_reason,
)
from scoring.services.frame import audit, locked, save_projection
from scoring.services.idempotency import withdraw_keyed_answers

# What happens to the deals after a changed one that no longer stand: removed, and the
# game ends there ("end", at the totals standing unless it ends there by itself), or goes
# on from there ("undo").
Later = Literal["end", "undo"]


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
