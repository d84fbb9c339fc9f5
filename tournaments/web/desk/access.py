"""The desk's door: a login, then an active staff account, at every request.

Who may do what in an event is read from ``tournaments.events.directors``; here the
request is answered: a login page for someone signed out, 403 for an account that may
not use the desk, 404 for an event the user may not direct (as for one that does not
exist). Director sessions last ``DIRECTOR_SESSION_HOURS`` (a working day by default),
not the months a player's "my games" session keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext

from tournaments.events import directors
from tournaments.events.directors import Action
from tournaments.services.change import ActingUser

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from tournaments.models import Event

View = TypeVar("View", bound=Callable[..., HttpResponse])


def directed_event(request: HttpRequest, pk: int, action: Action = Action.DIRECT) -> Event:
    """The event ``pk`` if the request's user may do ``action`` in it; 404 otherwise."""
    event = directors.directed_event(request.user, pk, action)
    if event is None:
        raise Http404("no such event")
    return event


def director_of(request: HttpRequest) -> User:
    """The signed-in account behind a desk request (``director_required`` let it in)."""
    user = request.user
    if not user.is_authenticated or not directors.is_director(user):
        raise PermissionDenied(gettext("this account may not use the director's desk"))
    return user


def director_required(view: View) -> View:
    """The desk's door: a login first, then an active staff account at every request.

    Someone not signed in is sent to the login page; a signed-in account that is not
    (or no longer) an active staff account is refused with 403.
    """

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), settings.LOGIN_URL)
        if not directors.is_director(request.user):
            raise PermissionDenied(gettext("this account may not use the director's desk"))
        return view(request, *args, **kwargs)

    return checked  # type: ignore[return-value]


def director_session_seconds() -> int:
    return int(settings.DIRECTOR_SESSION_HOURS * 3600)


def shorten_director_session(
    sender: Any, request: HttpRequest, user: ActingUser, **kwargs: Any
) -> None:
    """On login (``user_logged_in``): a director's session ends after a working day."""
    if directors.is_director(user) and hasattr(request, "session"):
        request.session.set_expiry(director_session_seconds())
