"""The director's bracket page, under /desk/<event>/bracket/: create, cut, override, advance, print.

Thin views: parse, make one service call, render. A director of the event only, checked at
every request (404 for anyone else).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from common import throttles
from printing.errors import PrintRequestError
from printing.services import printjob_create
from scoring.engines.base import N_
from scoring.wording import problem_text
from tournaments.brackets import selectors as bracket_reads
from tournaments.brackets import services as brackets
from tournaments.brackets.core.changes import REASON_LONGEST
from tournaments.brackets.sheet import BRACKET_SHEETS
from tournaments.errors import TournamentError
from tournaments.web.desk.access import directed_event, director_required

if TYPE_CHECKING:
    from tournaments.models import Event

DESK = "tournaments/bracket_desk.html"


def _int(value: Any, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _settings(post: Any, event: Event) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "seeding": post.get("seeding", bracket_reads.SETTINGS_DEFAULTS["seeding"]),
        "draw_rule": post.get("draw_rule", bracket_reads.SETTINGS_DEFAULTS["draw_rule"]),
        "third_place": post.get("third_place") == "on",
        "grand_final": post.get("grand_final", "reset"),
        "table_size": _int(post.get("table_size")),
        "advance": _int(post.get("advance"), 1) or 1,
        "final_table_size": _int(post.get("final_table_size")),
        "placement_tables": post.get("placement_tables") == "on",
    }
    if settings["seeding"] == bracket_reads.SEEDING_MANUAL:
        settings["order"] = bracket_reads.entrant_ids_named(event=event, text=post.get("order", ""))
    return settings


@director_required
@never_cache
@require_http_methods(["GET", "POST"])
def bracket_desk(request: HttpRequest, pk: int) -> HttpResponse:
    event = directed_event(request, pk)
    problems: list[Any] = []
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "create":
                brackets.stage_create(
                    event=event,
                    kind=request.POST.get("kind", ""),
                    user=request.user,
                    **_settings(request.POST, event),
                )
            elif action == "cut":
                brackets.stage_cut(
                    event=event,
                    size=_int(request.POST.get("size"), 0) or 0,
                    kind=request.POST.get("kind", ""),
                    user=request.user,
                    **_settings(request.POST, event),
                )
            elif action == "override":
                brackets.bracket_override(
                    event=event,
                    match=request.POST.get("match", ""),
                    finish=bracket_reads.entrant_ids_named(
                        event=event, text=request.POST.get("finish", "")
                    ),
                    reason=request.POST.get("reason", ""),
                    user=request.user,
                )
            elif action == "advance":
                brackets.stage_advance(event=event, user=request.user)
            else:
                raise TournamentError.single(N_("choose what to do"), field="action")
        except TournamentError as error:
            problems = [
                {"field": p.field, "message": problem_text(p, seats_from=1)} for p in error.problems
            ]
        else:
            return redirect("tournaments:bracket_desk", pk=event.pk)
    page = bracket_reads.bracket_for(event=event)
    context = {
        "event": event,
        "page": page,
        "problems": problems,
        **bracket_reads.bracket_desk_choices(event=event),
        "form": request.POST if problems else {},
        "reason_longest": REASON_LONGEST,
    }
    return render(request, DESK, context, status=400 if problems else 200)


@director_required
@require_POST
def bracket_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket as a print job (the printing app draws it and keeps the file)."""
    event = directed_event(request, pk)
    try:
        what = BRACKET_SHEETS.request(event=event)
    except PrintRequestError:
        return redirect("tournaments:bracket_desk", pk=event.pk)
    if (refusal := throttles.refused(request, "print_jobs")) is not None:
        return refusal
    job = printjob_create(what=what, paper=request.POST.get("paper") or None)
    return redirect("printing:print_job", token=job.token)
