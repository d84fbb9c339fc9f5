"""Every change to a game, one service each, atomic, with an audit event.

The pattern: lock the game, load its rounds, ask the engine about the new
state of the whole game, save the input and the audit event, rebuild the score
projection, all in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Self

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from scoring.engines.base import GameRecord, InvalidRecord, Problem, ScoredGame, Step, parse_record
from scoring.engines.registry import ENGINES, engine_for
from scoring.models import (
    ChangeRequest,
    Confirmation,
    Game,
    IdempotentRequest,
    Round,
    RoundEvent,
    Seat,
)
from scoring.selectors import (
    game_record,
    game_record_head,
    game_score,
    seat_count,
    seats_that_may_accept,
    seats_that_may_confirm,
    table_closed,
)


@dataclass(frozen=True)
class Actor:
    """Who makes a change: the seat a phone says it is, the device, the signed-in user."""

    seat: int | None = None
    device: str = ""
    user: Any = None
    # A director of the game's event, at the event's desk: the caller checked who may
    # direct the event. Only the desk changes a closed event table.
    desk: bool = False

    @property
    def user_or_none(self) -> Any:
        return self.user if getattr(self.user, "is_authenticated", False) else None


class GameChangeError(Exception):
    """A change the rules or the state of the game refuse; carries user-facing problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))

    @classmethod
    def single(
        cls, message: str, *, round_number: int | None = None, field: str | None = None
    ) -> Self:
        return cls([Problem(message, round_number, field)])


class RoundConflict(GameChangeError):
    """Another phone recorded this round number first."""

    def __init__(self, recorded: Round):
        self.recorded = recorded
        super().__init__(
            [Problem(f"round {recorded.number} was already recorded", recorded.number, "number")]
        )


class IdempotencyKeyReused(GameChangeError):
    pass


STALE_MESSAGE = "changed since you opened it: here is what is there now; make your change again"


class StaleRevision(GameChangeError):
    """A change made against a revision the game has moved past: nothing was done.

    ``current`` is the revision there now; the page (or the API's 409) shows the game as
    it stands, and the change can be made again from there.
    """

    def __init__(self, game: Game, *, made_against: int | None, round_number: int | None = None):
        self.current = game.revision
        self.made_against = made_against
        super().__init__([Problem(STALE_MESSAGE, round_number, "revision")])


class TableClosed(GameChangeError):
    """An event table whose game is over: only the event's desk changes it now.

    The table asks the desk instead (``desk_request_open``).
    """

    def __init__(self, round_number: int | None = None, *, by_desk: bool = False):
        why = (
            "the event's desk decided this table's match"
            if by_desk
            else "this event table's game is over"
        )
        super().__init__(
            [Problem(f"{why}: a change now goes to the event's desk", round_number, "table")]
        )


@dataclass(frozen=True)
class ChangeResult:
    game: Game
    score: dict[str, Any]
    round_number: int | None = None
    replayed: bool = False
    # A recorded round: that round as scored; ``score`` is then the standing (the score
    # without its rounds), so that the answer stays the same size however long the game.
    round: dict[str, Any] | None = None

    def payload(self) -> dict[str, Any]:
        return {"number": self.round_number, "score": self.score}


# --------------------------------------------------------------------------- helpers


def default_confirmation(*, is_tournament_game: bool) -> str:
    return Confirmation.OTHER_SIDE if is_tournament_game else Confirmation.OFF


def _score_or_raise(game: Game, record: GameRecord) -> ScoredGame:
    try:
        return game.engine.score(record)
    except InvalidRecord as invalid:
        raise GameChangeError(invalid.problems) from None


PROJECTION_FIELDS = ["score_cache", "engine_state", "revision", "status", "ending", "updated_at"]


def _save_projection(game: Game, scored: ScoredGame) -> dict[str, Any]:
    """Keep a whole rescore: the standing and the engine's state on the game, each round's
    result on its row (only the rows whose result changed are written). Returns the score."""
    results = [result.as_dict() for result in scored.rounds]
    changed = []
    for round_ in game.rounds.only("pk", "number", "result"):
        result = results[round_.number - 1] if round_.number <= len(results) else None
        if round_.result != result:
            round_.result = result
            changed.append(round_)
    Round.objects.bulk_update(changed, ["result"], batch_size=200)
    _save_standing(game, scored.standing(), scored.state)
    return scored.as_dict()


