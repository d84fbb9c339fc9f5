"""Celery tasks of the tournaments app: thin, they take ids and call a service.

A large draft is published the same way (``tournament_round_publish_queue``), its tables' games
made a chunk at a time with the progress stored, then published in one step.

``tournament_round_generate_queue`` marks the event's generation as queued and sends the task
once the transaction commits; the task stores its progress on the event
(``Event.generation``) so the director's desk can show it, and is safe to run twice:
a round already generated for the queued number is left as it is.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from common.phrases import N_
from common.publish import publish
from tournaments.events import selectors, services
from tournaments.models import Event, TournamentRound
from tournaments.services.change import ActingUser

logger = logging.getLogger(__name__)

# From this many players in the next round, the round is seated (and published) by the
# background worker and the desk shows its progress.
BACKGROUND_FROM = 40


def tournament_round_generate_start(
    *,
    event: Event,
    user: ActingUser = None,
    go_on: bool = False,
    number: int | None = None,
    draft: int | None = None,
) -> TournamentRound | None:
    """Seat the next tournament round as a draft: at once, or for a large event (from
    ``BACKGROUND_FROM`` players) by a worker, the draft then None here. ``number`` and
    ``draft`` are the round and draft the desk's button was drawn for: refused when the
    rounds moved on since (``tournament_round_opened_check``)."""
    event.refresh_from_db()
    services.tournament_round_opened_check(event=event, number=number, draft=draft)
    if selectors.players_count(event=event) >= BACKGROUND_FROM:
        tournament_round_generate_queue(event=event, user=user, go_on=go_on)
        return None
    return services.tournament_round_generate(event=event, user=user, go_on=go_on)


def tournament_round_publish_start(
    *,
    event: Event,
    round: TournamentRound,
    user: ActingUser = None,
    go_on: bool = False,
    draft: int | None = None,
    checked: bool = False,
) -> bool:
    """Publish a draft: at once, or a large one (from ``BACKGROUND_FROM`` seats) by a
    worker; whether it went to the worker. With ``checked``, ``draft`` is the draft the
    desk's page showed: refused when it was seated again or published since."""
    if checked:
        event.refresh_from_db()
        services.tournament_round_opened_check(event=event, number=round.number, draft=draft)
    if selectors.seated_count(round=round) >= BACKGROUND_FROM and selectors.is_draft(round):
        tournament_round_publish_queue(event=event, round=round, user=user, go_on=go_on)
        return True
    services.tournament_round_publish(event=event, round=round, user=user, go_on=go_on)
    return False


def tournament_round_generate_queue(
    *, event: Event, user: ActingUser = None, effort: int = 1, go_on: bool = False
) -> Event:
    """Queue the next round's generation for a background worker (large events).

    Refused at once (not in the worker) while a table of the round before still plays
    and the director has not chosen to go on."""
    number = event.rounds.filter(status=TournamentRound.Status.PUBLISHED).count() + 1
    services.tournament_round_still_playing_check(event=event, number=number, go_on=go_on)
    with transaction.atomic():
        event_id, user_id = event.pk, getattr(user, "pk", None)
        event = services.tournament_round_generation_mark(
            event=event,
            state="queued",
            user=user,
            work="seat",
            round=number,
            user_id=user_id,
            effort=effort,
            go_on=go_on,
            done=0,
            total=3,
        )
        transaction.on_commit(
            lambda: _send(event_id, number, user_id=user_id, effort=effort, go_on=go_on)
        )
    return event


def _send(event_id: int, number: int, *, user_id: int | None, effort: int, go_on: bool) -> None:
    """Hand the generation to a worker; with the broker away, generate it here and now
    (seating a round takes well under a second even for a large event)."""
    if not publish(GENERATE_TASK, event_id, number, user_id=user_id, effort=effort, go_on=go_on):
        logger.warning("event %s: generating round %s in the request", event_id, number)
        tournament_round_generate_task(
            event_id, number, user_id=user_id, effort=effort, go_on=go_on
        )


GENERATE_TASK = "tournaments.round_generate"


