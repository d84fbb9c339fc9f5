"""Reads for the sign-up page, the desk's registrations and the announcements.

``announcements_for(event)`` is what any page shows the event's announcements from
(``templates/tournaments/_announcements.html`` draws them); ``when_and_where`` is the
event's date, start time and venue in words, for pages and printouts alike.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext

from tournaments.models import Announcement, Entrant, Event, Registration, SignUp
from tournaments.models.signup import (
    ANNOUNCEMENT_LONGEST,
    CAP_LARGEST,
    CONTACT_LONGEST,
    VENUE_LONGEST,
)

# The limits the pages' forms state (their maxlength), as the models state them.
__all__ = [
    "ANNOUNCEMENTS_SHOWN",
    "ANNOUNCEMENT_LONGEST",
    "CAP_LARGEST",
    "CONTACT_LONGEST",
    "VENUE_LONGEST",
    "SignUpState",
    "announcement_list",
    "announcements_for",
    "date_text",
    "registration_by_token",
    "registration_in_event",
    "registrations_for_desk",
    "signup_is_open",
    "signup_settings",
    "signup_state",
    "waiting_position",
    "when_and_where",
    "when_text",
]

# The pages show the newest announcements, this many at most.
ANNOUNCEMENTS_SHOWN = 10


def announcements_for(event: Event, *, limit: int = ANNOUNCEMENTS_SHOWN) -> QuerySet[Announcement]:
    """The event's announcements, newest first (lazy: read only when a page shows them)."""
    return Announcement.objects.filter(event=event).order_by("-created_at", "-pk")[:limit]


def date_text(date: dt.date | None) -> str:
    """``Friday 27 November 2026``; empty when there is no date."""
    return formats.date_format(date, "l j F Y") if date else ""


def when_text(date: dt.date | None, start_time: dt.time | None) -> str:
    """``Friday 27 November 2026 at 19:30`` (either part alone when the other is missing),
    in the reader's language."""
    day = date_text(date)
    clock = formats.time_format(start_time, "H:i") if start_time else ""
    if day and clock:
        return gettext("{day} at {clock}").format(day=day, clock=clock)
    return day or (gettext("starts at {clock}").format(clock=clock) if clock else "")


def when_and_where(event: Event) -> str:
    """``Friday 27 November 2026 at 19:30 · The Crown, back room``; empty when none is set."""
    parts = [when_text(event.date, event.start_time), event.venue.strip()]
    return " · ".join(part for part in parts if part)


def signup_settings(event: Event) -> SignUp:
    """The event's sign-up settings (unsaved defaults, off, when never set)."""
    found = SignUp.objects.filter(event=event).first()
    return found if found is not None else SignUp(event=event)


@dataclass(frozen=True)
class SignUpState:
    open: bool  # takes registrations now
    reason: str  # why not, when not
    cap: int | None
    entrants: int  # in the event now (not dropped)
    waiting: int
    approval: bool
    closes_at: dt.datetime | None

    @property
    def full(self) -> bool:
        return self.cap is not None and self.entrants >= self.cap


def signup_state(event: Event, *, now: dt.datetime | None = None) -> SignUpState:
    """What the public sign-up page says: open or why not, the places taken and waiting."""
    signup = signup_settings(event)
    now = now or timezone.now()
    reason = ""
    if event.status == Event.Status.CLOSED:
        reason = gettext("This event is over.")
    elif not signup.open:
        reason = gettext("Sign-up for this event is not open.")
    elif signup.closes_at is not None and now >= signup.closes_at:
        when = timezone.localtime(signup.closes_at)
        reason = gettext("Sign-up closed on {day} at {clock}.").format(
            day=date_text(when.date()), clock=formats.time_format(when, "H:i")
        )
    return SignUpState(
        open=not reason,
        reason=reason,
        cap=signup.cap,
        entrants=Entrant.objects.filter(event=event, dropped=False).count(),
        waiting=Registration.objects.filter(
            event=event, status=Registration.Status.WAITING
        ).count(),
        approval=signup.approval,
        closes_at=signup.closes_at,
    )


def signup_is_open(event: Event) -> bool:
    """Whether the event's sign-up page takes registrations now (one small query)."""
    return signup_state(event).open


def registration_by_token(*, event_token: str, token: str) -> Registration | None:
    """The registration whose status page this is (the event's public token and its own)."""
    if not token or len(token) > 64:
        return None
    return (
        Registration.objects.select_related("event", "entrant")
        .filter(token=token, event__public_token=event_token)
        .first()
    )


def waiting_position(registration: Registration) -> int | None:
    """1-based place on the waiting list (or among those pending approval); None else."""
    if registration.status not in (Registration.Status.WAITING, Registration.Status.PENDING):
        return None
    before = Registration.objects.filter(
        event_id=registration.event_id, status=registration.status
    ).filter(place__lt=registration.place)
    return before.count() + 1


def registrations_for_desk(event: Event) -> dict[str, list[Registration]]:
    """Every registration of the event by status: pending and waiting in their order, the
    entrants, then those refused or withdrawn (newest first)."""
    found: dict[str, list[Registration]] = {s: [] for s in Registration.Status.values}
    for registration in Registration.objects.filter(event=event).select_related("entrant"):
        found[registration.status].append(registration)
    for status in (Registration.Status.REFUSED, Registration.Status.WITHDRAWN):
        found[status].sort(key=lambda r: -r.pk)
    return found


def registration_in_event(event: Event, registration_id: int) -> Registration | None:
    return Registration.objects.filter(event=event, pk=registration_id).first()


def announcement_list(event: Event) -> list[Announcement]:
    """Every announcement of the event for the desk, newest first."""
    return list(Announcement.objects.filter(event=event).order_by("-created_at", "-pk"))
