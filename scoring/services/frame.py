"""The frame every change runs in: the game locked, the audit row, the projection kept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from common.compiled import HOLES, CompiledInsert, CompiledRead, CompiledUpdate
from scoring.engines.base import N_, CannotResume, GameRecord, InvalidRecord, ScoredGame, Step
from scoring.models import Game, IdempotentRequest, Round, RoundEvent
from scoring.selectors import game_record, game_record_head
from scoring.services.change import Actor, GameChangeError, NoSuchGame
from scoring.services.checks import REASON_LONGEST


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
