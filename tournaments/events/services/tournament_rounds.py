"""Tournament rounds: seated as a draft, swapped, published as table games and taken back."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

from common.phrases import N_, Phrase
from scoring.engines.base import Problem
from scoring.models import Game
from tournaments.club import rated_seating as season_seating
from tournaments.errors import TournamentError
from tournaments.events import availability
from tournaments.events.selectors import published_rounds_count
from tournaments.events.services.entrants import entrant_of, two_chosen
from tournaments.events.services.seating_writes import seating_plan_save
from tournaments.models import (
    Absence,
    Bye,
    Entrant,
    Event,
    Table,
    TableSeat,
    TournamentRound,
)
from tournaments.seating import adapter as seating
from tournaments.seating.core import SchedulingError
from tournaments.seating.core.words import SWAPPED_ENDING
from tournaments.services.change import (
    ActingUser,
    bump,
    event_locked,
    event_locked_open,
    event_log,
    refuse_closed,
)
from tournaments.standings import adapter as results
from tournaments.standings.core import InvalidResults


class StillPlayingError(TournamentError):
    """Tables of an earlier round still play: the director is shown who, and may go on."""

    def __init__(
        self,
        template: str,
        tables: Sequence[availability.StillPlaying],
        number: int,
        **values: Any,
    ):
        super().__init__([Problem(template, number, "go_on", values)])
        self.tables = list(tables)


def tournament_round_still_playing_check(*, event: Event, number: int, go_on: bool) -> None:
    """Refuse round ``number`` while a table of an earlier round still plays, unless the
    director goes on (its players are then left out of the draft)."""
    still = [t for t in availability.tables_still_playing(event) if t.round_number < number]
    if still and not go_on:
        players = sum(len(t.entrant_ids) for t in still)
        raise StillPlayingError(
            (
                N_(
                    "{count} table of the round before still plays ({players} players): "
                    "wait for them, or go on without them"
                )
                if len(still) == 1
                else N_(
                    "{count} tables of the round before still play ({players} players): "
                    "wait for them, or go on without them"
                )
            ),
            still,
            number,
            count=len(still),
            players=players,
        )


def _changed(number: int, why: str, **values: Any) -> TournamentError:
    """``why``: a template marked with ``N_``, filled with ``values``."""
    return TournamentError.single(
        N_("Round {number} changed since you opened it: {why}"),
        field="round",
        round_number=number,
        number=number,
        why=Phrase(why, values),
    )


def tournament_round_opened_check(*, event: Event, number: int | None, draft: int | None) -> None:
    """Refuse a desk button drawn for a state of the rounds that has moved on.

    ``number`` is the round the button named and ``draft`` the id of the draft it showed
    (None: none). Seating round 3 "again" once round 3 is published would seat round 4;
    publishing or swapping in a draft seated again since would act on tables nobody
    looked at. Nothing is checked when the button named no round (an older page)."""
    if number is None:
        return
    rounds = list(event.rounds.order_by("number").values_list("number", "status", "pk"))
    published = sum(1 for _, status, _ in rounds if status == TournamentRound.Status.PUBLISHED)
    now_next = published + 1
    drafts = [
        pk for n, status, pk in rounds if status == TournamentRound.Status.DRAFT and n == number
    ]
    now_draft = drafts[0] if drafts else None
    if number < now_next:
        if now_next > event.rounds_planned:
            raise _changed(number, N_("it is published, and so is every round of the event"))
        raise _changed(
            number, N_("it is published, and round {next} is next. Look again"), next=now_next
        )
    if number > now_next:
        raise _changed(
            number, N_("round {next} was taken back to a draft. Look again"), next=now_next
        )
    job = event.generation or {}
    if job.get("state") in ("queued", "running") and job.get("round") == number:
        if job.get("work") == "publish":
            raise _changed(number, N_("it is being published in the background. Wait for it"))
        raise _changed(number, N_("it is being seated in the background. Wait for it"))
    if now_draft != draft:
        if draft is None:
            raise _changed(number, N_("a draft of it was seated meanwhile. Review it first"))
        if now_draft is None:
            raise _changed(number, N_("its draft is gone. Look again"))
        raise _changed(number, N_("it was seated again meanwhile. Review the new draft first"))


def _absences_save(round_: TournamentRound, available: availability.Availability) -> None:
    """Record the draft's absent players (the draft holds none yet)."""
    Absence.objects.bulk_create(
        [Absence(round=round_, entrant=e, reason=Absence.Reason.AWAY) for e in available.away]
        + [
            Absence(round=round_, entrant=e, reason=Absence.Reason.PLAYING)
            for e in available.playing
        ]
    )


