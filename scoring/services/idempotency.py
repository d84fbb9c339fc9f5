"""Keyed requests: the answer kept for each, replayed to a retry, withdrawn when its round
goes, pruned after a day."""

from __future__ import annotations

import hashlib
import json
import time
from datetime import timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from common.compiled import HOLES, TEXT_HOLES, CompiledRead
from scoring.engines.base import N_
from scoring.models import Game, IdempotentRequest
from scoring.services.change import (
    ChangeResult,
    GameChangeError,
    IdempotencyKeyReused,
    RoundWithdrawn,
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
