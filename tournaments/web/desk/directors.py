"""The desk's staff card: the owner adds co-directors and scorers, everyone sees who helps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.htmx import HtmxHttpRequest
from scoring.wording import phrase_text
from tournaments.events import selectors, services
from tournaments.events.directors import STAFF_ROLES, Action, may_direct
from tournaments.services.change import ActingUser
from tournaments.web.desk.access import directed_event, director_required

if TYPE_CHECKING:
    from tournaments.models import Event

CARD = "tournaments/_staff.html"


def staff_context(event: Event, user: ActingUser) -> dict[str, Any]:
    """Who helps run the event, and whether this user may change it."""
    return {
        "owner": event.owner.get_username(),
        "members": selectors.staff_of(event=event),
        "roles": STAFF_ROLES,
        "can_change": may_direct(user, event, Action.OWN),
    }


def _event(request: HtmxHttpRequest, pk: int) -> Event:
    """The event, for its owner only (404 for anyone else, helpers included)."""
    return directed_event(request, pk, Action.OWN)


def _answer(request: HtmxHttpRequest, event: Event, **extra: Any) -> HttpResponse:
    if request.htmx:
        context = {"event": event, "staff": staff_context(event, request.user), **extra}
        return render(request, CARD, context)
    return redirect("tournaments:desk_event", pk=event.pk)


def _refused(
    request: HtmxHttpRequest, event: Event, error: services.StaffError, field: str
) -> HttpResponse:
    said = phrase_text(error.template, error.values)
    message = said[:1].upper() + said[1:] + "."
    return _answer(request, event, errors={field: message})


@never_cache
@director_required
@require_POST
def staff_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    try:
        services.event_staff_add(
            event=event,
            username=request.POST.get("username", ""),
            role=request.POST.get("role", ""),
            user=request.user,
        )
    except services.StaffError as error:
        return _refused(request, event, error, f"staff_{error.field}")
    return _answer(request, event)


@never_cache
@director_required
@require_POST
def staff_remove(request: HtmxHttpRequest, pk: int, staff_id: int) -> HttpResponse:
    event = _event(request, pk)
    staff = selectors.staff_member(event=event, staff_id=staff_id)
    if staff is None:
        raise Http404("no such helper")
    try:
        services.event_staff_remove(event=event, staff=staff, user=request.user)
    except services.StaffError as error:
        return _refused(request, event, error, "staff_username")
    return _answer(request, event)
