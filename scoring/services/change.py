"""The frame of every change: who makes it, its errors, the lock, audit, projection, idempotency."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Self

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.module_loading import import_string

from common.compiled import HOLES, TEXT_HOLES, CompiledInsert, CompiledRead, CompiledUpdate
from scoring.engines.base import (
    N_,
    CannotResume,
    GameRecord,
    InvalidRecord,
    Phrase,
    Problem,
    ScoredGame,
    Step,
)
from scoring.models import (
    Confirmation,
    Game,
    IdempotentRequest,
    Round,
    RoundEvent,
)
from scoring.selectors import (
    another_phone_confirms,
    game_record,
    game_record_head,
    seat_count,
    seat_holder,
    table_closed,
)


@dataclass(frozen=True)
class Actor:
    """Who makes a change: the seat a phone says it is, the device, the signed-in user."""

    seat: int | None = None
    device: str = ""
    # The request's user (anonymous at most tables), or None where no request is.
    user: User | AnonymousUser | None = None
    # A director of the game's event, at the event's desk: the caller checked who may
    # direct the event. Only the desk changes a closed event table.
    desk: bool = False
    # The player proven to hold ``seat`` by their own link (their name), not a seat only
    # said on the phone: the caller checked the proof (``scoring.selectors.seat_person``).
    person: str = ""

    @property
    def user_or_none(self) -> User | None:
        """The signed-in user, kept on the rows the change writes; None for anyone else."""
        user = self.user
        if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
            return None
        return user


# Words a message names a request or a withdrawn round by (as the model's values say them).
ASKED_KINDS = {
    "undo": N_("undo the last round"),
    "end": N_("end the game"),
    "reopen": N_("reopen the game"),
    "correct": N_("correct a round"),
}
ANSWERED_STATUSES = {
    "open": N_("waiting for the other side"),
    "accepted": N_("accepted"),
    "declined": N_("declined"),
    "withdrawn": N_("withdrawn"),
    "lapsed": N_("no longer possible"),
}
WITHDRAWN_HOW = {"undone": N_("undone"), "corrected": N_("corrected")}


def asked_kind(kind: str) -> Phrase:
    return Phrase(ASKED_KINDS.get(kind, kind))


def answered_status(status: str) -> Phrase:
    return Phrase(ANSWERED_STATUSES.get(status, status))


class GameChangeError(Exception):
    """A change the rules or the state of the game refuse; carries user-facing problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))

    @classmethod
    def single(
        cls,
        template: str,
        *,
        round_number: int | None = None,
        field: str | None = None,
        **values: Any,
    ) -> Self:
        """One problem: ``template`` marked with ``N_``, filled with ``values`` for each
        reader (see scoring.engines.base)."""
        return cls([Problem(template, round_number, field, values)])


class RoundConflict(GameChangeError):
    """Another phone recorded this round number first."""

    def __init__(self, recorded: Round):
        self.recorded = recorded
        super().__init__(
            [
                Problem(
                    N_("round {number} was already recorded"),
                    recorded.number,
                    "number",
                    {"number": recorded.number},
                )
            ]
        )


class IdempotencyKeyReused(GameChangeError):
    pass


class SeatNotSaid(GameChangeError):
    """A change that needs to know which seat makes it (who enters a round decides who
    confirms it; a confirmation or an agreement is a seat's), made by no seat in
    particular: nothing was done. A phone's page asks who holds it."""


class NotTheNextRound(GameChangeError):
    """A round numbered neither the next one nor one recorded (0, past the next):
    ``expected`` is the next one's number. Nothing was done."""

    def __init__(self, number: int, expected: int):
        self.expected = expected
        super().__init__(
            [
                Problem(
                    N_("the next round is round {expected}"),
                    number,
                    "number",
                    {"expected": expected},
                )
            ],
        )


class NoSuchGame(GameChangeError):
    """The game to change is not there (deleted since the caller found it)."""


STALE_MESSAGE = N_(
    "the game changed since you opened it: here is what is there now; make your change again"
)


