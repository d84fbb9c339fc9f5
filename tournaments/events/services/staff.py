"""The owner's changes to who runs an event beside them: co-directors and scorers.

What each role may do: ``tournaments.events.directors``. Every change is logged with
the user who made it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from common.phrases import N_, fill
from tournaments.events.directors import Action, is_director, may
from tournaments.models import Event, EventStaff
from tournaments.services.change import ActingUser, event_log


class StaffError(Exception):
    """A staff change the owner asked for that cannot be made; names the field. Its
    ``template`` (marked with ``N_``) and ``values`` are said in the reader's language."""

    def __init__(self, template: str, field: str, **values: Any):
        super().__init__(fill(template, values))
        self.template = template
        self.values = values
        self.field = field


def event_staff_add(*, event: Event, username: str, role: str, user: ActingUser) -> EventStaff:
    """The owner adds a staff user as co-director or scorer (or changes their role)."""
    if role not in EventStaff.Role.values:
        raise StaffError(N_("choose co-director or scorer"), "role")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not may(user, event, Action.OWN):
            raise StaffError(N_("only the event's owner changes its staff"), "username")
        helper = get_user_model().objects.filter(username=username.strip()).first()
        if helper is not None and helper.pk == event.owner_id:
            raise StaffError(N_("the owner already runs the event"), "username")
        if helper is None or not is_director(helper):
            raise StaffError(
                N_("no staff account is called '{name}'"), "username", name=username.strip()
            )
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


def event_staff_remove(*, event: Event, staff: EventStaff, user: ActingUser) -> None:
    """The owner takes a co-director or scorer off the event."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not may(user, event, Action.OWN):
            raise StaffError(N_("only the event's owner changes its staff"), "username")
        found = EventStaff.objects.filter(pk=staff.pk, event=event).select_related("user").first()
        if found is None:
            raise StaffError(N_("that account does not help run this event"), "username")
        found.delete()
        event_log(
            event,
            "event_staff_remove",
            user,
            before={"user": found.user.get_username(), "role": found.role},
        )
