"""The desk's sign-up page (when and where, the sign-up settings, every registration) and
its announcements page. Thin views: each change is one service call, then the page again
(a plain form: a redirect; refused: the page with the problem beside its field)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common.htmx import HtmxHttpRequest
from scoring.entry.fields import parse_int
from tournaments.events import services, signup_selectors
from tournaments.events.directors import Action, may_direct
from tournaments.events.document import NAME_LONGEST
from tournaments.events.signup_selectors import (
    ANNOUNCEMENT_LONGEST,
    CAP_LARGEST,
    CONTACT_LONGEST,
    VENUE_LONGEST,
)
from tournaments.web.desk.access import directed_event, director_required
from tournaments.web.desk.forms import problems_by_field
from tournaments.web.desk.schedule_form import read_moment, read_schedule

if TYPE_CHECKING:
    from tournaments.models import Event, Registration

SIGNUP = "tournaments/desk_signup.html"
ANNOUNCEMENTS = "tournaments/desk_announcements.html"


# --------------------------------------------------------------------------- the page


def signup_context(request: HtmxHttpRequest, event: Event, **extra: Any) -> dict[str, Any]:
    settings = signup_selectors.signup_settings(event)
    closes_at = (
        timezone.localtime(settings.closes_at).strftime("%Y-%m-%dT%H:%M")
        if settings.closes_at
        else ""
    )
    context = {
        "event": event,
        "settings": settings,
        "closes_at_text": closes_at,
        "state": signup_selectors.signup_state(event),
        "registrations": signup_selectors.registrations_for_desk(event),
        "signup_link": request.build_absolute_uri(
            reverse("tournaments:signup", args=[event.public_token])
        ),
        "when_where": signup_selectors.when_and_where(event),
        "date_text": event.date.isoformat() if event.date else "",
        "start_time_text": event.start_time.strftime("%H:%M") if event.start_time else "",
        "read_only": not may_direct(request.user, event, Action.DIRECT),
        "name_longest": NAME_LONGEST,
        "contact_longest": CONTACT_LONGEST,
        "venue_longest": VENUE_LONGEST,
        "cap_largest": CAP_LARGEST,
        "errors": {},
        "editing": None,
    }
    context.update(extra)
    return context


def signup_page(
    request: HtmxHttpRequest, event: Event, status: int = 200, **extra: Any
) -> HttpResponse:
    return render(request, SIGNUP, signup_context(request, event, **extra), status=status)


@never_cache
@director_required
@require_GET
def desk_signup(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """When and where, the sign-up page's settings and every registration."""
    event = directed_event(request, pk, Action.VIEW)
    editing = parse_int(request.GET.get("edit", ""))
    return signup_page(request, event, editing=editing)


def done(event: Event, anchor: str) -> HttpResponse:
    return redirect(reverse("tournaments:desk_signup", args=[event.pk]) + f"#{anchor}")