def _save_standing(game: Game, standing: dict[str, Any], state: dict[str, Any] | None) -> None:
    game.score_cache = standing
    game.engine_state = state
    game.revision += 1
    game.status = Game.Status.FINISHED if standing.get("finished") else Game.Status.IN_PROGRESS
    game.save(update_fields=PROJECTION_FIELDS)


def _score_round(
    game: Game, number: int, entry: Mapping[str, Any]
) -> tuple[Step, ScoredGame | None]:
    """Round ``number`` scored from the engine's kept state, without reading the rounds
    before it; with no state kept (or one that no longer fits), from a rescore of the
    whole game, which is then returned as well to be kept whole."""
    if game.engine_state is not None:
        try:
            return game.engine.score_next(
                game_record_head(game), game.engine_state, number, entry
            ), None
        except InvalidRecord as invalid:
            raise GameChangeError(invalid.problems) from None
        except ValueError:
            pass  # a state the engine cannot resume: rescore the whole game below
    record = game_record(game)
    scored = _score_or_raise(game, record.with_rounds([*record.rounds, entry]))
    return Step(
        round=scored.rounds[-1], standing=scored.standing(), state=scored.state or {}
    ), scored


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameChangeError.single("no such game", field="game") from None


def _announce_change(game: Game) -> None:
    """After commit, tell the one explicit listener (settings.TABLESCORE_GAME_CHANGED_HOOK,
    a dotted path to ``hook(*, game_id: int) -> None``) that a tournament game changed.

    Scoring knows nothing of events: the setting is the whole extension point.
    """
    path = getattr(settings, "TABLESCORE_GAME_CHANGED_HOOK", "")
    if not path or not game.is_tournament_game:
        return
    hook = import_string(path)
    game_id = game.pk
    transaction.on_commit(lambda: hook(game_id=game_id))