def _winners(event: Event) -> dict[int, frozenset[int]]:
    """Each played round's table winners (first place), for progressive movement."""
    won: dict[int, set[int]] = {}
    for rnd in results.event_results(event).rounds:
        for table in rnd.tables:
            won.setdefault(rnd.number, set()).update(
                s.entrant for s in table.seats if s.place == 1 and table.confirmed
            )
    return {n: frozenset(ids) for n, ids in won.items()}


def _standings_order(event: Event) -> tuple[list[int], dict[int, float]]:
    """The standings' entrant ids, best first, and each one's points on the first metric
    (what swiss keeps together at a table)."""
    try:
        standings = results.event_standings(event)
    except InvalidResults as invalid:
        raise TournamentError(invalid.problems) from None
    first = standings.metrics[0] if standings.metrics else None
    scores = {
        row.entrant: float(value)
        for row in standings.rows
        if first is not None and (value := row.values.get(first)) is not None
    }
    return [row.entrant for row in standings.rows], scores


Progress = Callable[[str, int, int], None]


def tournament_round_generate(
    *,
    event: Event,
    user: ActingUser = None,
    effort: int = 1,
    progress: Progress | None = None,
    go_on: bool = False,
) -> TournamentRound:
    """Seat the next round as a draft (replacing an earlier draft), with the core's report.

    Only the players available are seated (``tournaments.events.availability``); those
    away are recorded as absent. Swiss and progressive events need every table of the
    rounds so far to be done; other formats refuse while a table still plays unless
    ``go_on``, and then leave its players out.
    ``progress(step, done, total)`` is told how far it got (the background task stores it).
    """
    report = progress or (lambda step, done, total: None)
    report("loading", 1, 3)
    event = Event.objects.get(pk=event.pk)
    refuse_closed(event)
    number = published_rounds_count(event=event) + 1
    if number > event.rounds_planned:
        raise TournamentError.single(
            N_("all {count} rounds are published"),
            field="rounds_planned",
            count=event.rounds_planned,
        )
    if event.format in (Event.Format.SWISS, Event.Format.PROGRESSIVE):
        waiting = [r for r in results.table_rows(event) if not r.finished or r.pending]
        if waiting:
            raise TournamentError.single(
                (
                    N_(
                        "{count} tables of the rounds so far are not done, and a Swiss round "
                        "is seated from the results"
                    )
                    if event.format == Event.Format.SWISS
                    else N_(
                        "{count} tables of the rounds so far are not done, and a progressive "
                        "round is seated from the results"
                    )
                ),
                field="round",
                round_number=number,
                count=len(waiting),
            )
    tournament_round_still_playing_check(event=event, number=number, go_on=go_on)
    standings, scores = _standings_order(event) if event.format == Event.Format.SWISS else ([], {})
    if number == 1 and standings:
        standings = season_seating.rating_order(event)  # Swiss round 1: seeded by rating
        scores = {}
    winners = _winners(event) if event.format == Event.Format.PROGRESSIVE else {}
    # Read once for both (10,000 of them at most), only what availability and seating read.
    everyone = list(
        event.entrants.only(
            "pk", "event_id", "name", "checked_in", "joined_round", "dropped", "fixed_table",
            "members",
        )
    )  # fmt: skip
    available = availability.availability_for(
        event, number=number, entrants=everyone, leave_out_playing=go_on
    )
    inputs = seating.seating_inputs(
        event,
        number=number,
        standings=standings,
        scores=scores,
        winners=winners,
        effort=effort,
        seated=available.seated_ids,
        entrants=everyone,
    )
    if len(inputs.request.entrants) < 2:
        raise TournamentError.single(
            N_("at least two players are needed to seat a round"),
            field="entrants",
            round_number=number,
        )
    report("seating", 2, 3)
    # The core runs outside the transaction: the event stays unlocked meanwhile, and a
    # change that slips in is caught below.
    try:
        plan = seating.plan_for(inputs)
    except SchedulingError as error:
        raise TournamentError([replace(seating.refusal(error), round=number)]) from None
    plan = season_seating.balance_plan(event, inputs, plan)
    report("saving", 3, 3)
    with transaction.atomic():
        event = event_locked_open(event)
        if published_rounds_count(event=event) + 1 != number:
            raise TournamentError.single(
                N_("a round was published meanwhile: generate again"), field="round"
            )
        replaced = event.rounds.filter(number=number, status=TournamentRound.Status.DRAFT)
        replaced_draft = replaced.exists()
        # Games prepared for a large draft's publishing go with it.
        prepared = list(
            Table.objects.filter(round__in=replaced, game__isnull=False).values_list(
                "game_id", flat=True
            )
        )
        replaced.delete()
        Game.objects.filter(pk__in=prepared).delete()
        round_ = TournamentRound.objects.create(event=event, number=number)
        seating_plan_save(round_=round_, plan=plan)
        _absences_save(round_, available)
        if season_seating.slot_strength(event):
            round_.report = {
                **round_.report,
                "table_means": season_seating.mean_ratings(event, plan),
            }
            round_.save(update_fields=["report"])
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status", "updated_at"])
        event_log(
            event,
            "round_generate",
            user,
            after={
                "round": number,
                "replaced_draft": replaced_draft,
                "report": round_.report,
                "away": [e.pk for e in available.away],
                "still_playing": [e.pk for e in available.playing],
            },
        )
        bump(event)  # the desk's rounds box follows a draft seated in another tab
    return round_


