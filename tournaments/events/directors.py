"""Who may direct an event, and in what role: read on every desk request, not only at login.

A director is a signed-in account that is active and staff; a director directs the
events they own, and those its owner added them to as co-director or scorer. What each
role may do is stated here once:

- the owner: everything, and only the owner adds or removes staff;
- a co-director: everything but deleting the event or changing its staff;
- a scorer: looks at the desk and the rounds, enters results and corrections only.

``may_direct`` is the one answer to "may this user do this in this event",
``directed_events`` the events a user sees on the desk and ``directed_event`` one of
them. The desk's door (a login, then these answers) is ``tournaments.web.desk.access``;
the staff changes are ``tournaments.events.services.staff``.
"""

from __future__ import annotations

from enum import StrEnum

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from common.phrases import N_
from tournaments.models import Event, EventStaff
from tournaments.services.change import ActingUser


class Action(StrEnum):
    """What a desk request asks to do, from the least to the most trusted."""

    VIEW = "view"  # the desk and round pages, read only
    SCORE = "score"  # results and corrections at a table
    DIRECT = "direct"  # everything that runs the event
    OWN = "own"  # staff changes, deleting the event


OWNER = "owner"
ROLE_ACTIONS: dict[str, frozenset[Action]] = {
    OWNER: frozenset(Action),
    EventStaff.Role.CO_DIRECTOR: frozenset({Action.VIEW, Action.SCORE, Action.DIRECT}),
    EventStaff.Role.SCORER: frozenset({Action.VIEW, Action.SCORE}),
}
ROLE_HELP = {
    EventStaff.Role.CO_DIRECTOR: N_("Everything but deleting the event or changing its staff"),
    EventStaff.Role.SCORER: N_("Results and corrections only"),
}
# The roles the owner gives: (value, label, what the role may do).
STAFF_ROLES: tuple[tuple[str, str, str], ...] = tuple(
    (value, label, ROLE_HELP[EventStaff.Role(value)]) for value, label in EventStaff.Role.choices
)


def is_director(user: ActingUser) -> bool:
    """May this account use the desk at all (its own events, a new event)?"""
    return bool(
        getattr(user, "is_authenticated", False)
        and getattr(user, "is_active", False)
        and getattr(user, "is_staff", False)
    )


def role_of(user: ActingUser, event: Event) -> str | None:
    """The user's role in the event: ``owner``, a staff role, or None."""
    if not isinstance(user, User) or not user.is_authenticated:
        return None
    if event.owner_id == user.pk:
        return OWNER
    if not is_director(user):
        return None
    return EventStaff.objects.filter(event=event, user=user).values_list("role", flat=True).first()


def may(user: ActingUser, event: Event, action: Action = Action.DIRECT) -> bool:
    """May this user do ``action`` in this event, by their role alone?"""
    role = role_of(user, event)
    return role is not None and action in ROLE_ACTIONS[role]


def may_direct(user: ActingUser, event: Event, action: Action = Action.DIRECT) -> bool:
    """May this user do ``action`` (by default: direct) in this event? The one place
    that says so: a director, in a role of the event that allows it."""
    return is_director(user) and may(user, event, action)


def events_for(user: ActingUser) -> QuerySet[Event]:
    """The events the user owns or helps run."""
    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    helping = Q(staff__user=user) if is_director(user) else Q(pk__in=[])
    return Event.objects.filter(Q(owner=user) | helping).distinct()


def directed_events(user: ActingUser) -> QuerySet[Event]:
    """The events this user may direct, the newest first (none for anyone who is not a
    director)."""
    if not is_director(user):
        return Event.objects.none()
    return events_for(user).order_by("-created_at")


def directed_event(user: ActingUser, pk: int, action: Action = Action.DIRECT) -> Event | None:
    """The event ``pk`` if this user may do ``action`` in it; None otherwise, as for an
    event that does not exist (so that ids are not confirmed to strangers)."""
    event = Event.objects.filter(pk=pk).first()
    if event is None or not may_direct(user, event, action):
        return None
    return event


__all__ = [
    "OWNER",
    "ROLE_ACTIONS",
    "ROLE_HELP",
    "STAFF_ROLES",
    "Action",
    "directed_event",
    "directed_events",
    "events_for",
    "is_director",
    "may",
    "may_direct",
    "role_of",
]
