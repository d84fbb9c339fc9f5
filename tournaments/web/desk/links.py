"""The players' own links at the desk: each entrant's link and its QR code, a link revoked
and reissued, the pass cards printed, and players checked in by their pass.

Everything here is the director's alone (``director_required``, and 404 for an event the
user may not direct, a scorer's included): whoever holds a link acts as its player. Thin
views: read the form, make one service call, render the page or one of its partials for
htmx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import segno
from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common import throttles
from common.htmx import HtmxHttpRequest
from common.security_headers import HEADER, header_value
from printing.errors import PrintRequestError
from printing.paper import default_paper, paper_choices, paper_from
from printing.render import render as render_pdf
from printing.views import safe_filename
from scoring.entry.fields import parse_int
from scoring.wording import problem_text
from tournaments.events import selectors, services
from tournaments.events.passes import PASS_LONGEST, private_link, written_link
from tournaments.printouts import passes as pass_cards
from tournaments.printouts.sources import site_address
from tournaments.web.desk.access import directed_event, director_required

if TYPE_CHECKING:
    from tournaments.models import Entrant, Event

LINKS = "tournaments/desk/links.html"
LINKS_PAGE = 30  # rows of links at a time: each code takes some 15 ms to make
# Up to this many cards the sheet is drawn at once and sent back; more go to a print job.
PASSES_AT_ONCE = 100  # some 2 s of drawing


def qr_svg(link: str) -> str:
    """The link's QR code as inline SVG that scales to its box (a viewBox, no fixed size)."""
    return segno.make(link, error="m").svg_inline(omitsize=True, dark="#1d2521", light="#ffffff")


def site_of(request: HtmxHttpRequest) -> str:
    """Where players' phones reach the site: the configured address, else the request's."""
    return site_address(request.build_absolute_uri("/"))


def link_rows(entrants: list[Entrant], site: str) -> list[dict[str, Any]]:
    rows = []
    for entrant in entrants:
        link = private_link(site, entrant.private_token) if site else ""
        rows.append(
            {
                "entrant": entrant,
                "link": link,
                "written": written_link(link),
                "qr": qr_svg(link) if link else "",
            }
        )
    return rows