class StaleRevision(GameChangeError):
    """A change made against a revision the game has moved past: nothing was done.

    ``current`` is the revision there now, ``now`` the round the change was about as it
    stands (None: none there, or no round named); the page (or the API's 409) shows the
    game as it stands, and the change can be made again from there.
    """

    def __init__(
        self,
        game: Game,
        *,
        made_against: int | None,
        round_number: int | None = None,
        now: Round | None = None,
    ):
        self.current = game.revision
        self.now = now
        self.made_against = made_against
        super().__init__([Problem(STALE_MESSAGE, round_number, "revision")])


class RoundWithdrawn(StaleRevision):
    """A retry of a keyed request whose round was undone (or corrected) since its first
    answer: nothing is stored again, so that a late retry never reverses another phone's
    undo. ``how`` is "undone" or "corrected"; ``current`` the game's revision now;
    ``now`` the round of that number as it stands (None: none there), and
    ``enter_again`` whether that round is the next one to enter again (undone, and nothing
    recorded after)."""

    def __init__(self, game: Game, *, number: int, how: str, now: Round | None = None):
        super().__init__(game, made_against=None, round_number=number, now=now)
        self.how = how
        self.number = number
        self.enter_again = how == "undone" and now is None and number == game.last_round_number + 1
        self.problems = [
            Problem(
                N_(
                    "round {number} was {how} since this request was first answered: it was "
                    "not stored again; here is what is there now; enter it again if it still "
                    "stands"
                ),
                number,
                "number",
                {"number": number, "how": Phrase(WITHDRAWN_HOW.get(how, how))},
            )
        ]
        self.args = ("; ".join(str(p) for p in self.problems),)


class LaterDealsBreak(GameChangeError):
    """A change of deal ``number`` (a correction; or, with ``removing``, its removal) that
    would change how the game ended: deal ``later`` no longer stands (None: the ending no
    longer fits). Nothing was done. The desk may make it with the deals after ``kept`` (the
    last one that stands) removed: the game ended there, or going on from there; ``ends``
    says whether the game ends there by itself (both then come to the same)."""

    def __init__(
        self,
        problems: list[Problem],
        *,
        number: int,
        kept: int,
        later: int | None,
        ends: bool,
        removing: bool = False,
    ):
        self.number = number
        self.kept = kept
        self.later = later
        self.ends = ends
        self.removing = removing
        super().__init__(problems)


