"""A new game, the same table again, and the games this phone has opened."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from common import throttles
from common.htmx import HtmxHttpRequest
from scoring.entry.forms import NewGameForm
from scoring.selectors import (
    game_score,
    games_of_tokens,
    recent_tables,
)
from scoring.services import (
    Actor,
    GameChangeError,
    game_create,
    game_start_again,
)
from scoring.web import presenters
from scoring.web.phone import (
    GAME_BY_TOKEN,
    GAMES_KEY,
    device_id,
    my_seat,
    optional_table_url,
    optional_url,
    remember_game,
    remember_seat,
    with_device,
)
from scoring.web.table_page import joined


@never_cache
@require_http_methods(["GET", "POST"])
def game_new(request: HtmxHttpRequest) -> HttpResponse:
    template = "scoring/game_new.html"
    if request.method == "GET":
        data = request.GET if "game" in request.GET else None
        recent = recent_tables(request.session.get(GAMES_KEY, []))
        return render(
            request,
            template,
            {"form": NewGameForm(data), "recent": [recent_link(table) for table in recent]},
        )
    if request.POST.get("again"):
        return game_again(request, request.POST["again"])
    form = NewGameForm(request.POST)
    if request.POST.get("refresh"):
        if request.htmx:
            return render(request, f"{template}#setup", {"form": form})
        return render(request, template, {"form": form})
    if settings.TABLESCORE_REQUIRE_LOGIN_TO_CREATE and not request.user.is_authenticated:
        form.errors.append(gettext("Sign in to start a game."))
        return render(request, template, {"form": form})
    record = form.clean()
    if record is not None:
        # Only a game about to be created counts, never the form's refreshes.
        if (refusal := throttles.refused(request, "games")) is not None:
            return refusal
        try:
            result = game_create(
                record=record,
                actor=Actor(device=device_id(request), user=request.user),
                confirmation=form.confirmation,
            )
        except GameChangeError as invalid:
            throttles.give_back(request, "games")
            form.add_problems(invalid.problems)
        else:
            game = result.game
            remember_game(request, game)
            url = reverse("scoring:table", args=[game.table_token]) + "?new=1"
            return with_device(request, redirect(url))
    return render(request, template, {"form": form})


def game_again(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A recent table of this phone started again in one tap: the same players, options and
    confirmation, the first deal passing on; this phone keeps its seat."""
    old = None
    if token in request.session.get(GAMES_KEY, []):
        old = GAME_BY_TOKEN.first(token)
    if old is None:
        form = NewGameForm(None)
        form.errors.append(
            gettext("That game is not among this phone's recent games: choose the game below.")
        )
        return render(request, "scoring/game_new.html", {"form": form})
    try:
        result = game_start_again(
            game=old, actor=Actor(device=device_id(request), user=request.user)
        )
    except GameChangeError as invalid:
        form = NewGameForm(None)
        form.errors.append(joined(invalid.problems))
        return render(request, "scoring/game_new.html", {"form": form})
    remember_game(request, result.game)
    remember_seat(request, result.game, my_seat(request, old))
    url = reverse("scoring:table", args=[result.game.table_token]) + "?new=1"
    return with_device(request, redirect(url))


def recent_link(table: Any) -> dict[str, str]:
    """A recent table as a link that fills the new-game page with its game and players."""
    query = QueryDict(mutable=True)
    query["game"] = table.kind
    query["players"] = str(len(table.players))
    for seat, name in enumerate(table.players):
        query[f"player-{seat}"] = name
    query["confirmation"] = table.confirmation
    return {
        "title": table.title,
        "players": ", ".join(table.players),
        "url": reverse("scoring:game_new") + "?" + query.urlencode() + "#ready",
        "token": table.token,
        "dealer": table.players[(table.first_dealer + 1) % len(table.players)],
    }


@never_cache
@require_GET
def my_games(request: HtmxHttpRequest) -> HttpResponse:
    games = []
    for game in games_of_tokens(request.session.get(GAMES_KEY, [])):
        score = game_score(game)
        seats = presenters.seat_infos(game)
        games.append(
            {
                "game": game,
                "board": presenters.scoreboard(game, score, seats),
                "seat": seats[s] if (s := my_seat(request, game)) is not None else None,
                "rounds": len(score.rounds),
                "scoresheet_url": optional_table_url("printing:scoresheet_pdf", game.table_token),
            }
        )
    return render(
        request,
        "scoring/my_games.html",
        {
            "games": games,
            "blank_sheets_url": optional_url("printing:blank_sheets"),
            "print_games_url": optional_url("printing:print_games") if games else "",
        },
    )