def _audit(
    game: Game,
    action: str,
    actor: Actor,
    *,
    number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> None:
    RoundEvent.objects.create(
        game=game,
        round_number=number,
        action=action,
        seat=actor.seat,
        device=actor.device[:64],
        user=actor.user_or_none,
        before=before,
        after=after,
    )
    _announce_change(game)


def _check_actor_seat(game: Game, actor: Actor) -> None:
    if actor.seat is not None and not 0 <= actor.seat < seat_count(game):
        raise GameChangeError.single("that seat is not at this table", field="seat")


def _check_entering_seat(game: Game, actor: Actor, number: int) -> None:
    """With confirmation on, who entered a round decides who may confirm it: say who."""
    _check_actor_seat(game, actor)
    if game.confirmation != Confirmation.OFF and actor.seat is None:
        raise GameChangeError.single(
            "say which player is entering this round: another side confirms it",
            round_number=number,
            field="seat",
        )


def _check_revision(game: Game, revision: int | None, number: int | None = None) -> None:
    """Refuse a change made against another revision than the game's (None: not checked,
    for a caller that checked it itself)."""
    if revision is not None and revision != game.revision:
        raise StaleRevision(game, made_against=revision, round_number=number)


def _check_open(game: Game, actor: Actor, number: int | None = None) -> None:
    """A closed event table is changed by its event's desk alone."""
    if not actor.desk and table_closed(game):
        raise TableClosed(number, by_desk=game.closed_by_desk)


def _same_phone(game: Game, actor: Actor, device: str, number: int | None) -> bool:
    """At an event table another phone confirms (or agrees) than the one that entered (or
    asked), unless the event hands one phone over: then True, for the audit to say so."""
    if actor.desk or not game.is_tournament_game or not device or actor.device != device:
        return False
    if game.one_phone:
        return True
    raise GameChangeError.single(
        "confirm on a phone of the other side, not the phone that entered it",
        round_number=number,
        field="seat",
    )


def _fingerprint(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(game: Game, key: str | None, request: Any) -> ChangeResult | None:
    if not key:
        return None
    if len(key) > 128 or not key.isprintable():
        raise GameChangeError.single(
            "the idempotency key must be up to 128 printable characters", field="idempotency_key"
        )
    stored = IdempotentRequest.objects.filter(game=game, key=key).first()
    if stored is None:
        return None
    if stored.fingerprint != _fingerprint(request):
        raise IdempotencyKeyReused.single(
            "this idempotency key was already used for a different request", field="idempotency_key"
        )
    answer = stored.response
    number = answer.get("number")
    if "standing" in answer:
        return ChangeResult(
            game=game,
            score=answer["standing"],
            round_number=number,
            replayed=True,
            round=answer["round"],
        )
    # An answer stored whole, before answers were kept small: the same parts from it.
    whole = dict(answer["score"])
    rounds = whole.pop("rounds", [])
    return ChangeResult(
        game=game,
        score=whole,
        round_number=number,
        replayed=True,
        round=rounds[number - 1] if isinstance(number, int) and 0 < number <= len(rounds) else None,
    )


IDEMPOTENCY_KEPT = timedelta(days=1)
PRUNE_EVERY_SECONDS = 60.0
_last_prune = 0.0


def _remember(game: Game, key: str | None, request: Any, result: ChangeResult) -> None:
    """Keep the answer to a keyed request, small: the round and the standing after it."""
    if not key:
        return
    IdempotentRequest.objects.create(
        game=game,
        key=key[:128],
        fingerprint=_fingerprint(request),
        response={"number": result.round_number, "round": result.round, "standing": result.score},
    )
    transaction.on_commit(prune_idempotent_requests)


def prune_idempotent_requests(*, force: bool = False) -> int:
    """Forget keyed answers older than a day (a retry comes within minutes). Runs after a
    keyed write commits, at most once a minute per process; returns the rows removed."""
    global _last_prune
    now = time.monotonic()
    if not force and now - _last_prune < PRUNE_EVERY_SECONDS:
        return 0
    _last_prune = now
    removed, _ = IdempotentRequest.objects.filter(
        created_at__lt=timezone.now() - IDEMPOTENCY_KEPT
    ).delete()
    return removed


# --------------------------------------------------------------------------- games


def game_create(
    *,
    record: Mapping[str, Any],
    actor: Actor | None = None,
    confirmation: str | None = None,
    is_tournament_game: bool = False,
    one_phone: bool = False,
    action: str = RoundEvent.Action.CREATE,
) -> ChangeResult:
    """Create a game from a game record (rounds optional: an import carries them)."""
    actor = actor or Actor()
    try:
        parsed = parse_record(record, ENGINES)
        scored = engine_for(parsed.game).score(parsed)
    except InvalidRecord as invalid:
        raise GameChangeError(invalid.problems) from None
    if confirmation is None:
        confirmation = default_confirmation(is_tournament_game=is_tournament_game)
    if confirmation not in Confirmation.values:
        raise GameChangeError.single(
            "confirmation must be off, any_other_seat or other_side", field="confirmation"
        )
    with transaction.atomic():
        game = Game.objects.create(
            kind=parsed.game,
            options=dict(parsed.options),
            first_dealer=parsed.first_dealer,
            ending={key: value for key, value in parsed.extras.items() if value},
            confirmation=confirmation,
            is_tournament_game=is_tournament_game,
            one_phone=one_phone and is_tournament_game,
            created_by=actor.user_or_none,
        )
        teams = scored.teams
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=seat,
                name=name,
                team=next((label for label, members in teams.items() if seat in members), ""),
            )
            for seat, name in enumerate(parsed.players)
        )
        # Imported rounds were played already: they stand as confirmed.
        Round.objects.bulk_create(
            Round(game=game, number=index + 1, entry=entry, status=Round.Status.CONFIRMED)
            for index, entry in enumerate(parsed.rounds)
        )
        _audit(game, action, actor, after=parsed.as_dict())
        score = _save_projection(game, scored)
    return ChangeResult(game=game, score=score)