def tournament_round_generation_mark(
    *, event: Event, state: str, user: ActingUser = None, **details: Any
) -> Event:
    """Store how far the next round's background generation (or publishing) got, for the
    desk to show and the sweep to watch.

    ``state``: queued, running, done or failed. Queuing a second one while one is
    queued or running is refused. A mark after ``queued`` keeps what the queue stored
    (what to send again) and adds its own details; every mark says when (``at``), so a
    job whose progress stops is seen (``background_jobs_stalled``).
    """
    with transaction.atomic():
        event = event_locked(event)
        if state == "queued":
            refuse_closed(event)
            if event.generation.get("state") in ("queued", "running"):
                raise TournamentError.single(
                    N_("a round is already being generated"), field="round"
                )
            kept: dict[str, Any] = {}
        else:
            kept = {k: v for k, v in event.generation.items() if k in BACKGROUND_JOB_KEYS}
        event.generation = {**kept, **details, "state": state, "at": time.time()}
        event.save(update_fields=["generation", "updated_at"])
        if state in ("queued", "done", "failed"):
            event_log(event, f"round_generation_{state}", user, after=event.generation)
        bump(event)
    return event


# What the queue stores of a background job, kept by later marks: enough to send it again.
BACKGROUND_JOB_KEYS = ("work", "round", "round_id", "user_id", "effort", "go_on", "restarts")
GONE_QUIET = N_("the worker stopped before it finished; start it again")


def background_jobs_stalled(*, stall_seconds: float, most_restarts: int) -> list[Event]:
    """Events whose background seating or publishing has not moved for ``stall_seconds``
    (its message was lost, or its worker died): each marked as sent again (``restarts``
    counted), or failed with a message once ``most_restarts`` are spent. The events to
    send again are returned; sending twice is harmless (a draft is seated again in place
    of the first, a published table keeps its game)."""
    cutoff = time.time() - stall_seconds
    again: list[Event] = []
    waiting = Event.objects.filter(generation__state__in=["queued", "running"]).only("pk")
    for candidate in waiting:
        with transaction.atomic():
            event = event_locked(candidate)
            job = event.generation
            if job.get("state") not in ("queued", "running") or float(job.get("at", 0)) > cutoff:
                continue
            restarts = int(job.get("restarts", 0))
            if restarts >= most_restarts:
                event.generation = {**job, "state": "failed", "message": GONE_QUIET}
                event_log(event, "round_generation_failed", None, after=event.generation)
            else:
                event.generation = {**job, "restarts": restarts + 1, "at": time.time()}
                event_log(event, "round_generation_restarted", None, after=event.generation)
                again.append(event)
            event.save(update_fields=["generation", "updated_at"])
            bump(event)
    return again


RESTART_MOVED = (  # why a restart drawn for another job is refused: seating, publishing
    N_("round {now} is being seated now. Look again"),
    N_("round {now} is being published now. Look again"),
)


