"""The round clock's controls on the desk's round page."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.htmx import HtmxHttpRequest
from tournaments.events import services
from tournaments.web.desk.access import director_required
from tournaments.web.desk.views import own_event, own_tournament_round, refusal_shown


@never_cache
@director_required
@require_POST
@refusal_shown(on_round=True)
def tournament_round_clock(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Start, pause, resume or extend the round's clock (``do``), by ``minutes``."""
    event = own_event(request, pk)
    round_ = own_tournament_round(event, number)
    services.tournament_round_clock_change(
        event=event,
        round=round_,
        do=request.POST.get("do", ""),
        minutes=request.POST.get("minutes", ""),
        user=request.user,
    )
    return redirect("tournaments:desk_round", pk=event.pk, number=round_.number)
