"""The roster players' own links at the club desk (/desk/club/links/): each player's link
across the nights of the roster and its QR code, a link revoked and reissued, and the
club's pass cards. The director's alone: whoever holds a link acts as its player."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common.folding import folded
from common.htmx import HtmxHttpRequest
from printing.errors import PrintRequestError
from printing.paper import default_paper, paper_choices, paper_from
from scoring.entry.fields import parse_int
from tournaments.club import selectors, services
from tournaments.events.passes import private_link, written_link
from tournaments.printouts import passes as pass_cards
from tournaments.web.desk.access import director_required
from tournaments.web.desk.links import pass_pdf, qr_svg, site_of

TEMPLATE = "tournaments/desk/links_club.html"
LINKS_PAGE = 30


def club_links_context(request: HtmxHttpRequest, **extra: Any) -> dict[str, Any]:
    roster = services.roster_for(owner=request.user)
    asked = request.POST if request.method == "POST" else request.GET
    query = asked.get("q", "").strip()[:40]
    found = selectors.live_players(roster).order_by("folded", "name", "pk")
    if query:
        found = found.filter(folded__contains=folded(query))
    count = found.count()
    pages = max(1, -(-count // LINKS_PAGE))
    page = min(max(1, parse_int(asked.get("page", "1")) or 1), pages)
    site = site_of(request)
    rows = []
    for player in found[(page - 1) * LINKS_PAGE : page * LINKS_PAGE]:
        link = private_link(site, player.private_token) if site else ""
        rows.append(
            {
                "player": player,
                "link": link,
                "written": written_link(link),
                "qr": qr_svg(link) if link else "",
            }
        )
    return {
        "roster": roster,
        "rows": rows,
        "site": site,
        "pager": {"q": query, "page": page, "pages": pages, "found": count},
        "papers": paper_choices(),
        "paper": default_paper(),
        **extra,
    }


def club_links_page(request: HtmxHttpRequest, part: str = "", **extra: Any) -> HttpResponse:
    context = club_links_context(request, **extra)
    template = f"{TEMPLATE}#{part}" if part and request.htmx else TEMPLATE
    return render(request, template, context)


@never_cache
@director_required
@require_GET
def roster_links(request: HtmxHttpRequest) -> HttpResponse:
    reissued = parse_int(request.GET.get("reissued", ""))
    extra: dict[str, Any] = {}
    if reissued:
        roster = services.roster_for(owner=request.user)
        extra["reissued"] = selectors.live_players(roster).filter(pk=reissued).first()
    return club_links_page(request, "links" if request.GET.get("part") == "links" else "", **extra)


@never_cache
@director_required
@require_POST
def player_link_reissue(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    """Revoke one roster player's link and give them a new one (the form confirms)."""
    roster = services.roster_for(owner=request.user)
    player = selectors.live_players(roster).filter(pk=player_id).first()
    if player is None:
        raise Http404("no such player")
    if request.POST.get("confirm") != "1":
        return club_links_page(
            request, "links", refused=gettext("Nothing changed: confirm the new link first.")
        )
    try:
        player = services.player_link_reissue(player=player, user=request.user)
    except services.ClubError as error:
        return club_links_page(request, "links", refused=str(error))
    if request.htmx:
        return club_links_page(request, "links", reissued=player)
    return redirect(reverse("club:roster_links") + f"?reissued={player.pk}")


@never_cache
@director_required
@require_POST
def roster_passes_print(request: HtmxHttpRequest) -> HttpResponse:
    """The club's pass cards, a card per roster player, drawn at once and sent back."""
    roster = services.roster_for(owner=request.user)
    try:
        what = pass_cards.roster_passes_request(
            roster=roster, base_url=request.build_absolute_uri("/")
        )
        return pass_pdf(what, paper_from(request.POST.get("paper")))
    except PrintRequestError as error:
        return render(
            request, "printing/job.html", {"job": None, "problem": str(error)}, status=400
        )
