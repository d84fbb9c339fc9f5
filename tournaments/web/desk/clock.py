"""The round clock's controls on the desk's round page."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.htmx import HtmxHttpRequest
from tournaments.events import clock
from tournaments.events.directors import director_required
from tournaments.events.services import TournamentError
from tournaments.web.desk.forms import problems_by_field
from tournaments.web.desk.views import own_event, own_tournament_round, tournament_round_page


@never_cache
@director_required
@require_POST
def tournament_round_clock(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Start, pause, resume or extend the round's clock (``do``), by ``minutes``."""
    event = own_event(request, pk)
    round_ = own_tournament_round(event, number)
    what = request.POST.get("do", "")
    minutes = request.POST.get("minutes", "")
    try:
        if what == "start":
            clock.tournament_round_clock_start(
                event=event, round=round_, minutes=minutes, user=request.user
            )
        elif what == "pause":
            clock.tournament_round_clock_pause(event=event, round=round_, user=request.user)
        elif what == "resume":
            clock.tournament_round_clock_resume(event=event, round=round_, user=request.user)
        elif what == "extend":
            clock.tournament_round_clock_extend(
                event=event, round=round_, minutes=minutes, user=request.user
            )
        else:
            raise TournamentError.single("choose start, pause, resume or extend", field="clock")
    except TournamentError as error:
        return tournament_round_page(
            request, event, round_, errors=problems_by_field(error.problems)
        )
    return redirect("tournaments:desk_round", pk=event.pk, number=round_.number)
