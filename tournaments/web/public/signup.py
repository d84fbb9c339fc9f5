"""An event's own sign-up page (/e/<public token>/signup/) and each person's status page.

Needs no login. A registration is counted against ``signups`` (common.throttles) when it is
made, given back when refused. The status page's address holds the registration's own
token: it shows the status, the place on the waiting list, and once the person is an
entrant their private link (/me/<token>/). Contacts are never shown on either page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from common import throttles
from common.htmx import HtmxHttpRequest
from tournaments.events import passes, services, signup_selectors
from tournaments.events.document import NAME_LONGEST
from tournaments.events.signup_selectors import CONTACT_LONGEST
from tournaments.printouts.sources import site_address
from tournaments.web.desk.forms import problems_by_field
from tournaments.web.public.views import public_base, public_event

if TYPE_CHECKING:
    from tournaments.models import Registration


def private_link(request: HtmxHttpRequest, token: str) -> str:
    """An entrant's own link, absolute as the table cards' codes are (the site's address
    when ``TABLESCORE_BASE_URL`` is set, else the request's)."""
    return passes.private_link(site_address(request.build_absolute_uri("/")), token)


@never_cache
@require_http_methods(["GET", "POST"])
def signup_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The form (name, an optional contact) and what the sign-up stands at."""
    event = public_event(token)
    context: dict[str, Any] = {
        **public_base(event),
        "state": signup_selectors.signup_state(event),
        "name": "",
        "contact": "",
        "errors": {},
        "name_longest": NAME_LONGEST,
        "contact_longest": CONTACT_LONGEST,
        "when_where": signup_selectors.when_and_where(event),
    }
    if request.method == "GET":
        return render(request, "tournaments/signup.html", context)
    name = request.POST.get("name", "")[:200]
    contact = request.POST.get("contact", "")[:400]
    context.update(name=name, contact=contact)
    if (refusal := throttles.refused(request, "signups")) is not None:
        return refusal
    try:
        registration = services.registration_create(
            event=event, name=name, contact=contact, user=request.user
        )
    except services.TournamentError as error:
        throttles.give_back(request, "signups")
        context["errors"] = problems_by_field(error.problems)
        context["state"] = signup_selectors.signup_state(event)
        return render(request, "tournaments/signup.html", context)
    return redirect("tournaments:signup_status", token=event.public_token, reg=registration.token)


def own_registration(token: str, reg: str) -> Registration:
    found = signup_selectors.registration_by_token(event_token=token, token=reg)
    if found is None:
        raise Http404("no such registration")
    return found


@never_cache
@require_http_methods(["GET", "POST"])
def signup_status(request: HtmxHttpRequest, token: str, reg: str) -> HttpResponse:
    """The person's own status; ``POST`` withdraws (their place goes to the next waiting)."""
    registration = own_registration(token, reg)
    event = registration.event
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            services.registration_withdraw(registration=registration, user=request.user)
        except services.TournamentError as error:
            errors = problems_by_field(error.problems)
        else:
            return redirect(
                "tournaments:signup_status", token=event.public_token, reg=registration.token
            )
    entrant = registration.entrant
    context = {
        **public_base(event),
        "registration": registration,
        "position": signup_selectors.waiting_position(registration),
        "private_link": private_link(request, entrant.private_token) if entrant else "",
        "errors": errors,
        "signup_url": reverse("tournaments:signup", args=[event.public_token]),
        "when_where": signup_selectors.when_and_where(event),
    }
    return render(request, "tournaments/signup_status.html", context)
