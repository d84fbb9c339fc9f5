"""Thin views of the bracket: parse, make one service call, render.

The public page is found by the event's public token; the director's page by the event's
id, for a director of the event only (checked at every request; anyone else gets a 404).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config import throttles
from printing.errors import PrintRequestError
from printing.render.diagram import render_diagrams
from printing.services import printjob_create
from tournaments import brackets
from tournaments.bracket_sheet import BRACKET_SHEETS, bracket_diagram
from tournaments.directors import directed_event, director_required
from tournaments.models import BracketStage, Event
from tournaments.scheduling.brackets.changes import REASON_LONGEST

PAGE = "tournaments/bracket.html"
BOARD = "tournaments/bracket.html#board"
DESK = "tournaments/bracket_desk.html"


def _public(token: str) -> Event:
    return get_object_or_404(Event, public_token=token)


def _owned(request: HttpRequest, event_id: int) -> Event:
    return directed_event(request, event_id)


@never_cache
@require_GET
def bracket_page(request: HttpRequest, token: str) -> HttpResponse:
    event = _public(token)
    page = brackets.bracket_for(event=event)
    context = {"event": event, "page": page, "big": request.GET.get("big") == "1"}
    return render(request, BOARD if request.htmx else PAGE, context)


@never_cache
@require_GET
def bracket_live(request: HttpRequest, token: str) -> HttpResponse:
    """The board again, or 204 (nothing to swap) when nothing changed since ``rev``."""
    event = _public(token)
    if request.GET.get("rev") == str(event.revision):
        return HttpResponse(status=204)
    page = brackets.bracket_for(event=event)
    return render(request, BOARD, {"event": event, "page": page})


@require_GET
def bracket_pdf(request: HttpRequest, token: str) -> HttpResponse:
    event = _public(token)
    page = brackets.bracket_for(event=event)
    if page is None:
        raise Http404("no bracket yet")
    paper = "LETTER" if request.GET.get("paper", "").lower() == "letter" else "A4"
    pdf = render_diagrams([bracket_diagram(page)], paper, title=f"{event.name}: bracket")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="bracket-{event.pk}.pdf"'
    return response


def _names_to_ids(event: Event, text: str) -> list[int]:
    """Entrants named one per line (or by id), in the order given; unknown names refused."""
    by_name = {name.casefold(): pk for pk, name in event.entrants.values_list("pk", "name")}
    ids = []
    for line in text.splitlines():
        wanted = line.strip()
        if not wanted:
            continue
        if wanted.isdigit():
            ids.append(int(wanted))
        elif wanted.casefold() in by_name:
            ids.append(by_name[wanted.casefold()])
        else:
            raise brackets.BracketError.single(f"{wanted} is not entered", field="order")
    return ids


def _int(value: Any, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _settings(post: Any, event: Event) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "seeding": post.get("seeding", BracketStage.Seeding.STANDINGS),
        "draw_rule": post.get("draw_rule", BracketStage.DrawRule.HIGHER_SEED),
        "third_place": post.get("third_place") == "on",
        "grand_final": post.get("grand_final", "reset"),
        "table_size": _int(post.get("table_size")),
        "advance": _int(post.get("advance"), 1) or 1,
        "final_table_size": _int(post.get("final_table_size")),
        "placement_tables": post.get("placement_tables") == "on",
    }
    if settings["seeding"] == BracketStage.Seeding.MANUAL:
        settings["order"] = _names_to_ids(event, post.get("order", ""))
    return settings


@director_required
@never_cache
@require_http_methods(["GET", "POST"])
def bracket_desk(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _owned(request, event_id)
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
                    finish=_names_to_ids(event, request.POST.get("finish", "")),
                    reason=request.POST.get("reason", ""),
                    user=request.user,
                )
            elif action == "advance":
                brackets.stage_advance(event=event, user=request.user)
            else:
                raise brackets.BracketError.single("choose what to do", field="action")
        except brackets.BracketError as error:
            problems = error.problems
        else:
            return redirect("brackets:desk", event_id=event.pk)
    page = brackets.bracket_for(event=event)
    context = {
        "event": event,
        "page": page,
        "problems": problems,
        "kinds": BracketStage.Kind.choices,
        "seedings": BracketStage.Seeding.choices,
        "draw_rules": BracketStage.DrawRule.choices,
        "entrants": list(event.entrants.filter(dropped=False).order_by("name")),
        "has_rounds": event.rounds.exists(),
        "form": request.POST if problems else {},
        "reason_longest": REASON_LONGEST,
    }
    return render(request, DESK, context, status=400 if problems else 200)


@director_required
@require_POST
def bracket_print(request: HttpRequest, event_id: int) -> HttpResponse:
    """The bracket as a print job (the printing app draws it and keeps the file)."""
    event = _owned(request, event_id)
    try:
        what = BRACKET_SHEETS.request(event=event)
    except PrintRequestError:
        return redirect("brackets:desk", event_id=event.pk)
    if (refusal := throttles.refused(request, "print_jobs")) is not None:
        return refusal
    job = printjob_create(what=what, paper=request.POST.get("paper") or None)
    return redirect("printing:print_job", token=job.token)
