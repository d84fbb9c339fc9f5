"""The players' bracket pages, under /e/<public token>/bracket/: the board, its live part, the PDF.

Found by the event's public token; the director's bracket page is in ``web.desk.bracket_pages``.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.htmx import HtmxHttpRequest
from printing.render.diagram import render_diagrams
from tournaments.brackets import selectors as brackets
from tournaments.brackets.sheet import bracket_diagram
from tournaments.web.public.views import public_event

PAGE = "tournaments/bracket.html"
BOARD = "tournaments/bracket.html#board"
WALL = "tournaments/bracket_wall.html"
WALL_BOARD = "tournaments/bracket_wall.html#board"


@never_cache
@require_GET
def bracket_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    event = public_event(token)
    page = brackets.bracket_for(event=event)
    context = {"event": event, "page": page, "big": request.GET.get("big") == "1"}
    return render(request, BOARD if request.htmx else PAGE, context)


@never_cache
@require_GET
def bracket_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The board again, or 204 (nothing to swap) when nothing changed since ``rev``."""
    event = public_event(token)
    if request.GET.get("rev") == str(event.revision):
        return HttpResponse(status=204)
    page = brackets.bracket_for(event=event)
    return render(request, BOARD, {"event": event, "page": page})


@never_cache
@require_GET
def bracket_wall(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The bracket on a projector: the matches being played, then the rest, slide by slide."""
    event = public_event(token)
    wall = brackets.bracket_wall_for(event=event)
    return render(request, WALL_BOARD if request.htmx else WALL, {"event": event, "wall": wall})


@never_cache
@require_GET
def bracket_wall_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The wall's slides again, or 204 (nothing to swap) when nothing changed since ``rev``."""
    event = public_event(token)
    if request.GET.get("rev") == str(event.revision):
        return HttpResponse(status=204)
    wall = brackets.bracket_wall_for(event=event)
    return render(request, WALL_BOARD, {"event": event, "wall": wall})


@require_GET
def bracket_pdf(request: HtmxHttpRequest, token: str) -> HttpResponse:
    event = public_event(token)
    page = brackets.bracket_for(event=event)
    if page is None:
        raise Http404("no bracket yet")
    paper = "LETTER" if request.GET.get("paper", "").lower() == "letter" else "A4"
    pdf = render_diagrams(
        [bracket_diagram(page)], paper, title=gettext("{event}: bracket").format(event=event.name)
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="bracket-{event.pk}.pdf"'
    return response
