"""The desk's card of players' own links: check-in opened and closed (by hand, or a
window), how a drop from a player's link is taken, the drops asked for (agreed or
declined) and made (taken back with the desk's "Take back"), and what players did
themselves, live. Its poll tells the desk's list of players to refresh when anything
there changed (``players-changed``)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from common.htmx import HtmxHttpRequest
from tournaments.events import me_selectors, selectors, services
from tournaments.events.directors import Action, may_direct
from tournaments.services.change import ActingUser
from tournaments.web.desk.access import directed_event, director_required
from tournaments.web.desk.forms import problems_by_field

if TYPE_CHECKING:
    from tournaments.models import Event

TEMPLATE = "tournaments/me/_desk.html"


def own_links_context(event: Event, user: ActingUser) -> dict[str, Any]:
    """What the desk's card of players' own links shows (the desk page includes it)."""
    closed = selectors.event_closed(event)
    return {
        "self_service": me_selectors.desk_self_service(event=event),
        "self_check_in_choices": me_selectors.SELF_CHECK_IN_CHOICES,
        "self_drop_choices": me_selectors.SELF_DROP_CHOICES,
        "self_read_only": closed or not may_direct(user, event, Action.DIRECT),
        "self_errors": {},
    }


def card_context(request: HtmxHttpRequest, event: Event, **extra: Any) -> dict[str, Any]:
    return {"event": event, **own_links_context(event, request.user), **extra}


def card(request: HtmxHttpRequest, event: Event, **extra: Any) -> HttpResponse:
    response = render(request, TEMPLATE, card_context(request, event, **extra))
    return trigger_client_event(response, "players-changed", {})


def local_time(text: str) -> datetime | None:
    """A time the desk's form sent (``2026-11-27T19:30``), in the site's time zone."""
    found = parse_datetime(text.strip()) if text and len(text) < 40 else None
    if found is not None and timezone.is_naive(found):
        found = timezone.make_aware(found)
    return found


@never_cache
@director_required
@require_GET
def self_service_live(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The card for the desk's poll (204 while nothing a player did changed it)."""
    event = directed_event(request, pk, Action.VIEW)
    if not request.htmx:
        return redirect("tournaments:desk_event", pk=event.pk)
    context = card_context(request, event)
    shown = context["self_service"]
    if request.GET.get("key") == shown.key:
        return HttpResponse(status=204)
    answer = render(request, TEMPLATE, context)
    if request.GET.get("players") == shown.players_key:
        return answer  # the desk's own change: its list of players is current already
    return trigger_client_event(answer, "players-changed", {})


@never_cache
@director_required
@require_POST
def self_service_set(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = directed_event(request, pk)
    opens_text = request.POST.get("check_in_opens_at", "")
    closes_text = request.POST.get("check_in_closes_at", "")
    errors: dict[str, str] = {}
    opens, closes = local_time(opens_text), local_time(closes_text)
    if opens_text.strip() and opens is None:
        errors["check_in_opens_at"] = gettext("Give the opening time as a date and a time.")
    if closes_text.strip() and closes is None:
        errors["check_in_closes_at"] = gettext("Give the closing time as a date and a time.")
    if not errors:
        try:
            services.event_self_service_set(
                event=event,
                self_check_in=request.POST.get("self_check_in", ""),
                opens_at=opens,
                closes_at=closes,
                self_drop=request.POST.get("self_drop") or None,
                user=request.user,
            )
        except services.TournamentError as error:
            errors = problems_by_field(error.problems)
    event.refresh_from_db()
    if not request.htmx and not errors:
        return redirect("tournaments:desk_event", pk=event.pk)
    return card(request, event, self_errors=errors, self_saved=not errors)


@never_cache
@director_required
@require_POST
def drop_answer(request: HtmxHttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    event = directed_event(request, pk)
    entrant = event.entrants.filter(pk=entrant_id).first()
    errors: dict[str, str] = {}
    if entrant is None:
        errors["entrant"] = gettext("That player is not in this event.")
    else:
        try:
            services.entrant_drop_answer(
                event=event,
                entrant=entrant,
                agree=request.POST.get("agree") == "1",
                user=request.user,
            )
        except services.TournamentError as error:
            errors = problems_by_field(error.problems)
    if not request.htmx and not errors:
        return redirect("tournaments:desk_event", pk=event.pk)
    return card(request, event, self_errors=errors)
