"""The round clock: the director starts, pauses, resumes and extends a round's time.

A running clock is stored as the moment it ends (``clock_ends_at``), a paused one as
the seconds left (``clock_paused_left``): pages count down on their own from either,
and turn to "last deal" at zero. Each change is one audited service that bumps the
event's revision, so the projector and the players' pages pick it up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.errors import TournamentError
from tournaments.models import Event, TournamentRound
from tournaments.services.change import event_log

CLOCK_LONGEST_MINUTES = 240  # a round longer than four hours is a typo
LAST_DEAL = "Last deal"


@dataclass(frozen=True)
class Clock:
    """A round's clock as pages show it."""

    state: str  # "off", "running", "paused"
    ends_at: datetime | None
    seconds_left: int | None

    @property
    def key(self) -> str:
        """What changes when the director changes the clock (and only then): a table
        page that polls sends the key it shows, and gets the clock again when it differs."""
        if self.state == "running" and self.ends_at is not None:
            return f"running {self.ends_at.timestamp():.3f}"
        if self.state == "paused":
            return f"paused {self.seconds_left}"
        return ""

    @property
    def label(self) -> str:
        if self.seconds_left is None:
            return ""
        if self.seconds_left <= 0:
            return LAST_DEAL
        minutes, seconds = divmod(self.seconds_left, 60)
        return f"{minutes}:{seconds:02d}"


def clock_of(round_: TournamentRound | None, *, now: datetime | None = None) -> Clock:
    if round_ is None:
        return Clock("off", None, None)
    now = now or timezone.now()
    if round_.clock_paused_left is not None:
        return Clock("paused", None, round_.clock_paused_left)
    if round_.clock_ends_at is not None:
        left = max(0, int((round_.clock_ends_at - now).total_seconds()))
        return Clock("running", round_.clock_ends_at, left)
    return Clock("off", None, None)


def _minutes(value: Any) -> int:
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        minutes = 0
    if not 1 <= minutes <= CLOCK_LONGEST_MINUTES:
        raise TournamentError.single(
            f"minutes are a whole number from 1 to {CLOCK_LONGEST_MINUTES}", field="minutes"
        )
    return minutes


def _change(event: Event, round_: TournamentRound, user: Any, action: str, **change: Any) -> None:
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
        raise TournamentError.single("the clock runs for a published round", field="round")
    if event.status == Event.Status.CLOSED:
        raise TournamentError.single("the event is closed", field="round")
    return event, found


def tournament_round_clock_start(
    *, event: Event, round: TournamentRound, minutes: Any, user: Any = None
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
    *, event: Event, round: TournamentRound, user: Any = None
) -> TournamentRound:
    """Stop the clock where it is; resuming carries on from there."""
    with transaction.atomic():
        event, round_ = _locked_round(event, round)
        clock = clock_of(round_)
        if clock.state != "running":
            raise TournamentError.single("the clock is not running", field="clock")
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
    *, event: Event, round: TournamentRound, user: Any = None
) -> TournamentRound:
    with transaction.atomic():
        event, round_ = _locked_round(event, round)
        left = round_.clock_paused_left
        if left is None:
            raise TournamentError.single("the clock is not paused", field="clock")
        ends = timezone.now() + timedelta(seconds=left)
        _change(
            event, round_, user, "round_clock_resume", clock_ends_at=ends, clock_paused_left=None
        )
    return round_


def tournament_round_clock_extend(
    *, event: Event, round: TournamentRound, minutes: Any, user: Any = None
) -> TournamentRound:
    """Give the round ``minutes`` more (from zero again when its time was up)."""
    length = _minutes(minutes)
    with transaction.atomic():
        event, round_ = _locked_round(event, round)
        clock = clock_of(round_)
        if clock.state == "off":
            raise TournamentError.single("start the clock first", field="clock")
        if clock.state == "paused":
            left = (clock.seconds_left or 0) + length * 60
            _change(event, round_, user, "round_clock_extend", clock_paused_left=left)
        else:
            ends = timezone.now() + timedelta(seconds=(clock.seconds_left or 0) + length * 60)
            _change(event, round_, user, "round_clock_extend", clock_ends_at=ends)
    return round_


__all__ = [
    "CLOCK_LONGEST_MINUTES",
    "LAST_DEAL",
    "Clock",
    "clock_of",
    "tournament_round_clock_extend",
    "tournament_round_clock_pause",
    "tournament_round_clock_resume",
    "tournament_round_clock_start",
]
