"""Who may direct an event: checked on every desk request, not only at login.

A director is a signed-in account that is active and staff; a director directs the
events they own, and those its owner added them to as co-director or scorer (what each
role may do: ``tournaments.events.staff``). ``may_direct`` is the one answer to "may
this user do this in this event", and ``directed_events`` the events a user sees on
the desk.

Director sessions last ``DIRECTOR_SESSION_HOURS`` (a working day by default), not the
months a player's "my games" session keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse

from tournaments.events.staff import Action, events_for, may
from tournaments.models import Event

View = TypeVar("View", bound=Callable[..., HttpResponse])


def is_director(user: Any) -> bool:
    """May this account use the desk at all (its own events, a new event)?"""
    return bool(
        getattr(user, "is_authenticated", False)
        and getattr(user, "is_active", False)
        and getattr(user, "is_staff", False)
    )


def may_direct(user: Any, event: Event, action: Action = Action.DIRECT) -> bool:
    """May this user do ``action`` (by default: direct) in this event? The one place
    that says so: a director, in a role of the event that allows it."""
    return is_director(user) and may(user, event, action)


def directed_events(user: Any) -> QuerySet[Event]:
    """The events this user may direct (none for anyone who is not a director)."""
    if not is_director(user):
        return Event.objects.none()
    return events_for(user)


def directed_event(request: HttpRequest, pk: int, action: Action = Action.DIRECT) -> Event:
    """The event ``pk`` if the request's user may do ``action`` in it; 404 otherwise (as
    for an event that does not exist, so that ids are not confirmed to strangers)."""
    event = Event.objects.filter(pk=pk).first()
    if event is None or not may_direct(request.user, event, action):
        raise Http404("no such event")
    return event


def director_required(view: View) -> View:
    """The desk's door: a login first, then an active staff account at every request.

    Someone not signed in is sent to the login page; a signed-in account that is not
    (or no longer) an active staff account is refused with 403.
    """

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), settings.LOGIN_URL)
        if not is_director(request.user):
            raise PermissionDenied("this account may not use the director's desk")
        return view(request, *args, **kwargs)

    return checked  # type: ignore[return-value]


def director_session_seconds() -> int:
    return int(settings.DIRECTOR_SESSION_HOURS * 3600)


def shorten_director_session(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """On login (``user_logged_in``): a director's session ends after a working day."""
    if is_director(user) and hasattr(request, "session"):
        request.session.set_expiry(director_session_seconds())