def game_import(*, record: Mapping[str, Any], actor: Actor | None = None) -> ChangeResult:
    return game_create(record=record, actor=actor, action=RoundEvent.Action.IMPORT)


def _check_ending(game: Game, ending: Mapping[str, Any]) -> ScoredGame:
    """The score once ``ending`` is applied, or the reason it cannot be (game locked)."""
    if game.ending:
        raise GameChangeError.single("this game has already ended", field="end")
    if not isinstance(ending, Mapping) or not ending:
        raise GameChangeError.single("say how the game ends", field="end")
    unknown = set(ending) - game.engine.record_extras
    if unknown:
        raise GameChangeError.single(
            f"{game.engine.title} cannot be ended this way", field=sorted(unknown)[0]
        )
    scored = _score_or_raise(game, game_record(game).with_extras(ending))
    if not scored.finished:
        raise GameChangeError.single("that does not end the game", field=sorted(ending)[0])
    return scored


def _apply_end(game: Game, ending: Mapping[str, Any], actor: Actor) -> dict[str, Any]:
    scored = _check_ending(game, ending)
    before = dict(game.ending)
    game.ending = dict(ending)
    _audit(game, RoundEvent.Action.END, actor, before=before, after=dict(ending))
    return _save_projection(game, scored)


def game_end(
    *, game: Game, ending: Mapping[str, Any], actor: Actor, revision: int | None = None
) -> ChangeResult:
    """End a game by a record-level ending its engine allows (an early finish, leftovers);
    ``revision``, when given, is the one the phone saw."""
    with transaction.atomic():
        game = _locked(game.pk)
        _check_actor_seat(game, actor)
        _check_revision(game, revision)
        _check_open(game, actor)
        score = _apply_end(game, ending, actor)
    return ChangeResult(game=game, score=score)


def _check_reopen(game: Game) -> None:
    if not game.ending:
        raise GameChangeError.single("this game was not ended early", field="end")


def _apply_reopen(game: Game, actor: Actor) -> dict[str, Any]:
    _check_reopen(game)
    before = dict(game.ending)
    game.ending = {}
    scored = _score_or_raise(game, game_record(game))
    _audit(game, RoundEvent.Action.REOPEN, actor, before=before, after={})
    return _save_projection(game, scored)


def game_reopen(*, game: Game, actor: Actor, revision: int | None = None) -> ChangeResult:
    """Take back an ending (an early finish, leftovers given out): the game goes on.

    ``revision`` is the one the phone saw (None: not checked)."""
    with transaction.atomic():
        game = _locked(game.pk)
        _check_actor_seat(game, actor)
        _check_revision(game, revision)
        _check_open(game, actor)
        score = _apply_reopen(game, actor)
    return ChangeResult(game=game, score=score)


def game_rematch(*, game: Game, actor: Actor) -> ChangeResult:
    """Start the same table again, the first deal passing to the next seat.

    One rematch per game: a second phone asking gets the game the first one started.
    """
    with transaction.atomic():
        game = _locked(game.pk)
        _check_actor_seat(game, actor)
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            return ChangeResult(game=existing, score=existing.score_cache, replayed=True)
        if game.is_tournament_game:
            raise GameChangeError.single(
                "a tournament game is followed by the event's next round, not a rematch",
                field="rematch",
            )
        if game.status != Game.Status.FINISHED:
            raise GameChangeError.single("the game is not over yet", field="rematch")
        players = list(game.seats.order_by("number").values_list("name", flat=True))
        result = game_create(
            record={
                "format": 1,
                "game": game.kind,
                "players": players,
                "options": dict(game.options),
                "first_dealer": (game.first_dealer + 1) % len(players),
                "rounds": [],
            },
            actor=actor,
            confirmation=game.confirmation,
        )
        rematch = result.game
        rematch.rematch_of = game
        rematch.save(update_fields=["rematch_of", "updated_at"])
        _audit(game, RoundEvent.Action.REMATCH, actor, after={"game": rematch.pk})
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return ChangeResult(game=rematch, score=result.score)


