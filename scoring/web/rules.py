"""The rules card of a table's game: a page of its own, or a card over the table page."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render

from common.htmx import HtmxHttpRequest
from scoring.games import kit_for
from scoring.models import Game
from scoring.web import presenters


def table_rules(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game, table_token=token)
    kit = kit_for(game.kind)
    context = {
        "game": game,
        "engine": game.engine,
        "rules": kit.rules,
        "settings": presenters.rules_settings(game.engine, game.options),
    }
    template = "scoring/rules.html#card" if request.htmx else "scoring/rules.html"
    return render(request, template, context)
