"""The API of an event's sign-up page: register (the same rules and limit as the page),
and read one's registration's status with its own token.

The event is named by its public token; a registration by the token its creation
answers, which only its holder knows (it also withdraws it on the web page).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from ninja import Router, Schema
from ninja.responses import Status
from pydantic import ConfigDict, Field, StrictStr

from scoring.api.errors import errors_response, problem_dicts
from scoring.api.limits import creation
from scoring.api.schemas import Errors
from tournaments.events import passes, selectors, services, signup_selectors
from tournaments.models import Registration
from tournaments.models.signup import CONTACT_LONGEST
from tournaments.printouts.sources import site_address

router = Router(tags=["sign-up"])


class RegistrationIn(Schema):
    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(description="the name shown on the draw and standings (1 to 40)")
    contact: StrictStr = Field(
        "",
        description=f"an e-mail or phone number for the director only (at most "
        f"{CONTACT_LONGEST}); never shown on a public page or answered by the API",
    )


class RegistrationOut(Schema):
    name: str
    status: str = Field(
        description="pending (the director approves), waiting (on the waiting list), "
        "entrant (in the event), refused or withdrawn"
    )
    status_label: str
    position: int | None = Field(
        description="1-based place on the waiting list (or among those pending approval)"
    )
    token: str = Field(description="this registration's own token: keep it")
    status_url: str = Field(description="the person's status page (withdraw there)")
    private_link: str | None = Field(
        description="the entrant's own link (/me/<token>/), once the person is an entrant: "
        "whoever opens it acts as them"
    )


def registration_out(request: HttpRequest, registration: Registration) -> dict[str, Any]:
    base = site_address(request.build_absolute_uri("/"))
    event = registration.event
    entrant = registration.entrant
    return {
        "name": registration.name,
        "status": registration.status,
        "status_label": registration.get_status_display(),
        "position": signup_selectors.waiting_position(registration),
        "token": registration.token,
        "status_url": f"{base}/e/{event.public_token}/signup/{registration.token}/",
        "private_link": (
            passes.private_link(base, entrant.private_token) if entrant is not None else None
        ),
    }


@router.post(
    "/events/{token}/registrations/",
    response={201: RegistrationOut, 400: Errors, 404: Errors, 413: Errors, 429: Errors},
    summary="Sign up for an event (its sign-up page must be open)",
)
def register(request: HttpRequest, token: str, body: RegistrationIn) -> Any:
    event = selectors.event_by_public_token(token=token)
    if event is None:
        raise Http404("no such event")
    try:
        with creation(request, "signups"):
            registration = services.registration_create(
                event=event, name=body.name, contact=body.contact, user=request.user
            )
    except services.TournamentError as error:
        return errors_response(400, problem_dicts(error.problems))
    registration.event = event
    return Status(201, registration_out(request, registration))


@router.get(
    "/events/{token}/registrations/{registration}/",
    response={200: RegistrationOut, 404: Errors, 413: Errors},
    summary="One's registration: its status, place on the waiting list, own link",
)
def registration_status(request: HttpRequest, token: str, registration: str) -> Any:
    found = signup_selectors.registration_by_token(event_token=token, token=registration)
    if found is None:
        raise Http404("no such registration")
    return registration_out(request, found)