# --------------------------------------------------------------------------- rounds


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
            game = _locked(game.pk)
            replay = _replay(game, idempotency_key, request)
            if replay:
                return replay
            _check_entering_seat(game, actor, number)
            # A table the desk closed mid-game (its bracket match decided) takes no deal.
            _check_open(game, actor, number)
            last = game.rounds.order_by("-number").values_list("number", flat=True).first() or 0
            if 1 <= number <= last:
                raise RoundConflict(game.rounds.get(number=number))
            expected = last + 1
            if number != expected:
                raise GameChangeError.single(
                    f"the next round is round {expected}", round_number=number, field="number"
                )
            if game.ending:
                raise GameChangeError.single(
                    "the game has already ended; no more rounds can be recorded",
                    round_number=number,
                )
            step, whole = _score_round(game, number, entry)
            confirmed = game.confirmation == Confirmation.OFF
            Round.objects.create(
                game=game,
                number=number,
                entry=dict(entry),
                status=Round.Status.CONFIRMED if confirmed else Round.Status.PENDING,
                entered_by_seat=actor.seat,
                entered_by_device=actor.device[:64],
                entered_by_user=actor.user_or_none,
                confirmed_at=timezone.now() if confirmed else None,
                result=step.round.as_dict(),
            )
            _audit(game, RoundEvent.Action.RECORD, actor, number=number, after=dict(entry))
            if whole is not None:
                _save_projection(game, whole)
            else:
                _save_standing(game, step.standing, step.state)
            result = ChangeResult(
                game=game,
                score=step.standing,
                round_number=number,
                round=step.round.as_dict(),
            )
            _remember(game, idempotency_key, request, result)
            return result
    except IntegrityError:
        # The unique constraints are the last word when two writers slip past the lock.
        recorded = Round.objects.filter(game_id=game.pk, number=number).first()
        if recorded is not None:
            raise RoundConflict(recorded) from None
        replay = _replay(game, idempotency_key, request)
        if replay:
            return replay
        raise


def misdeal_record(
    *, game: Game, number: int, actor: Actor, idempotency_key: str | None = None
) -> ChangeResult:
    """Void a deal as a misdeal: nobody scores and the same dealer deals again."""
    if "misdeal" not in {
        spec.name for spec in game.engine.round_fields(game.seats.count(), game.options)
    }:
        raise GameChangeError.single(
            f"{game.engine.title} has no misdeals to record", field="misdeal"
        )
    return round_record(
        game=game,
        number=number,
        entry={"misdeal": True},
        actor=actor,
        idempotency_key=idempotency_key,
    )


def round_confirm(
    *, game: Game, number: int, actor: Actor, seen: Mapping[str, Any] | None = None
) -> ChangeResult:
    """Confirm a pending round; ``seen`` is the entry the confirming phone showed, if known."""
    with transaction.atomic():
        game = _locked(game.pk)
        if actor.seat is None:
            raise GameChangeError.single(
                "say which seat confirms", round_number=number, field="seat"
            )
        _check_actor_seat(game, actor)
        round_ = game.rounds.filter(number=number).first()
        if round_ is None:
            raise GameChangeError.single(
                "there is no such round", round_number=number, field="number"
            )
        if round_.status == Round.Status.CONFIRMED:
            return ChangeResult(
                game=game, score=game.score_cache, round_number=number, replayed=True
            )
        if seen is not None and dict(seen) != round_.entry:
            raise GameChangeError.single(
                "this round was changed since you looked at it: check it again",
                round_number=number,
                field="round",
            )
        if actor.seat not in seats_that_may_confirm(game, round_, game_score(game)):
            message = (
                "another player confirms a round, not the one who entered it"
                if game.confirmation == Confirmation.ANY_OTHER_SEAT
                else "a player of another side confirms this round"
            )
            raise GameChangeError.single(message, round_number=number, field="seat")
        one_device = _same_phone(game, actor, round_.entered_by_device, number)
        round_.status = Round.Status.CONFIRMED
        round_.confirmed_by_seat = actor.seat
        round_.confirmed_at = timezone.now()
        round_.save(update_fields=["status", "confirmed_by_seat", "confirmed_at", "updated_at"])
        after: dict[str, Any] = {"status": "confirmed"}
        if one_device:
            after["one_device"] = True  # entered and confirmed on one phone, handed over
        _audit(game, RoundEvent.Action.CONFIRM, actor, number=number, after=after)
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
) -> ChangeResult:
    """Replace round ``number``; the whole game from there on must still stand.

    ``revision`` is the game's revision the correction was made against: another one is
    refused (StaleRevision), never silently applied. None: not checked (the caller did).
    """
    with transaction.atomic():
        game = _locked(game.pk)
        if not actor.desk:
            _check_entering_seat(game, actor, number)
        _check_revision(game, revision, number)
        _check_open(game, actor, number)
        score = _apply_correct(game, number, entry, actor)
    return ChangeResult(game=game, score=score, round_number=number)


