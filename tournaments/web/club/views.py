"""The roster desk (/desk/club/...) and the public season, leaderboard and player pages.

Thin views: read the form, make one service call, render. The desk needs an active
staff director (``tournaments.directors``) and shows a director only their own roster;
the public pages need none: the season's or roster's public token in the URL is the
capability. Live parts poll with a revision and get 204 while nothing changed.
"""

from __future__ import annotations

import io
from typing import Any, TypeVar

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common import csvsafe
from common.htmx import HtmxHttpRequest
from common.jsondoc import DocumentError, read_json
from printing.paper import paper_from
from printing.render.document import render_one
from scoring.engines.base import N_
from scoring.wording import problem_text
from tournaments.club import selectors, services
from tournaments.club.core.table import COUNTING_LABELS, TIEBREAK_LABELS, Counting
from tournaments.club.sheet import season_listing
from tournaments.web.desk.access import directed_event, director_required

CSV_LARGEST = 128 * 1024
JSON_LARGEST = 4 * 1024 * 1024


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


T = TypeVar("T")


def _found(thing: T | None) -> T:
    """What the address names, or a 404 page."""
    if thing is None:
        raise Http404
    return thing


def _problems(error: services.ClubError) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for problem in error.problems:
        found.setdefault(problem.field or "form", []).append(problem_text(problem, seats_from=1))
    return found


# =========================================================================== the desk


def _club_page(request: HtmxHttpRequest, **extra: Any) -> HttpResponse:
    """The roster desk of the signed-in director, with what the last form left (errors,
    questions, what was imported)."""
    desk = selectors.club_desk(roster=services.roster_for(owner=request.user))
    context = {
        "roster": desk.roster,
        "players": desk.players,
        "seasons": desk.seasons,
        "counting_labels": [(c.value, gettext(label)) for c, label in COUNTING_LABELS.items()],
        "tiebreak_labels": [(t.value, gettext(label)) for t, label in TIEBREAK_LABELS.items()],
        "leaderboard_url": reverse("club:leaderboard", args=[desk.roster.public_token]),
        **extra,
    }
    return render(request, "tournaments/club_desk.html", context)


@never_cache
@director_required
@require_GET
def club(request: HtmxHttpRequest) -> HttpResponse:
    return _club_page(request)


@never_cache
@director_required
@require_POST
def player_add(request: HtmxHttpRequest) -> HttpResponse:
    roster = services.roster_for(owner=request.user)
    try:
        services.player_create(
            roster=roster,
            name=request.POST.get("name", ""),
            contact=request.POST.get("contact", ""),
            user=request.user,
            allow_same=request.POST.get("allow_same") == "1",
        )
    except services.ClubError as error:
        return _club_page(request, add_errors=_problems(error), add_data=request.POST)
    return redirect("club:club")


@never_cache
@director_required
@require_POST
def roster_import(request: HtmxHttpRequest) -> HttpResponse:
    roster = services.roster_for(owner=request.user)
    upload = request.FILES.get("file")
    if upload is not None:
        raw = upload.read(CSV_LARGEST + 1)
        text = raw.decode("utf-8-sig", errors="replace") if len(raw) <= CSV_LARGEST else ""
        if len(raw) > CSV_LARGEST:
            too_large = gettext("the file is larger than {size} kB").format(
                size=CSV_LARGEST // 1024
            )
            errors = {"file": [too_large]}
            return _club_page(request, import_errors=errors)
    else:
        text = request.POST.get("text", "")[:CSV_LARGEST]
    choices = {
        line: value
        for key, value in request.POST.items()
        if key.startswith("choice-")
        and (line := _int(key[7:])) is not None
        and isinstance(value, str)
        and value
    }
    try:
        result = services.roster_import(
            roster=roster, text=text, choices=choices, user=request.user
        )
    except services.ClubError as error:
        return _club_page(request, import_errors=_problems(error), import_text=text)
    if result.ambiguous:
        return _club_page(request, questions=result.ambiguous, import_text=text)
    return _club_page(request, imported=result)


@never_cache
@director_required
@require_POST
def player_merge(request: HtmxHttpRequest) -> HttpResponse:
    roster = services.roster_for(owner=request.user)
    keep = selectors.roster_player(roster=roster, player_id=_int(request.POST.get("keep")))
    duplicate = selectors.roster_player(
        roster=roster, player_id=_int(request.POST.get("duplicate"))
    )
    if keep is None or duplicate is None:
        errors = {"duplicate": [gettext("choose the player to keep and the duplicate")]}
        return _club_page(request, merge_errors=errors)
    try:
        services.player_merge(keep=keep, duplicate=duplicate, user=request.user)
    except services.ClubError as error:
        return _club_page(request, merge_errors=_problems(error))
    return redirect("club:club")


