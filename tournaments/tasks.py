"""Celery tasks of the tournaments app: thin, they take ids and call a service.

``round_generate_queue`` marks the event's generation as queued and sends the task
once the transaction commits; the task stores its progress on the event
(``Event.generation``) so the director's desk can show it, and is safe to run twice:
a round already generated for the queued number is left as it is.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import transaction

from common.publish import publish
from tournaments.events import services
from tournaments.models import Event, TournamentRound

logger = logging.getLogger(__name__)


def round_generate_queue(*, event: Event, user: Any = None, effort: int = 1) -> Event:
    """Queue the next round's generation for a background worker (large events)."""
    number = event.rounds.filter(status=TournamentRound.Status.PUBLISHED).count() + 1
    with transaction.atomic():
        event = services.round_generation_mark(
            event=event, state="queued", user=user, round=number, done=0, total=3
        )
        event_id, user_id = event.pk, getattr(user, "pk", None)
        transaction.on_commit(lambda: _send(event_id, number, user_id=user_id, effort=effort))
    return event


def _send(event_id: int, number: int, *, user_id: int | None, effort: int) -> None:
    """Hand the generation to a worker; with the broker away, generate it here and now
    (seating a round takes well under a second even for a large event)."""
    if not publish(GENERATE_TASK, event_id, number, user_id=user_id, effort=effort):
        logger.warning("event %s: generating round %s in the request", event_id, number)
        round_generate_task(event_id, number, user_id=user_id, effort=effort)


GENERATE_TASK = "tournaments.round_generate"


@shared_task(
    name=GENERATE_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
)
def round_generate_task(
    event_id: int, number: int, *, user_id: int | None = None, effort: int = 1
) -> str:
    """Generate round ``number`` of event ``event_id`` as a draft, storing progress."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return "gone"
    if event.rounds.filter(number=number).exists() and event.generation.get("state") == "done":
        return "done"  # a redelivered message after the work was finished
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None

    def progress(step: str, done: int, total: int) -> None:
        services.round_generation_mark(
            event=event, state="running", round=number, step=step, done=done, total=total
        )

    try:
        round_ = services.round_generate(event=event, user=user, effort=effort, progress=progress)
    except services.TournamentError as error:
        services.round_generation_mark(
            event=event, state="failed", user=user, round=number, message=str(error)
        )
        return "failed"
    except Exception:
        logger.exception("round %s of event %s could not be generated", number, event_id)
        services.round_generation_mark(
            event=event,
            state="failed",
            user=user,
            round=number,
            message="the round could not be generated; try again",
        )
        raise
    services.round_generation_mark(
        event=event, state="done", user=user, round=round_.number, done=3, total=3
    )
    return "done"
