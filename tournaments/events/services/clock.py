"""The round clock: the director starts, pauses, resumes and extends a tournament round's time.

How the clock is stored and shown: ``tournaments.events.selectors.clock_of``. Each change
is one audited service that bumps the event's revision, so the projector and the players'
pages pick it up.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.phrases import N_
from tournaments.errors import TournamentError
from tournaments.events.selectors import CLOCK_LONGEST_MINUTES, clock_of
from tournaments.models import Event, TournamentRound
from tournaments.services.change import ActingUser, event_log


def _minutes(value: Any) -> int:
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        minutes = 0
    if not 1 <= minutes <= CLOCK_LONGEST_MINUTES:
        raise TournamentError.single(
            N_("minutes are a whole number from 1 to {longest}"),
            field="minutes",
            longest=CLOCK_LONGEST_MINUTES,
        )
    return minutes


def _change(
    event: Event, round_: TournamentRound, user: ActingUser, action: str, **change: Any
) -> None:
    before = {"ends_at": round_.clock_ends_at, "paused_left": round_.clock_paused_left}
    for name, value in change.items():
        setattr(round_, name, value)
    round_.save(update_fields=list(change))
    after = {"ends_at": round_.clock_ends_at, "paused_left": round_.clock_paused_left}
    event_log(
        event,
        action,
        user,
        before={"round": round_.number, **{k: _text(v) for k, v in before.items()}},
        after={"round": round_.number, **{k: _text(v) for k, v in after.items()}},
    )
    Event.objects.filter(pk=event.pk).update(revision=event.revision + 1)


def _text(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _locked_round(event: Event, round_: TournamentRound) -> tuple[Event, TournamentRound]:
    event = Event.objects.select_for_update().get(pk=event.pk)
    found = TournamentRound.objects.select_for_update().filter(pk=round_.pk, event=event).first()
    if found is None or found.status != TournamentRound.Status.PUBLISHED:
        raise TournamentError.single(N_("the clock runs for a published round"), field="round")
    if event.status == Event.Status.CLOSED:
        raise TournamentError.single(N_("the event is closed"), field="round")
    return event, found


def tournament_round_clock_start(
    *, event: Event, round: TournamentRound, minutes: Any, user: ActingUser = None
) -> TournamentRound:
    """Start (or start again) the round's clock for ``minutes``."""
    length = _minutes(minutes)
    with transaction.atomic():
        event, round_ = _locked_round(event, round)
        ends = timezone.now() + timedelta(minutes=length)
        _change(
            event, round_, user, "round_clock_start", clock_ends_at=ends, clock_paused_left=None
        )
    return round_


def tournament_round_clock_pause(
    *, event: Event, round: TournamentRound, user: ActingUser = None
) -> TournamentRound:
    """Stop the clock where it is; resuming carries on from there."""
    with transaction.atomic():
        event, round_ = _locked_round(event, round)
        clock = clock_of(round_)
        if clock.state != "running":
            raise TournamentError.single(N_("the clock is not running"), field="clock")
        _change(
            event,
            round_,
            user,
            "round_clock_pause",
            clock_ends_at=None,
            clock_paused_left=clock.seconds_left,
        )
    return round_


def tournament_round_clock_resume(
    *, event: Event, round: TournamentRound, user: ActingUser = None
) -> TournamentRound:
    with transaction.atomic():
        event, round_ = _locked_round(event, round)
        left = round_.clock_paused_left
        if left is None:
            raise TournamentError.single(N_("the clock is not paused"), field="clock")
        ends = timezone.now() + timedelta(seconds=left)
        _change(
            event, round_, user, "round_clock_resume", clock_ends_at=ends, clock_paused_left=None
        )
    return round_


def tournament_round_clock_extend(
    *, event: Event, round: TournamentRound, minutes: Any, user: ActingUser = None
) -> TournamentRound:
    """Give the round ``minutes`` more (from zero again when its time was up)."""
    length = _minutes(minutes)
    with transaction.atomic():
        event, round_ = _locked_round(event, round)
        clock = clock_of(round_)
        if clock.state == "off":
            raise TournamentError.single(N_("start the clock first"), field="clock")
        if clock.state == "paused":
            left = (clock.seconds_left or 0) + length * 60
            _change(event, round_, user, "round_clock_extend", clock_paused_left=left)
        else:
            ends = timezone.now() + timedelta(seconds=(clock.seconds_left or 0) + length * 60)
            _change(event, round_, user, "round_clock_extend", clock_ends_at=ends)
    return round_


def tournament_round_clock_change(
    *, event: Event, round: TournamentRound, do: str, minutes: Any = None, user: ActingUser = None
) -> TournamentRound:
    """The desk's clock control: ``do`` is start, pause, resume or extend (by ``minutes``)."""
    if do == "start":
        return tournament_round_clock_start(event=event, round=round, minutes=minutes, user=user)
    if do == "pause":
        return tournament_round_clock_pause(event=event, round=round, user=user)
    if do == "resume":
        return tournament_round_clock_resume(event=event, round=round, user=user)
    if do == "extend":
        return tournament_round_clock_extend(event=event, round=round, minutes=minutes, user=user)
    raise TournamentError.single(N_("choose start, pause, resume or extend"), field="clock")