def _player_desk_context(desk: selectors.PlayerDesk, **extra: Any) -> dict[str, Any]:
    player = desk.player
    return {
        "player": player,
        "rating": desk.rating,
        "public_url": reverse("club:player", args=[player.roster.public_token, player.pk]),
        **extra,
    }


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def player_desk(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    """One roster player at the desk: their rating and public page; renamed here."""
    roster = services.roster_for(owner=request.user)
    player = _found(selectors.roster_player(roster=roster, player_id=player_id))
    if player.merged_into_id:
        return redirect("club:player_desk", player_id=player.merged_into_id)
    template = "tournaments/club_player.html"
    if request.method == "GET":
        context = _player_desk_context(
            selectors.roster_player_desk(player=player), renamed=request.GET.get("renamed") == "1"
        )
        return render(request, template, context)
    try:
        services.player_rename(
            player=player,
            name=request.POST.get("name", ""),
            user=request.user,
            allow_same=request.POST.get("allow_same") == "1",
        )
    except services.ClubError as error:
        context = _player_desk_context(
            selectors.roster_player_desk(player=player),
            rename_errors=_problems(error),
            rename_data=request.POST,
        )
        return render(request, template, context)
    return redirect(f"{reverse('club:player_desk', args=[player.pk])}?renamed=1")


@never_cache
@director_required
@require_POST
def season_new(request: HtmxHttpRequest) -> HttpResponse:
    roster = services.roster_for(owner=request.user)
    rule = {
        "counting": request.POST.get("counting", Counting.ALL),
        "best": request.POST.get("best", "0"),
        "drop": request.POST.get("drop", "0"),
        "min_nights": request.POST.get("min_nights", "0"),
        "attendance": request.POST.get("attendance", "0"),
        "place_points": request.POST.get("place_points", ""),
        "tiebreaks": request.POST.getlist("tiebreaks"),
    }
    try:
        services.season_create(
            roster=roster, name=request.POST.get("name", ""), rule=rule, user=request.user
        )
    except services.ClubError as error:
        return _club_page(request, season_errors=_problems(error), season_data=request.POST)
    return redirect("club:club")


def _night_context(desk: selectors.NightDesk, **extra: Any) -> dict[str, Any]:
    return {
        "event": desk.event,
        "night": desk.night,
        "seasons": desk.seasons,
        "entrants": desk.entrants,
        "players": desk.players,
        **extra,
    }


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def event_night(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """An event as a club night: its season, rated or not, balanced tables; who is who."""
    event = directed_event(request, pk)
    template = "tournaments/club_night.html"
    # The page reads the event's owner's roster; the director's own picks come from theirs.
    owner_roster = services.roster_for(owner=event.owner)
    if request.method == "GET":
        return render(
            request,
            template,
            _night_context(selectors.club_night_desk(event=event, roster=owner_roster)),
        )
    roster = services.roster_for(owner=request.user)
    try:
        if "link" in request.POST:
            entrant = _found(
                selectors.event_entrant(event=event, entrant_id=_int(request.POST["link"]))
            )
            player = _found(
                selectors.roster_player(roster=roster, player_id=_int(request.POST.get("player")))
            )
            services.entrant_link(
                entrant=entrant,
                player=player,
                member=_int(request.POST.get("member")) or 0,
                user=request.user,
            )
        else:
            season_id = _int(request.POST.get("season"))
            season = selectors.roster_season(roster=roster, season_id=season_id)
            if request.POST.get("season") and season is None:
                raise services.ClubError.single(N_("choose one of your seasons"), field="season")
            result = services.club_night_set(
                event=event,
                season=season,
                rated=request.POST.get("rated") == "1",
                balanced=request.POST.get("balanced") == "1",
                user=request.user,
            )
            return render(
                request,
                template,
                _night_context(
                    selectors.club_night_desk(event=event, roster=owner_roster), linked=result
                ),
            )
    except services.ClubError as error:
        return render(
            request,
            template,
            _night_context(
                selectors.club_night_desk(event=event, roster=owner_roster), errors=_problems(error)
            ),
        )
    return redirect("club:event_night", pk=event.pk)


# =========================================================================== public pages


def _live(request: HtmxHttpRequest, revision: str) -> bool:
    return bool(request.htmx) and request.GET.get("rev") == revision


def _page(request: HtmxHttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    if request.htmx and "rev" in request.GET:
        return render(request, f"{template}#live", context)
    return render(request, template, context)


@never_cache
@require_GET
def season_page(request: HtmxHttpRequest, token: str, projector: bool = False) -> HttpResponse:
    season = _found(selectors.season_by_token(token))
    revision = selectors.season_revision(season)
    if _live(request, revision):
        return HttpResponse(status=204)
    name = "club:season_projector" if projector else "club:season"
    context = {
        "view": selectors.season_view(season=season),
        "revision": revision,
        "live_url": reverse(name, args=[token]),
        "projector": projector,
        "leaderboard_url": reverse("club:leaderboard", args=[season.roster.public_token]),
        "roster": season.roster,
    }
    return _page(request, "tournaments/season.html", context)


@never_cache
@require_GET
def season_csv(request: HtmxHttpRequest, token: str) -> HttpResponse:
    view = selectors.season_view(season=_found(selectors.season_by_token(token)))
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow(
        [
            gettext("Rank"),
            gettext("Name"),
            *[gettext("Night {number}").format(number=h.number) for h in view.nights],
            gettext("Nights"),
            gettext("Wins"),
            gettext("Total"),
        ]
    )
    for line in view.lines:
        writer.writerow(
            [
                line.rank if line.rank is not None else "",
                line.player.name,
                *[(c.text + ("" if c.counted else "*")) if c.text else "" for c in line.cells],
                line.played,
                line.wins,
                line.total,
            ]
        )
    writer.writerow([])
    writer.writerow(["", f"{view.rule_text} " + gettext("* a night that does not count.")])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    name = slugify(view.season.name) or "season"
    response["Content-Disposition"] = f'attachment; filename="{name}-table.csv"'
    return response


@never_cache
@require_GET
def season_pdf(request: HtmxHttpRequest, token: str) -> HttpResponse:
    view = selectors.season_view(season=_found(selectors.season_by_token(token)))
    pdf = render_one(season_listing(view), paper_from(request.GET.get("paper")))
    response = HttpResponse(pdf, content_type="application/pdf")
    name = slugify(view.season.name) or "season"
    response["Content-Disposition"] = f'inline; filename="{name}-table.pdf"'
    return response


@never_cache
@require_GET
def leaderboard(request: HtmxHttpRequest, token: str) -> HttpResponse:
    roster = _found(selectors.roster_by_token(token))
    revision = selectors.roster_revision(roster)
    if _live(request, revision):
        return HttpResponse(status=204)
    context = {
        "roster": roster,
        "lines": selectors.leaderboard(roster=roster),
        "seasons": selectors.roster_seasons(roster=roster),
        "revision": revision,
        "live_url": reverse("club:leaderboard", args=[token]),
    }
    return _page(request, "tournaments/leaderboard.html", context)


@never_cache
@require_GET
def player(request: HtmxHttpRequest, token: str, player_id: int) -> HttpResponse:
    roster = _found(selectors.roster_by_token(token))
    person = _found(selectors.roster_player(roster=roster, player_id=player_id))
    if person.merged_into_id:
        return redirect("club:player", token=token, player_id=person.merged_into_id)
    context = {
        "roster": roster,
        "page": selectors.player_page(player=person),
        "leaderboard_url": reverse("club:leaderboard", args=[token]),
    }
    return render(request, "tournaments/player.html", context)


@never_cache
@director_required
@require_GET
def roster_json(request: HtmxHttpRequest) -> HttpResponse:
    roster = services.roster_for(owner=request.user)
    response = JsonResponse(
        selectors.roster_export(roster=roster),
        json_dumps_params={"ensure_ascii": False, "indent": 1},
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(roster.name) or "club"}.json"'
    )
    return response


@never_cache
@director_required
@require_POST
def roster_json_import(request: HtmxHttpRequest) -> HttpResponse:
    roster = services.roster_for(owner=request.user)
    upload = request.FILES.get("file")
    raw = upload.read(JSON_LARGEST + 1) if upload is not None else b""
    try:
        if not raw:
            raise services.ClubError.single(N_("choose a roster file (.json)"), field="file")
        if len(raw) > JSON_LARGEST:
            raise services.ClubError.single(
                N_("the file is larger than {size} MB"),
                field="file",
                size=JSON_LARGEST // 1024 // 1024,
            )
        try:
            data = read_json(raw, largest=JSON_LARGEST)
        except DocumentError as error:
            raise services.ClubError.single(
                N_("the file {reason}"), field="file", reason=error.phrase
            ) from None
        result = services.roster_import_json(roster=roster, data=data, user=request.user)
    except services.ClubError as error:
        return _club_page(request, json_errors=_problems(error))
    return _club_page(request, imported=result)