def links_context(request: HtmxHttpRequest, event: Event, **extra: Any) -> dict[str, Any]:
    asked = request.POST if request.method == "POST" else request.GET
    query = asked.get("q", "")[:40]
    shown, page, count = selectors.entrants_page(
        event=event, query=query, page=parse_int(asked.get("page", "1")) or 1, per_page=LINKS_PAGE
    )
    counts = selectors.entrant_counts(event=event)
    site = site_of(request)
    return {
        "event": event,
        "rows": link_rows(shown, site),
        "site": site,
        "pager": {
            "q": query,
            "page": page,
            "pages": max(1, -(-count // LINKS_PAGE)),
            "found": count,
        },
        "entrant_total": counts.registered,
        "active_count": counts.active,
        "checked_count": counts.checked_in,
        "closed": selectors.event_closed(event),
        "read_only": selectors.event_closed(event),
        "papers": paper_choices(),
        "paper": default_paper(),
        "pass_longest": PASS_LONGEST,
        "errors": {},
        **extra,
    }


def camera_allowed(response: HttpResponse) -> HttpResponse:
    """This page alone may use the camera (to scan passes): every other feature as the
    site's policy says."""
    policy = {**getattr(settings, "PERMISSIONS_POLICY", {}), "camera": ["self"]}
    response[HEADER] = header_value(policy)
    return response


def links_page(
    request: HtmxHttpRequest, event: Event, part: str = "", status: int = 200, **extra: Any
) -> HttpResponse:
    event.refresh_from_db()
    context = links_context(request, event, **extra)
    template = f"{LINKS}#{part}" if part and request.htmx else LINKS
    return camera_allowed(render(request, template, context, status=status))


def own_entrant(event: Event, entrant_id: int) -> Entrant:
    entrant = selectors.entrant_of(event=event, pk=entrant_id)
    if entrant is None:
        raise Http404("no such player")
    return entrant


def refusal_words(error: services.TournamentError) -> str:
    words = " ".join(problem_text(p) for p in error.problems)
    return words[:1].upper() + words[1:] + ("" if words.endswith(".") else ".")


@never_cache
@director_required
@require_GET
def desk_links(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every player's own link and its code, searchable, a page at a time."""
    event = directed_event(request, pk)  # a scorer sees no player's link
    reissued = parse_int(request.GET.get("reissued", ""))
    part = "links" if request.GET.get("part") == "links" else ""
    found = selectors.entrant_of(event=event, pk=reissued) if reissued else None
    return links_page(request, event, part, reissued=found)


@never_cache
@director_required
@require_POST
def entrant_link_reissue(request: HtmxHttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    """Revoke one player's link and give them a new one (the form is the confirm step)."""
    event = directed_event(request, pk)
    entrant = own_entrant(event, entrant_id)
    if request.POST.get("confirm") != "1":
        return links_page(
            request, event, "links", refused=gettext("Nothing changed: confirm the new link first.")
        )
    entrant = services.entrant_link_reissue(event=event, entrant=entrant, user=request.user)
    if request.htmx:
        return links_page(request, event, "links", reissued=entrant)
    return redirect(reverse("tournaments:desk_links", args=[event.pk]) + f"?reissued={entrant.pk}")


@never_cache
@director_required
@require_POST
def check_in_by_pass(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Check in the player whose pass was scanned or typed (their link, or its token)."""
    event = directed_event(request, pk)
    text = request.POST.get("pass", "")
    try:
        entrant, already = services.entrant_check_in_by_pass(
            event=event, text=text, user=request.user
        )
    except services.TournamentError as error:
        return links_page(
            request, event, "pass_result", pass_refused=refusal_words(error), pass_text=text[:120]
        )
    return links_page(request, event, "pass_result", pass_entrant=entrant, pass_already=already)


@never_cache
@director_required
@require_POST
def check_in_these(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Check in the players ticked on the links page."""
    event = directed_event(request, pk)
    ids = [n for n in (parse_int(v) for v in request.POST.getlist("entrant")) if n is not None]
    try:
        count = services.entrants_check_in_these(event=event, entrant_ids=ids, user=request.user)
    except services.TournamentError as error:
        return links_page(request, event, "links", refused=refusal_words(error))
    return links_page(request, event, "links", checked_these=count)


@never_cache
@director_required
@require_POST
def passes_print(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pass cards of every player not dropped: drawn at once and sent back, or for a
    big event a print job whose page shows the PDF when it is drawn."""
    event = directed_event(request, pk)
    paper = paper_from(request.POST.get("paper"))
    base_url = request.build_absolute_uri("/")
    try:
        if event.entrants.filter(dropped=False).count() <= PASSES_AT_ONCE:
            what = pass_cards.event_passes_request(event=event, base_url=base_url)
            return pass_pdf(what, paper)
        if (refusal := throttles.refused(request, "print_jobs")) is not None:
            return refusal
        job = pass_cards.event_passes_print(event=event, paper=paper, base_url=base_url)
    except PrintRequestError as error:
        return render(
            request, "printing/job.html", {"job": None, "problem": str(error)}, status=400
        )
    return redirect("printing:print_job", token=job.token)


def pass_pdf(what: dict[str, Any], paper: str) -> HttpResponse:
    """A pass sheet drawn now, sent as a download (never kept, never cached)."""
    source = pass_cards.SOURCES_BY_KIND[what["kind"]]
    sheets, _ = source.sheets(what)
    pdf = render_pdf(sheets, paper, title=gettext("Pass cards"))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="{safe_filename(source.filename(what))}"'
    )
    response["Cache-Control"] = "private, no-store"
    return response
