"""A game's history page, and a round corrected from it."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from common.htmx import HtmxHttpRequest
from scoring.engines.base import ScoredGame
from scoring.entry.fields import SeatInfo, parse_int
from scoring.entry.forms import EntryForm
from scoring.games import kit_for
from scoring.models import ChangeRequest, Confirmation, Game, Round
from scoring.selectors import (
    game_score,
    table_closed,
)
from scoring.services import (
    GameChangeError,
    StaleRevision,
    round_correct,
)
from scoring.web import presenters
from scoring.web.phone import (
    actor_for,
    game_for,
    my_seat,
    posted_revision,
    with_device,
)
from scoring.web.table_actions import ask_the_desk, preview_response
from scoring.web.table_page import answer, history_page, new_entry_form, stale_context


@never_cache
@require_GET
def history(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = game_for(token)
    number = parse_int(request.GET.get("corrected", ""))
    corrected = game.rounds.filter(number=number).first() if number is not None else None
    return history_page(request, game, corrected=corrected)


def correction_form(
    request: HtmxHttpRequest, game: Game, number: int
) -> tuple[Round, EntryForm, list[SeatInfo], ScoredGame]:
    """The entry form of a recorded round: filled with the entry on GET, as posted after."""
    round_ = get_object_or_404(Round, game=game, number=number)
    score = game_score(game)
    seats = presenters.seat_infos(game)
    specs = game.engine.round_fields(len(seats), score.options or game.options)
    entry_form = kit_for(game.kind).entry_form
    data = entry_form.data_for(round_.entry, specs) if request.method == "GET" else request.POST
    return round_, new_entry_form(game, seats, score, number, data=data), seats, score


@never_cache
@require_http_methods(["GET", "POST"])
def round_correct_view(request: HtmxHttpRequest, token: str, number: int) -> HttpResponse:
    game = game_for(token)
    kit = kit_for(game.kind)
    round_, form, seats, score = correction_form(request, game, number)
    action = request.POST.get("action", "save")
    context = {
        "game": game,
        "seats": seats,
        "form": form,
        "number": number,
        "word": kit.word,
        "kit": kit,
        "round": round_,
        "was": presenters.round_rows(game, score, seats, [round_])[0],
        "game_template": kit.entry_template,
        "correcting": True,
        "upcoming": form.context,
        "heading": presenters.entry_heading(kit, form.context, seats),
        "post_url": reverse("scoring:round_correct", args=[game.table_token, number]),
        "key": "",
        "misdeal": round_.entry.get("misdeal") is True,
        # With confirmation on, a correction is confirmed again: the phone must say who it is.
        "ask_who": game.confirmation != Confirmation.OFF and my_seat(request, game) is None,
        "ask_who_chosen": request.POST.get("seat", ""),
        # The revision this form was opened at: a change made since refuses it, shown.
        "revision": game.revision if request.method == "GET" else posted_revision(request),
        "closed": table_closed(game),
        "why": request.POST.get("why", "")[:500],
    }
    template = "scoring/correct.html"
    if request.method == "GET":
        return with_device(request, render(request, template, context))
    if action == "preview":
        return preview_response(request, game, form, number, correcting=True)
    entry = {"misdeal": True} if action == "misdeal" else form.clean()
    if entry is not None and context["closed"]:
        error = ask_the_desk(request, game, ChangeRequest.Kind.CORRECT, number=number, entry=entry)
        if not error:
            return answer(request, reverse("scoring:table", args=[game.table_token]) + "#live")
        form.errors.append(error)
        entry = None
    if entry is not None:
        try:
            seat = parse_int(request.POST.get("seat", "")) if context["ask_who"] else None
            round_correct(
                game=game,
                number=number,
                entry=entry,
                actor=actor_for(request, game, seat),
                revision=posted_revision(request),
            )
        except StaleRevision as stale:
            context.update(stale_context(game, number, stale))
        except GameChangeError as invalid:
            form.add_problems(invalid.problems)
        else:
            url = reverse("scoring:history", args=[game.table_token])
            return answer(request, f"{url}?corrected={number}#corrected")
    if request.htmx:
        return with_device(request, render(request, f"{template}#form", context))
    return with_device(request, render(request, template, context))