def background_job_restart(
    *,
    event: Event,
    user: ActingUser = None,
    number: int | None = None,
    work: str | None = None,
) -> Event:
    """Mark a background job seen stuck on the desk as sent again now (the caller sends it);
    refused when none is under way, or when it is not the job (``number``, ``work``) named."""
    with transaction.atomic():
        event = event_locked(event)
        job = event.generation
        under_way = job.get("state") in ("queued", "running")
        if number is not None and not under_way:
            raise _changed(number, N_("nothing is being seated or published now. Look again"))
        now, doing = job.get("round"), str(job.get("work", "seat"))
        if number is not None and (now != number or work not in (None, doing)):
            raise _changed(number, RESTART_MOVED[doing == "publish"], now=now)
        if not under_way:
            raise TournamentError.single(N_("nothing is being seated or published"), field="round")
        event.generation = {**job, "restarts": int(job.get("restarts", 0)) + 1, "at": time.time()}
        event.save(update_fields=["generation", "updated_at"])
        event_log(event, "round_generation_restarted", user, after=event.generation)
        bump(event)
    return event


def tournament_round_locked(event: Event, round_: TournamentRound, status: str) -> TournamentRound:
    """The round, locked for the change, refused unless it is in this event and ``status``."""
    found = TournamentRound.objects.select_for_update().filter(pk=round_.pk, event=event).first()
    if found is None:
        raise TournamentError.single(N_("that round is not in this event"), field="round")
    if found.status != status:
        raise TournamentError.single(
            (
                N_("round {number} is a draft")
                if found.status == TournamentRound.Status.DRAFT
                else N_("round {number} is published")
            ),
            field="round",
            round_number=found.number,
            number=found.number,
        )
    return found


@dataclass(frozen=True)
class SwapResult:
    """A swap in a draft: the report before and after, for the director to compare."""

    round: TournamentRound
    before: dict[str, Any]
    after: dict[str, Any]
    first: str = ""  # the names of the two players swapped
    second: str = ""

    @property
    def cost_change(self) -> int:
        return int(self.after["cost"]) - int(self.before["cost"])


def tournament_round_swap(
    *,
    event: Event,
    round: TournamentRound,
    first: Entrant | None,
    second: Entrant | None,
    user: ActingUser = None,
) -> SwapResult:
    """Swap two players' places (seats or byes) in a draft; the report is recomputed."""
    first, second = two_chosen(first, second)
    with transaction.atomic():
        event = event_locked_open(event)
        round_ = tournament_round_locked(event, round, TournamentRound.Status.DRAFT)
        first, second = entrant_of(event, first), entrant_of(event, second)
        if first.pk == second.pk:
            raise TournamentError.single(N_("choose two different players"), field="second")
        if len(first.members) != len(second.members):
            raise TournamentError.single(
                N_("a team swaps only with a team of as many members"), field="second"
            )
        places: dict[int, list[Any]] = {first.pk: [], second.pk: []}
        for seat in TableSeat.objects.filter(table__round=round_, entrant__in=places):
            places[seat.entrant_id].append(seat)
        byes = {b.entrant_id: b for b in Bye.objects.filter(round=round_, entrant__in=places)}
        for entrant in (first, second):
            if not places[entrant.pk] and entrant.pk not in byes:
                raise TournamentError.single(
                    N_("{name} is not in this round"),
                    field="entrant",
                    round_number=round_.number,
                    name=entrant.name,
                )
        before = dict(round_.report)
        for seat in (*places[first.pk], *places[second.pk]):
            seat.entrant_id = second.pk if seat.entrant_id == first.pk else first.pk
        TableSeat.objects.bulk_update([*places[first.pk], *places[second.pk]], ["entrant"])
        for bye in byes.values():
            bye.entrant_id = second.pk if bye.entrant_id == first.pk else first.pk
            bye.save(update_fields=["entrant"])
        tables, bye_slots = seating.draft_tables(round_)
        in_draft = {seating.unslot(s)[0] for s in (*(v for t in tables for v in t), *bye_slots)}
        inputs = seating.seating_inputs(event, number=round_.number, seated=in_draft)
        # The seating's own method stays named: the swap is added to it, once.
        method = str(before.get("method") or "").removesuffix(SWAPPED_ENDING)
        report = seating.report_for(inputs.request, tables, bye_slots, f"{method}{SWAPPED_ENDING}")
        round_.report = report.as_dict()
        round_.save(update_fields=["report"])
        event_log(
            event,
            "round_swap",
            user,
            before={"report": before},
            after={
                "round": round_.number,
                "swapped": [first.pk, second.pk],
                "report": round_.report,
            },
        )
    return SwapResult(
        round=round_,
        before=before,
        after=dict(round_.report),
        first=first.name,
        second=second.name,
    )
