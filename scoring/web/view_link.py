"""The view link of a table (/v/<view token>/): the live scoreboard and every round,
read-only. It is what public pages link; it carries no way to change anything and never
the table's entry link (the entry token opens the table itself, /t/<table token>/)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.htmx import HtmxHttpRequest
from scoring.games import kit_for
from scoring.models import Game
from scoring.selectors import game_score, table_clock_key
from scoring.web import presenters
from scoring.web.phone import qr_svg

TEMPLATE = "scoring/view.html"


def watch_only_share(request: HttpRequest, game: Game) -> dict[str, str]:
    """The share box's watch-only part of a casual game: the view link and its QR code.

    An event's tables are watched from the event's public pages; they get none here."""
    if game.is_tournament_game:
        return {}
    url = request.build_absolute_uri(reverse("scoring:table_view", args=[game.view_token]))
    return {"view_url": url, "view_qr": qr_svg(url)}


def view_context(game: Game) -> dict[str, Any]:
    score = game_score(game)
    seats = presenters.seat_infos(game)
    rounds = list(game.rounds.order_by("number"))
    kit = kit_for(game.kind)
    return {
        "game": game,
        "engine": game.engine,
        "word": kit.word,
        "board": presenters.scoreboard(game, score, seats),
        "groups": presenters.groups_of(score, seats),
        "rows": presenters.round_rows(game, score, seats, rounds),
        "end_row": presenters.end_row(game, score, seats),
        "waiting": sum(1 for r in rounds if r.status != "confirmed"),
    }


@never_cache
@require_GET
def table_view(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game, view_token=token)
    return render(request, TEMPLATE, view_context(game))


@never_cache
@require_GET
def table_view_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The live part for polling: 204 while the revision shown is the game's and the
    round clock's key shown is the clock's."""
    if not request.htmx:
        return redirect("scoring:table_view", token=token)
    row = (
        Game.objects.filter(view_token=token)
        .values_list("pk", "revision", "is_tournament_game")
        .first()
    )
    if row is None:
        raise Http404("no such game")
    pk, revision, in_event = row
    if str(revision) == request.GET.get("rev") and request.GET.get("clock", "") == (
        table_clock_key(game_id=pk, is_tournament_game=in_event)
    ):
        return HttpResponse(status=204)
    game = get_object_or_404(Game, view_token=token)
    return render(request, f"{TEMPLATE}#live", view_context(game))
