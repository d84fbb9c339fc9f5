"""Printing an event's sheets from the director's desk: one POST per printout.

``tournaments:printout`` (``desk/<event>/print/<kind>/``) takes ``round``
(a tournament round's number; the latest published when absent) and ``paper``, asks
for the print job and sends the director to its page, where the PDF appears when it
is drawn. ``printouts_for`` lists what an event can print, for a page's buttons.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from common import throttles
from printing.errors import PrintRequestError
from printing.paper import paper_from
from tournaments.events import selectors
from tournaments.printouts.sources import KIND_LABELS, KINDS, ROUND_KINDS, printout_create
from tournaments.web.desk.access import directed_event, director_required

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from tournaments.models import Event


@dataclass(frozen=True)
class Printout:
    kind: str
    label: StrOrPromise
    url: str  # POST here (with ``round`` and ``paper``) to print it
    round_number: int | None  # the tournament round it prints by default


def printouts_for(*, event: Event) -> list[Printout]:
    """What this event can print now: a round's sheets once a round is published."""
    latest = selectors.latest_published_number(event=event)
    return [
        Printout(
            kind=kind,
            label=KIND_LABELS[kind],
            url=reverse("tournaments:printout", args=[event.pk, kind]),
            round_number=latest if kind in ROUND_KINDS else None,
        )
        for kind in KINDS
        if latest is not None or kind not in ROUND_KINDS
    ]


def _round_number(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise PrintRequestError(gettext("the tournament round is named by its number")) from None


@director_required
@require_POST
def printout(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """Print one of the director's event's printouts; the job's page follows its drawing."""
    event = directed_event(request, pk)
    base_url = request.build_absolute_uri("/")
    if (refusal := throttles.refused(request, "print_jobs")) is not None:
        return refusal
    try:
        job = printout_create(
            event=event,
            kind=kind,
            round_number=_round_number(request.POST.get("round")),
            paper=paper_from(request.POST.get("paper")),
            base_url=base_url,
        )
    except PrintRequestError as error:
        throttles.give_back(request, "print_jobs")
        return render(
            request, "printing/job.html", {"job": None, "problem": str(error)}, status=400
        )
    return redirect("printing:print_job", token=job.token)