@never_cache
@director_required
@require_POST
def schedule_set(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The event's date, start time and venue."""
    event = directed_event(request, pk)
    schedule, errors = read_schedule(request.POST)
    if not errors:
        try:
            services.event_schedule_set(event=event, user=request.user, **schedule)
        except services.TournamentError as error:
            errors = problems_by_field(error.problems)
    if errors:
        return signup_page(request, event, errors=errors, posted=request.POST)
    return done(event, "when-where")


@never_cache
@director_required
@require_POST
def signup_settings_set(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Sign-up on or off, its cap, approval and closing time."""
    event = directed_event(request, pk)
    errors: dict[str, str] = {}
    cap_text = request.POST.get("cap", "").strip()
    cap = parse_int(cap_text) if cap_text else None
    if cap_text and cap is None:
        errors["cap"] = gettext(
            "Enter a number of players from 1 to {largest}, or leave it empty."
        ).format(largest=CAP_LARGEST)
    closes_at, problem = read_moment(request.POST.get("closes_at", ""))
    if problem:
        errors["closes_at"] = problem
    if not errors:
        try:
            services.signup_settings_set(
                event=event,
                open=request.POST.get("open") == "on",
                cap=cap,
                approval=request.POST.get("approval") == "on",
                closes_at=closes_at,
                user=request.user,
            )
        except services.TournamentError as error:
            errors = problems_by_field(error.problems)
    if errors:
        return signup_page(request, event, errors=errors)
    return done(event, "signup-settings")


def own_registration(event: Event, registration_id: int) -> Registration:
    found = signup_selectors.registration_in_event(event, registration_id)
    if found is None:
        raise Http404("no such registration")
    return found


@never_cache
@director_required
@require_POST
def registration_change(request: HtmxHttpRequest, pk: int, registration_id: int) -> HttpResponse:
    """Approve, refuse, remove, move up or down one registration (``do``)."""
    event = directed_event(request, pk)
    registration = own_registration(event, registration_id)
    do = request.POST.get("do", "")
    changes = {
        "approve": lambda: services.registration_approve(
            event=event, registration=registration, user=request.user
        ),
        "refuse": lambda: services.registration_refuse(
            event=event, registration=registration, user=request.user
        ),
        "remove": lambda: services.registration_remove(
            event=event, registration=registration, user=request.user
        ),
        "up": lambda: services.registration_move(
            event=event, registration=registration, up=True, user=request.user
        ),
        "down": lambda: services.registration_move(
            event=event, registration=registration, up=False, user=request.user
        ),
    }
    change = changes.get(do)
    if change is None:
        errors = {"registration": gettext("Choose approve, refuse, remove, up or down.")}
        return signup_page(request, event, errors=errors, refused_id=registration.pk)
    try:
        change()
    except services.TournamentError as error:
        errors = problems_by_field(error.problems)
        return signup_page(request, event, errors=errors, refused_id=registration.pk)
    return done(event, "registrations")


@never_cache
@director_required
@require_POST
def registration_edit(request: HtmxHttpRequest, pk: int, registration_id: int) -> HttpResponse:
    """Correct a registration's name or contact."""
    event = directed_event(request, pk)
    registration = own_registration(event, registration_id)
    try:
        services.registration_edit(
            event=event,
            registration=registration,
            name=request.POST.get("name", "")[:200],
            contact=request.POST.get("contact", "")[:400],
            user=request.user,
        )
    except services.TournamentError as error:
        errors = problems_by_field(error.problems)
        return signup_page(
            request, event, errors=errors, editing=registration.pk, posted=request.POST
        )
    return done(event, "registrations")


# --------------------------------------------------------------------------- announcements


def announcements_page(request: HtmxHttpRequest, event: Event, **extra: Any) -> HttpResponse:
    context = {
        "event": event,
        "announcements": signup_selectors.announcement_list(event),
        "text_longest": ANNOUNCEMENT_LONGEST,
        "read_only": not may_direct(request.user, event, Action.DIRECT),
        "errors": {},
        "text": "",
        "players_url": reverse("tournaments:draw", args=[event.public_token]),
        **extra,
    }
    return render(request, ANNOUNCEMENTS, context)


@never_cache
@director_required
def desk_announcements(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The event's announcements, newest first; ``POST`` adds one."""
    if request.method != "POST":
        return announcements_page(request, directed_event(request, pk, Action.VIEW))
    event = directed_event(request, pk)
    text = request.POST.get("text", "")[: ANNOUNCEMENT_LONGEST * 2]
    try:
        services.announcement_add(event=event, text=text, user=request.user)
    except services.TournamentError as error:
        return announcements_page(
            request, event, errors=problems_by_field(error.problems), text=text
        )
    return redirect("tournaments:desk_announcements", pk=event.pk)


@never_cache
@director_required
@require_POST
def announcement_remove(request: HtmxHttpRequest, pk: int, announcement_id: int) -> HttpResponse:
    event = directed_event(request, pk)
    try:
        services.announcement_remove(
            event=event, announcement_id=announcement_id, user=request.user
        )
    except services.TournamentError as error:
        return announcements_page(request, event, errors=problems_by_field(error.problems))
    return redirect("tournaments:desk_announcements", pk=event.pk)