def _check_correct(game: Game, number: int, entry: Mapping[str, Any]) -> tuple[Round, ScoredGame]:
    """The round a correction replaces and the game scored with it, or the reason it cannot
    be (the game locked)."""
    rounds = list(game.rounds.order_by("number"))
    round_ = next((r for r in rounds if r.number == number), None)
    if round_ is None:
        raise GameChangeError.single("there is no such round", round_number=number, field="number")
    record = game_record(game, rounds)
    entries = list(record.rounds)
    entries[number - 1] = entry
    try:
        scored = game.engine.score(record.with_rounds(entries))
    except InvalidRecord as invalid:
        later = [p for p in invalid.problems if p.round and p.round > number]
        if later:
            first = later[0]
            raise GameChangeError(
                [
                    Problem(
                        f"this correction would make round {first.round} invalid "
                        f"({first.message}); correct or undo the later rounds first",
                        number,
                        first.field,
                    )
                ]
            ) from None
        if not record.extras:
            raise GameChangeError(invalid.problems) from None
        raise GameChangeError(
            [
                Problem(
                    f"this correction no longer fits how the game ended: {p.message}",
                    number,
                    p.field,
                )
                for p in invalid.problems
            ]
        ) from None
    return round_, scored


def _apply_correct(game: Game, number: int, entry: Mapping[str, Any], actor: Actor) -> dict:
    round_, scored = _check_correct(game, number, entry)
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
    _audit(game, RoundEvent.Action.CORRECT, actor, number=number, before=before, after=dict(entry))
    return _save_projection(game, scored)


def _undo_target(game: Game, number: int | None) -> Round:
    """The round an undo removes (the last one), or the reason it cannot be (game locked)."""
    last = game.rounds.order_by("-number").first()
    if last is None:
        raise GameChangeError.single("there is no round to undo", field="number")
    if number is not None and number != last.number:
        raise GameChangeError.single(
            f"only the last round (round {last.number}) can be undone",
            round_number=number,
            field="number",
        )
    if game.ending:
        raise GameChangeError.single("the game has ended; its rounds can be corrected, not undone")
    return last


def _apply_undo(game: Game, number: int | None, actor: Actor) -> dict[str, Any]:
    last = _undo_target(game, number)
    before = last.entry
    removed = last.number
    last.delete()
    # A retry of the request that stored this round must not be told it is still saved.
    IdempotentRequest.objects.filter(game=game, response__number=removed).delete()
    scored = _score_or_raise(game, game_record(game))
    _audit(game, RoundEvent.Action.UNDO, actor, number=removed, before=before)
    return _save_projection(game, scored)


def round_undo(
    *, game: Game, number: int | None, actor: Actor, revision: int | None = None
) -> ChangeResult:
    """Remove the last round (``number``, when given, must be the last one); ``revision``
    is the one the phone saw (None: not checked)."""
    with transaction.atomic():
        game = _locked(game.pk)
        _check_actor_seat(game, actor)
        _check_revision(game, revision, number)
        _check_open(game, actor, number)
        removed = _undo_target(game, number).number
        score = _apply_undo(game, number, actor)
    return ChangeResult(game=game, score=score, round_number=removed)


