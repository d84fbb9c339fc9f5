"""Who runs an event beside its owner: co-directors and scorers.

The owner adds other staff users to an event. What each role may do is stated here
once and read by every desk request:

- the owner: everything, and only the owner adds or removes staff;
- a co-director: everything but deleting the event or changing its staff;
- a scorer: looks at the desk and the rounds, enters results and corrections only.

``may(user, event, action)`` answers by role, and ``events_for(user)`` lists the
events a user helps run; the desk asks ``tournaments.events.directors``, which adds
that the user is a director at all. Every change is logged with the user who made it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet

from tournaments.models import Event, EventStaff
from tournaments.services.change import event_log


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
    EventStaff.Role.CO_DIRECTOR: "Everything but deleting the event or changing its staff",
    EventStaff.Role.SCORER: "Results and corrections only",
}


def is_staff_user(user: Any) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and getattr(user, "is_active", False)
        and getattr(user, "is_staff", False)
    )


def role_of(user: Any, event: Event) -> str | None:
    """The user's role in the event: ``owner``, a staff role, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    if event.owner_id == user.pk:
        return OWNER
    if not is_staff_user(user):
        return None
    return EventStaff.objects.filter(event=event, user=user).values_list("role", flat=True).first()


def may(user: Any, event: Event, action: Action = Action.DIRECT) -> bool:
    """May this user do ``action`` in this event? The one place that says so."""
    role = role_of(user, event)
    return role is not None and action in ROLE_ACTIONS[role]


def events_for(user: Any) -> QuerySet[Event]:
    """The events the user owns or helps run."""
    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    helping = Q(staff__user=user) if is_staff_user(user) else Q(pk__in=[])
    return Event.objects.filter(Q(owner=user) | helping).distinct()


class StaffError(Exception):
    """A staff change the owner asked for that cannot be made; names the field."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


def event_staff_add(*, event: Event, username: str, role: str, user: Any) -> EventStaff:
    """The owner adds a staff user as co-director or scorer (or changes their role)."""
    if role not in EventStaff.Role.values:
        raise StaffError("choose co-director or scorer", "role")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not may(user, event, Action.OWN):
            raise StaffError("only the event's owner changes its staff", "username")
        helper = get_user_model().objects.filter(username=username.strip()).first()
        if helper is not None and helper.pk == event.owner_id:
            raise StaffError("the owner already runs the event", "username")
        if helper is None or not is_staff_user(helper):
            raise StaffError(f"no staff account is called {username.strip()!r}", "username")
        found = EventStaff.objects.filter(event=event, user=helper).first()
        before = found.role if found else None
        staff, _ = EventStaff.objects.update_or_create(
            event=event, user=helper, defaults={"role": role}
        )
        event_log(
            event,
            "event_staff_add",
            user,
            before={"user": helper.get_username(), "role": before} if before else None,
            after={"user": helper.get_username(), "role": role},
        )
    return staff


def event_staff_remove(*, event: Event, staff: EventStaff, user: Any) -> None:
    """The owner takes a co-director or scorer off the event."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not may(user, event, Action.OWN):
            raise StaffError("only the event's owner changes its staff", "username")
        found = EventStaff.objects.filter(pk=staff.pk, event=event).select_related("user").first()
        if found is None:
            raise StaffError("that account does not help run this event", "username")
        found.delete()
        event_log(
            event,
            "event_staff_remove",
            user,
            before={"user": found.user.get_username(), "role": found.role},
        )


__all__ = [
    "ROLE_ACTIONS",
    "ROLE_HELP",
    "Action",
    "StaffError",
    "event_staff_add",
    "event_staff_remove",
    "events_for",
    "may",
    "role_of",
]