@shared_task(
    name=GENERATE_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
)
def tournament_round_generate_task(
    event_id: int,
    number: int,
    *,
    user_id: int | None = None,
    effort: int = 1,
    go_on: bool = False,
) -> str:
    """Generate round ``number`` of event ``event_id`` as a draft, storing progress."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return "gone"
    if event.rounds.filter(number=number).exists() and event.generation.get("state") == "done":
        return "done"  # a redelivered message after the work was finished
    if event.generation.get("round") not in (None, number):
        # A message of an earlier job delivered late (a killed worker's, after the sweep
        # sent it again and the event moved on): it must not seat the round after.
        return "stale"
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None

    def progress(step: str, done: int, total: int) -> None:
        services.tournament_round_generation_mark(
            event=event, state="running", round=number, step=step, done=done, total=total
        )

    try:
        round_ = services.tournament_round_generate(
            event=event, user=user, effort=effort, progress=progress, go_on=go_on
        )
    except services.TournamentError as error:
        services.tournament_round_generation_mark(
            event=event,
            state="failed",
            user=user,
            round=number,
            message=str(error),
            problems=services.stored_problems(error.problems),
        )
        return "failed"
    except Exception:
        logger.exception("round %s of event %s could not be generated", number, event_id)
        services.tournament_round_generation_mark(
            event=event,
            state="failed",
            user=user,
            round=number,
            message=N_("the round could not be generated; try again"),
        )
        raise
    services.tournament_round_generation_mark(
        event=event, state="done", user=user, round=round_.number, done=3, total=3
    )
    return "done"


# --------------------------------------------------------------------------- publishing

PUBLISH_TASK = "tournaments.round_publish"
PUBLISH_CHUNK = 500  # tables given their games per transaction, between progress marks


def tournament_round_publish_queue(
    *, event: Event, round: TournamentRound, user: ActingUser = None, go_on: bool = False
) -> Event:
    """Queue a large draft's publishing for a background worker; the desk shows how far
    it got. Refused at once while tables still play and the director has not gone on."""
    services.tournament_round_still_playing_check(event=event, number=round.number, go_on=go_on)
    total = round.tables.count()
    with transaction.atomic():
        event_id, round_id, user_id = event.pk, round.pk, getattr(user, "pk", None)
        event = services.tournament_round_generation_mark(
            event=event,
            state="queued",
            user=user,
            round=round.number,
            work="publish",
            round_id=round_id,
            user_id=user_id,
            go_on=go_on,
            done=0,
            total=total,
        )
        transaction.on_commit(lambda: _send_publish(event_id, round_id, user_id, go_on))
    return event


def _send_publish(event_id: int, round_id: int, user_id: int | None, go_on: bool) -> None:
    if not publish(PUBLISH_TASK, event_id, round_id, user_id=user_id, go_on=go_on):
        logger.warning("event %s: publishing round %s in the request", event_id, round_id)
        tournament_round_publish_task(event_id, round_id, user_id=user_id, go_on=go_on)


@shared_task(name=PUBLISH_TASK, acks_late=True, reject_on_worker_lost=True)
def tournament_round_publish_task(
    event_id: int, round_id: int, *, user_id: int | None = None, go_on: bool = False
) -> str:
    """Publish draft ``round_id``: its tables' games made a chunk at a time (progress
    stored), then the round published in one step. Safe to run twice: tables that have
    their game keep it, and a published round is left as it is."""
    event = Event.objects.filter(pk=event_id).first()
    round_ = TournamentRound.objects.filter(pk=round_id, event_id=event_id).first()
    if event is None or round_ is None:
        return "gone"
    if round_.status == TournamentRound.Status.PUBLISHED:
        services.tournament_round_generation_mark(
            event=event, state="done", round=round_.number, work="publish"
        )
        return "done"
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    try:
        while True:
            done, total = services.tournament_round_publish_part(
                event=event, round=round_, user=user, go_on=go_on, most=PUBLISH_CHUNK
            )
            services.tournament_round_generation_mark(
                event=event,
                state="running",
                round=round_.number,
                work="publish",
                step=N_("making the tables' games"),
                done=done,
                total=total,
            )
            if done >= total:
                break
        services.tournament_round_publish(event=event, round=round_, user=user, go_on=go_on)
    except services.TournamentError as error:
        round_.refresh_from_db(fields=["status"])
        if round_.status == TournamentRound.Status.PUBLISHED:
            # A run sent again by the sweep met the first one's finished work.
            services.tournament_round_generation_mark(
                event=event, state="done", round=round_.number, work="publish"
            )
            return "done"
        services.tournament_round_generation_mark(
            event=event,
            state="failed",
            user=user,
            round=round_.number,
            work="publish",
            message=str(error),
            problems=services.stored_problems(error.problems),
        )
        return "failed"
    services.tournament_round_generation_mark(
        event=event,
        state="done",
        user=user,
        round=round_.number,
        work="publish",
        done=round_.tables.count(),
        total=round_.tables.count(),
    )
    return "done"


# --------------------------------------------------------------------------- never stuck

SWEEP_TASK = "tournaments.background_sweep"


def _send_again(event: Event) -> None:
    job = event.generation
    if job.get("work") == "publish":
        _send_publish(event.pk, int(job["round_id"]), job.get("user_id"), bool(job.get("go_on")))
    else:
        _send(
            event.pk,
            int(job["round"]),
            user_id=job.get("user_id"),
            effort=int(job.get("effort", 1)),
            go_on=bool(job.get("go_on")),
        )


@shared_task(name=SWEEP_TASK, ignore_result=True)
def background_sweep_task() -> int:
    """Send again every seating or publishing whose progress has not moved for
    BACKGROUND_STALL_SECONDS (a lost message, a killed worker); sent by Celery beat."""
    stalled = services.background_jobs_stalled(
        stall_seconds=settings.BACKGROUND_STALL_SECONDS,
        most_restarts=settings.BACKGROUND_RESTARTS,
    )
    for event in stalled:
        logger.warning("event %s: %s sent again", event.pk, event.generation.get("work"))
        _send_again(event)
    return len(stalled)


def background_job_restart(
    *,
    event: Event,
    user: ActingUser = None,
    number: int | None = None,
    work: str | None = None,
) -> Event:
    """The desk starts a stuck seating or publishing again, at once (``number`` and
    ``work``: the job its button was drawn for)."""
    event = services.background_job_restart(event=event, user=user, number=number, work=work)
    transaction.on_commit(lambda: _send_again(event))
    return event