class TableClosed(GameChangeError):
    """An event table whose game is over: only the event's desk changes it now.

    The table asks the desk instead (``desk_request_open``).
    """

    def __init__(self, round_number: int | None = None, *, by_desk: bool = False):
        why = (
            N_("the event's desk decided this table's match")
            if by_desk
            else N_("this event table's game is over")
        )
        super().__init__(
            [
                Problem(
                    N_("{why}: a change now goes to the event's desk"),
                    round_number,
                    "table",
                    {"why": Phrase(why)},
                )
            ]
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
    # That round's row as stored.
    row: Round | None = None

    def payload(self) -> dict[str, Any]:
        return {"number": self.round_number, "score": self.score}


def default_confirmation(*, is_tournament_game: bool) -> str:
    return Confirmation.OTHER_SIDE if is_tournament_game else Confirmation.OFF


def score_or_raise(game: Game, record: GameRecord) -> ScoredGame:
    try:
        return game.engine.score(record)
    except InvalidRecord as invalid:
        raise GameChangeError(invalid.problems) from None


PROJECTION_FIELDS = [
    "score_cache",
    "engine_state",
    "last_round_number",
    "revision",
    "status",
    "ending",
    "updated_at",
]


def save_projection(game: Game, scored: ScoredGame) -> dict[str, Any]:
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
    game.last_round_number = len(results)
    set_standing(game, scored.standing(), scored.state)
    SAVE_PROJECTION.save(game)
    return scored.as_dict()


# The writes every change makes, built once (see common.compiled).
SAVE_PROJECTION = CompiledUpdate(Game, PROJECTION_FIELDS)
NEW_ROUND = CompiledInsert(Round)
NEW_EVENT = CompiledInsert(RoundEvent)
NEW_KEYED_ANSWER = CompiledInsert(IdempotentRequest)


def set_standing(game: Game, standing: dict[str, Any], state: dict[str, Any] | None) -> None:
    """The standing and the engine's state on ``game``, a new revision; saved by the caller."""
    game.score_cache = standing
    game.engine_state = state
    game.revision += 1
    game.status = Game.Status.FINISHED if standing.get("finished") else Game.Status.IN_PROGRESS


def score_round(
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
        except CannotResume:
            pass  # a state the engine cannot resume: rescore the whole game below
    record = game_record(game)
    scored = score_or_raise(game, record.with_rounds([*record.rounds, entry]))
    return Step(
        round=scored.rounds[-1], standing=scored.standing(), state=scored.state or {}
    ), scored


# Every change reads its game locked, by its id (built once: see common.compiled).
LOCKED_GAME = CompiledRead(
    lambda game_id: Game.objects.select_for_update().filter(pk=game_id).order_by()[:1], HOLES[:1]
)


def locked(game_id: int) -> Game:
    game = LOCKED_GAME.first(game_id)
    if game is None:
        raise NoSuchGame.single(N_("no such game"), field="game")
    return game


def announce_change(game: Game) -> None:
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


def audit_event(
    game: Game,
    action: str,
    actor: Actor,
    *,
    number: int | None = None,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> RoundEvent:
    """The audit trail's row for a change, to be written with it; the writer then calls
    ``announce_change`` (``audit`` does both)."""
    return RoundEvent(
        game=game,
        round_number=number,
        action=action,
        seat=actor.seat,
        device=actor.device[:64],
        user=actor.user_or_none,
        person=actor.person[:40] if actor.seat is not None else "",
        before=before,
        after=after,
        reason=reason[:REASON_LONGEST],
    )


def audit(game: Game, action: str, actor: Actor, **what: Any) -> None:
    """Write the audit trail's row for a change (``what``: as ``audit_event`` takes it),
    and tell of the change after commit."""
    NEW_EVENT.insert(audit_event(game, action, actor, **what))
    announce_change(game)


REASON_LONGEST = 500


def checked_reason(reason: str, *, required: bool = True, field: str = "reason") -> str:
    """A reason as kept (its spaces tidied), or the refusal naming ``field``: required for
    a director's change of a result, at most ``REASON_LONGEST`` characters."""
    tidy = " ".join(str(reason or "").split())
    if required and not tidy:
        raise GameChangeError.single(N_("say why (the audit keeps it)"), field=field)
    if len(tidy) > REASON_LONGEST:
        raise GameChangeError.single(
            N_("the reason must be at most {longest} characters"),
            field=field,
            longest=REASON_LONGEST,
        )
    return tidy


def check_desk(actor: Actor) -> None:
    if not actor.desk:
        raise GameChangeError.single(
            N_("only a director of the event makes this change"), field="table"
        )


def check_actor_seat(game: Game, actor: Actor) -> None:
    if actor.seat is not None and not 0 <= actor.seat < seat_count(game):
        raise GameChangeError.single(N_("that seat is not at this table"), field="seat")
    check_seat_held(game, actor)


def check_seat_held(game: Game, actor: Actor) -> None:
    """At an event table, a seat its player opened from their own link is theirs: no
    other phone enters or confirms for it (the desk may), and the holding phone only while
    its link proves it (a reissued link proves nothing)."""
    if actor.seat is None or actor.desk or not game.is_tournament_game:
        return
    holder = seat_holder(game, actor.seat)
    if holder is None:
        return
    if holder[0] != actor.device[:64]:
        raise GameChangeError.single(
            N_(
                "{player} holds this seat from their own link: "
                "they enter and confirm on their own phone"
            ),
            field="seat",
            player=holder[1],
        )
    if not actor.person:  # the holding phone, whose link was reissued since
        raise GameChangeError.single(
            N_(
                "the link this phone holds {player}'s seat by is no longer valid: "
                "open the table again from your own link"
            ),
            field="seat",
            player=holder[1],
        )


def check_entering_seat(game: Game, actor: Actor, number: int) -> None:
    """With confirmation on, who entered a round decides who may confirm it: say who."""
    check_actor_seat(game, actor)
    if game.confirmation != Confirmation.OFF and actor.seat is None:
        raise SeatNotSaid.single(
            N_("say which player is entering this round: another side confirms it"),
            round_number=number,
            field="seat",
        )


def check_revision(game: Game, revision: int | None, number: int | None = None) -> None:
    """Refuse a change made against another revision than the game's (None: not checked,
    for a caller that checked it itself)."""
    if revision is not None and revision != game.revision:
        now = game.rounds.filter(number=number).first() if number is not None else None
        raise StaleRevision(game, made_against=revision, round_number=number, now=now)


def check_open(game: Game, actor: Actor, number: int | None = None) -> None:
    """A closed event table is changed by its event's desk alone."""
    if not actor.desk and table_closed(game):
        raise TableClosed(number, by_desk=game.closed_by_desk)


def same_phone(game: Game, actor: Actor, device: str, number: int | None) -> bool:
    """At an event table another phone confirms (or agrees) than the one that entered (or
    asked), unless the event hands one phone over: then True, for the audit to say so."""
    if actor.desk or not game.is_tournament_game or not device or actor.device != device:
        return False
    if not another_phone_confirms(game, actor.device, device):
        return True
    raise GameChangeError.single(
        N_("confirm on a phone of the other side, not the phone that entered it"),
        round_number=number,
        field="seat",
    )


def _fingerprint(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _keyed_answer(game_id: int, key: str) -> QuerySet[IdempotentRequest]:
    return IdempotentRequest.objects.filter(game_id=game_id, key=key).order_by("pk")[:1]


# The answer kept for a game's idempotency key (built once: see common.compiled).
KEYED_ANSWER = CompiledRead(_keyed_answer, (HOLES[0], TEXT_HOLES[0]))


def check_idempotency_key(key: str | None) -> None:
    if key and (len(key) > 128 or not key.isprintable()):
        raise GameChangeError.single(
            N_("the idempotency key must be up to 128 printable characters"),
            field="idempotency_key",
        )


def replay_of(game: Game, key: str | None, request: Any) -> ChangeResult | None:
    if not key:  # (a key given was checked when its change began)
        return None
    stored = KEYED_ANSWER.first(game.pk, key)
    if stored is None:
        return None
    if stored.fingerprint != _fingerprint(request):
        raise IdempotencyKeyReused.single(
            N_("this idempotency key was already used for a different request"),
            field="idempotency_key",
        )
    answer = stored.response
    number = answer.get("number")
    if answer.get("withdrawn") and isinstance(number, int):
        now = game.rounds.filter(number=number).first()
        raise RoundWithdrawn(game, number=number, how=str(answer["withdrawn"]), now=now)
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


def withdraw_keyed_answers(game: Game, number: int, how: str) -> None:
    """Round ``number`` was undone or corrected (``how``): the answers kept for the keyed
    requests that stored it become tombstones, so that a retry of one of them is told
    (``RoundWithdrawn``, a 409 with what is there now) instead of storing the round again
    or being told the old round still stands. Written with the change."""
    IdempotentRequest.objects.filter(game=game, response__number=number).exclude(
        response__has_key="withdrawn"
    ).update(response={"number": number, "withdrawn": how})


IDEMPOTENCY_KEPT = timedelta(days=1)
PRUNE_EVERY_SECONDS = 60.0
_last_prune = 0.0


def answer_to_keep(
    game: Game, key: str | None, request: Any, result: ChangeResult
) -> IdempotentRequest | None:
    """The answer to a keyed request (None without a key), small: the round and the
    standing after it, to be written with its change; old answers are pruned after
    commit (``prune_idempotent_requests``)."""
    if not key:
        return None
    return IdempotentRequest(
        game=game,
        key=key[:128],
        fingerprint=_fingerprint(request),
        response={"number": result.round_number, "round": result.round, "standing": result.score},
    )


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