# --------------------------------------------------------------------------- changes asked for


@dataclass(frozen=True)
class RequestResult:
    request: ChangeRequest
    replayed: bool = False


def _check_request(game: Game, kind: str, number: int | None, ending: Mapping[str, Any]) -> None:
    """Refuse a change that could not be made now (the game locked)."""
    if kind == ChangeRequest.Kind.UNDO:
        _undo_target(game, number)
    elif kind == ChangeRequest.Kind.END:
        _check_ending(game, ending)
    elif kind == ChangeRequest.Kind.REOPEN:
        _check_reopen(game)
    else:
        raise GameChangeError.single("undo, end or reopen can be asked for", field="kind")


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
        game = _locked(game.pk)
        _check_open(game, actor, number)
        if game.confirmation == Confirmation.OFF:
            raise GameChangeError.single(
                "this table does not ask for confirmation: make the change directly", field="kind"
            )
        if actor.seat is None:
            raise GameChangeError.single(
                "say which player is asking: another side agrees to it", field="seat"
            )
        _check_actor_seat(game, actor)
        if kind == ChangeRequest.Kind.UNDO and number is None:
            number = _undo_target(game, None).number
        _check_request(game, kind, number, ending)
        waiting = game.change_requests.filter(status=ChangeRequest.Status.OPEN).first()
        if waiting is not None:
            if (waiting.kind, waiting.round_number, waiting.ending) == (kind, number, ending):
                return RequestResult(request=waiting, replayed=True)
            raise GameChangeError.single(
                f"the table is already asked to {waiting.get_kind_display().lower()}: "
                "answer that first",
                field="kind",
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
        _audit(
            game,
            RoundEvent.Action.REQUEST,
            actor,
            number=number,
            after={"kind": kind, "ending": ending} if ending else {"kind": kind},
        )
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return RequestResult(request=request)


def _open_request(game: Game, request_id: int) -> ChangeRequest:
    request = game.change_requests.filter(pk=request_id).first()
    if request is None:
        raise GameChangeError.single("there is no such request", field="request")
    if request.status != ChangeRequest.Status.OPEN:
        raise GameChangeError.single(
            f"this request was answered already ({request.get_status_display().lower()})",
            field="request",
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
        game = _locked(game.pk)
        if actor.seat is None:
            raise GameChangeError.single("say which seat agrees", field="seat")
        _check_actor_seat(game, actor)
        request = _open_request(game, request_id)
        if request.to_desk:
            raise GameChangeError.single("the event's desk answers this request", field="request")
        if actor.seat not in seats_that_may_accept(game, request, game_score(game)):
            message = (
                "another player agrees to it, not the one who asked"
                if game.confirmation == Confirmation.ANY_OTHER_SEAT
                else "a player of another side agrees to it"
            )
            raise GameChangeError.single(message, field="seat")
        _same_phone(game, actor, request.asked_by_device, request.round_number)
        try:
            _check_request(game, request.kind, request.round_number, request.ending)
        except GameChangeError as gone:
            lapsed = gone
            _close(request, ChangeRequest.Status.LAPSED, actor)
            _audit(game, RoundEvent.Action.DECLINE, actor, after={"status": "lapsed"})
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
            _audit(
                game,
                RoundEvent.Action.ACCEPT,
                actor,
                number=request.round_number,
                after={"kind": request.kind},
            )
            if request.kind == ChangeRequest.Kind.UNDO:
                score = _apply_undo(game, request.round_number, asker)
            elif request.kind == ChangeRequest.Kind.END:
                score = _apply_end(game, request.ending, asker)
            else:
                score = _apply_reopen(game, asker)
    if lapsed is not None:
        raise GameChangeError.single(
            f"the game changed since this was asked, so nothing was done ({lapsed})",
            field="request",
        )
    return ChangeResult(game=game, score=score, round_number=request.round_number)


def change_request_decline(*, game: Game, request_id: int, actor: Actor) -> RequestResult:
    """Say no to a request (or, from the player who asked, take it back): nothing changes."""
    with transaction.atomic():
        game = _locked(game.pk)
        if actor.seat is None:
            raise GameChangeError.single("say which seat answers", field="seat")
        _check_actor_seat(game, actor)
        request = _open_request(game, request_id)
        if request.to_desk and actor.seat != request.asked_by_seat:
            raise GameChangeError.single("the event's desk answers this request", field="request")
        status = (
            ChangeRequest.Status.WITHDRAWN
            if actor.seat == request.asked_by_seat
            else ChangeRequest.Status.DECLINED
        )
        _close(request, status, actor)
        _audit(
            game,
            RoundEvent.Action.DECLINE,
            actor,
            number=request.round_number,
            after={"kind": request.kind, "status": status},
        )
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return RequestResult(request=request)


# --------------------------------------------------------------------------- the desk's word


REASON_LONGEST = 500


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
            raise GameChangeError.single("say which round and how it should read", field="round")
        _check_correct(game, number, entry)
    else:
        _check_request(game, kind, number, ending)


def desk_request_open(
    *,
    game: Game,
    kind: str,
    actor: Actor,
    revision: int | None,
    number: int | None = None,
    entry: Mapping[str, Any] | None = None,
    ending: Mapping[str, Any] | None = None,
) -> RequestResult:
    """At a closed event table, ask the event's desk to correct a round, undo the last one,
    end or reopen the game. Nothing changes until a director answers; the same request
    asked again is the same one. ``revision`` is the one the phone saw."""
    ending = dict(ending or {})
    entry = dict(entry) if isinstance(entry, Mapping) else None
    with transaction.atomic():
        game = _locked(game.pk)
        if not table_closed(game):
            raise GameChangeError.single(
                "this table is still playing: make the change at the table", field="kind"
            )
        _check_actor_seat(game, actor)
        _check_revision(game, revision, number)
        if kind == ChangeRequest.Kind.UNDO and number is None:
            number = _undo_target(game, None).number
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
                f"the desk is already asked to {waiting.get_kind_display().lower()}: "
                "it answers that first",
                field="kind",
            )
        request = ChangeRequest.objects.create(
            game=game,
            kind=kind,
            round_number=number,
            ending=ending,
            entry=entry,
            to_desk=True,
            revision=game.revision,
            asked_by_seat=actor.seat if actor.seat is not None else 0,
            asked_by_device=actor.device[:64],
            asked_by_user=actor.user_or_none,
        )
        after: dict[str, Any] = {"kind": kind, "to": "desk"}
        if ending:
            after["ending"] = ending
        if entry is not None:
            after["round"] = entry
        _audit(game, RoundEvent.Action.REQUEST, actor, number=number, after=after)
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
    reason = " ".join(reason.split())
    if not actor.desk:
        raise GameChangeError.single("only a director of the event answers", field="request")
    if not reason:
        raise GameChangeError.single("say why (the audit keeps it)", field="reason")
    if len(reason) > REASON_LONGEST:
        raise GameChangeError.single(
            f"the reason must be at most {REASON_LONGEST} characters", field="reason"
        )
    lapsed: GameChangeError | None = None
    with transaction.atomic():
        game = _locked(game.pk)
        request = _open_request(game, request_id)
        if not request.to_desk:
            raise GameChangeError.single("the table answers this request", field="request")
        _check_revision(game, revision, request.round_number)
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
        _audit(
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
            score = _apply_correct(game, request.round_number, request.entry, actor)
            game.rounds.filter(number=request.round_number).update(
                status=Round.Status.CONFIRMED, confirmed_at=timezone.now()
            )
        elif request.kind == ChangeRequest.Kind.UNDO:
            score = _apply_undo(game, request.round_number, actor)
        elif request.kind == ChangeRequest.Kind.END:
            score = _apply_end(game, request.ending, actor)
        else:
            score = _apply_reopen(game, actor)
    if lapsed is not None:
        raise GameChangeError.single(
            f"the game changed since this was asked, so nothing was done ({lapsed})",
            field="request",
        )
    return ChangeResult(game=game, score=score, round_number=request.round_number)
