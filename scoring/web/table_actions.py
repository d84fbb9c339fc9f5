"""The table page and what is done at it: a round entered, confirmed or undone, the game
ended, reopened or started again, a change asked for or answered.

Thin views: read the form, make one service call, render a partial of
``scoring/table.html`` for htmx requests (the whole page otherwise). The table
token in the URL is the capability: whoever has the link is at the table.
Invalid entries answer 200 with the form and its messages, because htmx swaps
nothing on a 4xx by default.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget, trigger_client_event

from common import throttles
from common.compiled import TEXT_HOLES, CompiledRead
from common.htmx import HtmxHttpRequest
from scoring.entry.fields import parse_int
from scoring.entry.forms import EntryForm
from scoring.games import kit_for
from scoring.models import ChangeRequest, Confirmation, Game
from scoring.selectors import (
    change_needs_agreement,
    game_score,
    table_clock_key,
    table_closed,
)
from scoring.services import (
    GameChangeError,
    IdempotencyKeyReused,
    NotTheNextRound,
    RoundConflict,
    RoundWithdrawn,
    SeatNotSaid,
    StaleRevision,
    change_request_accept,
    change_request_decline,
    change_request_open,
    desk_request_open,
    game_end,
    game_rematch,
    game_reopen,
    round_confirm,
    round_save,
    round_undo,
)
from scoring.web import presenters
from scoring.web.phone import (
    SEATS_KEY,
    actor_for,
    game_for,
    hands_over,
    my_seat,
    posted_revision,
    remember_game,
    remember_seat,
    seat_actor,
    with_device,
)
from scoring.web.scores import game_and_recent_score
from scoring.web.table_page import (
    TEMPLATE,
    answer,
    back_to_table,
    full_page,
    history_page,
    joined,
    new_entry_form,
    printable,
    render_parts,
    table_context,
)
from scoring.wording import said_word


@never_cache
@require_GET
def table(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game, score = game_and_recent_score(token)
    remember_game(request, game)
    if game.rematch_of_id is not None and my_seat(request, game) is None:
        # a phone that said who held it at the last game says it again at the rematch
        carried = request.session.get(SEATS_KEY, {}).get(str(game.rematch_of_id))
        if isinstance(carried, int):
            remember_seat(request, game, carried)
    context = table_context(request, game, score=score, welcome=request.GET.get("new") == "1")
    if request.htmx and not request.htmx.boosted:
        return render_parts(request, ["live"], context, oob=["recent", "entry"])
    return full_page(request, context)


# What every phone's poll reads first, every two seconds (built once: see common.compiled).
LIVE_STATE_BY_TOKEN = CompiledRead(
    lambda token: (
        Game.objects.filter(table_token=token)
        .order_by()
        .values_list("pk", "revision", "is_tournament_game")[:1]
    ),
    TEXT_HOLES[:1],
)


@never_cache
@require_GET
def table_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The scoreboard for polling phones: 204 (nothing to swap) while nothing changed,
    neither the game (its revision) nor its round clock (the clock's key)."""
    if not request.htmx:
        return redirect("scoring:table", token=token)
    row = LIVE_STATE_BY_TOKEN.first_row(token)
    if row is None:
        raise Http404("no such game")
    pk, revision, in_event = row
    if str(revision) == request.GET.get("rev") and request.GET.get("clock", "") == (
        table_clock_key(game_id=pk, is_tournament_game=in_event)
    ):
        return HttpResponse(status=204)
    game, score = game_and_recent_score(token)
    response = render_parts(
        request, ["live"], table_context(request, game, score=score), oob=["recent"]
    )
    clock = table_clock_key(game_id=game.pk, is_tournament_game=game.is_tournament_game)
    return trigger_client_event(
        response, "table-changed", {"revision": game.revision, "clock": clock}
    )


@never_cache
@require_http_methods(["GET", "POST"])
def table_entry(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The round form: a fresh one (GET), a preview, a misdeal, or a saved round (POST)."""
    game, score = game_and_recent_score(token)
    if request.method == "GET":
        if not request.htmx:
            return redirect("scoring:table", token=token)
        return render_parts(request, ["entry"], table_context(request, game, score=score))
    action = request.POST.get("action", "save")
    key = printable(request.POST.get("key") or "")[:128] or None
    number = parse_int(printable(request.POST.get("number", ""))) or 0
    seats = presenters.seat_infos(game)
    recorded = len(score.rounds)
    form_number = number if 1 <= number <= recorded + 1 else recorded + 1
    form = new_entry_form(game, seats, score, form_number, data=request.POST)

    if action == "preview":
        return preview_response(request, game, form, form_number)

    misdeal = action == "misdeal"
    try:
        saved = round_save(
            game=game,
            number=number,
            entry=None if misdeal else form.clean(),
            actor=actor_for(request, game),
            before=score,
            misdeal=misdeal,
            idempotency_key=key,
        )
    except (NotTheNextRound, SeatNotSaid) as refused:
        # Not the next round nor one recorded (0, empty, negative, not a number, past the
        # next), or nobody said who holds the phone: the form says the service's refusal
        # and keeps what was typed (the form's own messages wait until it can be saved).
        form = new_entry_form(game, seats, score, form_number, data=request.POST)
        form.add_problems(refused.problems)
        return entry_error(request, game, form, key)
    except RoundConflict as conflict:
        game.refresh_from_db()
        seats = presenters.seat_infos(game)
        score = game_score(game)
        theirs = presenters.round_rows(game, score, seats, [conflict.recorded])[0]
        return entry_error(request, game, form, key, conflict=theirs, number=number)
    except RoundWithdrawn as withdrawn:
        return withdrawn_answer(request, game, form, withdrawn)
    except IdempotencyKeyReused:
        form.errors.append(
            gettext("This form was saved already. Start a new round to enter another one.")
        )
        return entry_error(request, game, form, key)
    except GameChangeError as invalid:
        form.add_problems(invalid.problems)
        return entry_error(request, game, form, key)
    if saved is None:  # the form could not be read: it says why
        return entry_error(request, game, form, key)
    if not request.htmx:
        return back_to_table(request, game)
    game = saved.change.game  # as the service left it, read under its lock
    word = kit_for(game.kind).word
    said = (
        gettext("%(w)s %(number)s saved.") % {"w": capfirst(said_word(word)), "number": number}
        if not misdeal
        else gettext("Misdeal recorded.")
    )
    if game.confirmation != Confirmation.OFF:
        said += " " + (
            gettext("A player of another side confirms it.")
            if game.confirmation == (Confirmation.OTHER_SIDE)
            else gettext("Another player confirms it.")
        )
    # A round recorded alone is the last thing done to the game: no news to read.
    news = "" if saved.alone else None
    context = table_context(request, game, score=saved.score, seats=seats, news=news, saved=said)
    return render_parts(request, ["entry"], context, oob=["live", "recent"])


def withdrawn_answer(
    request: HtmxHttpRequest, game: Game, form: EntryForm, withdrawn: RoundWithdrawn
) -> HttpResponse:
    """A save sent again (from the outbox, say) after its round was undone or corrected on
    another phone: nothing was stored. Undone, the form comes back with the entry kept
    under a new key, to save again if it still stands; corrected, the round as it stands
    now is shown above a fresh form."""
    game.refresh_from_db()
    now = None
    if withdrawn.now is not None:
        seats = presenters.seat_infos(game)
        now = presenters.round_rows(game, game_score(game), seats, [withdrawn.now])[0]
    keep = withdrawn.enter_again
    notice = {"how": withdrawn.how, "number": withdrawn.number, "now": now, "kept": keep}
    context = table_context(request, game, form=form if keep else None, withdrawn=notice)
    if request.htmx:
        return render_parts(request, ["entry"], context, oob=["live", "recent"])
    return full_page(request, context)


def entry_error(
    request: HtmxHttpRequest,
    game: Game,
    form: EntryForm,
    key: str | None,
    **extra: Any,
) -> HttpResponse:
    game.refresh_from_db()
    context = table_context(request, game, form=form, key=key, **extra)
    if request.htmx:
        return render_parts(request, ["entry"], context, oob=["live", "recent"])
    return full_page(request, context)


def preview_response(
    request: HtmxHttpRequest, game: Game, form: EntryForm, number: int, *, correcting: bool = False
) -> HttpResponse:
    entry = form.clean()
    if entry is None:
        preview = presenters.incomplete_preview(number, form.messages)
    else:
        preview, _ = presenters.round_preview(game, entry, number=number, correcting=correcting)
    context = {
        "preview": preview,
        "incomplete": entry is None,
        "game": game,
        "word": kit_for(game.kind).word,
    }
    if not request.htmx:
        return with_device(request, render(request, "scoring/preview_page.html", context))
    return with_device(request, render(request, f"{TEMPLATE}#preview", context))


@never_cache
@require_POST
def table_seat(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Say which seat this phone is (remembered for the game), or forget it."""
    game = game_for(token)
    seat = parse_int(request.POST.get("seat", ""))
    count = game.seats.count()
    remember_seat(request, game, seat if seat is not None and 0 <= seat < count else None)
    if not request.htmx:
        return back_to_table(request, game)
    context = table_context(request, game)
    return render_parts(request, ["identity"], context, oob=["live"])


def seen_entry(text: str | None) -> dict[str, Any] | None:
    """The round as the confirming phone showed it (None when the page did not say)."""
    try:
        seen = json.loads(text) if text else None
    except ValueError:
        return None
    return seen if isinstance(seen, dict) else None


@never_cache
@require_POST
def round_confirm_view(request: HtmxHttpRequest, token: str, number: int) -> HttpResponse:
    game = game_for(token)
    seat = parse_int(request.POST.get("seat", ""))
    if not hands_over(game):
        seat = my_seat(request, game)  # at an event, the seat this phone holds, no other
    error = ""
    try:
        round_confirm(
            game=game,
            number=number,
            actor=seat_actor(request, seat, game),
            seen=seen_entry(request.POST.get("seen")),
        )
    except SeatNotSaid:
        error = gettext(
            "say who is holding this phone (at the top) first: a phone of the other side confirms"
        )
    except GameChangeError as invalid:
        error = joined(invalid.problems)
    game.refresh_from_db()
    if not request.htmx:
        return back_to_table(request, game)
    context = table_context(request, game, confirm_error=error, confirm_number=number)
    response = render_parts(request, ["live"], context, oob=["recent"])
    if error:
        return response
    # The round form (or the end of the game) follows, as on the other phones.
    return trigger_client_event(response, "table-changed", {"revision": game.revision})


def after_change(request: HtmxHttpRequest, game: Game, error: str = "") -> HttpResponse:
    """Where a change from the table or the history page leads: back to where it was asked."""
    if error:
        if request.POST.get("next", "") == "history" or not request.htmx:
            return history_page(request, game, error=error)
        return table_parts(request, game, change_error=error)
    if request.POST.get("next", "") == "history":
        return answer(request, reverse("scoring:history", args=[game.table_token]))
    return back_to_table(request, game)


def table_parts(request: HtmxHttpRequest, game: Game, **extra: Any) -> HttpResponse:
    """The scoreboard, the round form and the last rounds after a change (htmx)."""
    game.refresh_from_db()
    response = render_parts(
        request, ["live"], table_context(request, game, **extra), oob=["recent", "entry"]
    )
    return trigger_client_event(response, "table-changed", {"revision": game.revision})


def ask_the_table(
    request: HtmxHttpRequest,
    game: Game,
    kind: str,
    *,
    number: int | None = None,
    ending: dict[str, Any] | None = None,
) -> HttpResponse:
    """With confirmation on, the change is asked of the other side: the table shows it."""
    error = ""
    try:
        change_request_open(
            game=game, kind=kind, actor=actor_for(request, game), number=number, ending=ending
        )
    except SeatNotSaid:
        error = gettext(
            "Say who is holding this phone (at the top) first: another side agrees to it."
        )
    except GameChangeError as invalid:
        error = joined(invalid.problems)
    if request.htmx and request.POST.get("next", "") != "history":
        return table_parts(request, game, change_error=error)
    if error:
        return after_change(request, game, error)
    return answer(request, reverse("scoring:table", args=[game.table_token]) + "#live")


def ask_the_desk(
    request: HtmxHttpRequest,
    game: Game,
    kind: str,
    *,
    number: int | None = None,
    entry: dict[str, Any] | None = None,
) -> str:
    """At a closed event table a change is asked of the event's desk: "" once asked, or the
    reason it could not be."""
    if my_seat(request, game) is None:
        return gettext("Say who is holding this phone (at the top) first: the desk sees who asks.")
    try:
        desk_request_open(
            game=game,
            kind=kind,
            actor=actor_for(request, game),
            revision=posted_revision(request),
            number=number,
            entry=entry,
            why=request.POST.get("why", ""),
        )
    except GameChangeError as invalid:
        return joined(invalid.problems)
    return ""


def desk_asked(request: HtmxHttpRequest, game: Game, kind: str, **what: Any) -> HttpResponse:
    error = ask_the_desk(request, game, kind, **what)
    if request.htmx and request.POST.get("next", "") != "history":
        return table_parts(request, game, change_error=error)
    if error:
        return after_change(request, game, error)
    return answer(request, reverse("scoring:table", args=[game.table_token]) + "#live")


@never_cache
@require_POST
def round_undo_view(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = game_for(token)
    number = parse_int(request.POST.get("number", ""))
    if table_closed(game):
        return desk_asked(request, game, ChangeRequest.Kind.UNDO, number=number)
    if change_needs_agreement(game, ChangeRequest.Kind.UNDO):
        return ask_the_table(request, game, ChangeRequest.Kind.UNDO, number=number)
    try:
        round_undo(
            game=game,
            number=number,
            actor=actor_for(request, game),
            revision=posted_revision(request),
        )
    except GameChangeError as invalid:
        return change_refused(request, game, joined(invalid.problems))
    if request.POST.get("next", "") == "history":
        return answer(request, reverse("scoring:history", args=[game.table_token]))
    return back_to_table(request, game)


def change_refused(request: HtmxHttpRequest, game: Game, message: str) -> HttpResponse:
    """An undo or a reopening refused (made against an old revision, say): the page it was
    asked from shows the game as it is now, with the reason."""
    if request.htmx and request.POST.get("next", "") != "history":
        return reswap(
            retarget(table_parts(request, game, change_error=message), "#live"), "outerHTML"
        )
    response = history_page(request, game, error=message)
    if request.htmx:
        return reswap(retarget(response, "body"), "innerHTML")
    return response


@never_cache
@require_POST
def table_end(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """End the game (an offered early finish, the leftovers to one seat) or reopen it."""
    game = game_for(token)
    how = request.POST.get("how", "")
    if how == "reopen" and table_closed(game):
        return desk_asked(request, game, ChangeRequest.Kind.REOPEN)
    if how == "reopen":
        if change_needs_agreement(game, ChangeRequest.Kind.REOPEN) and game.ending:
            return ask_the_table(request, game, ChangeRequest.Kind.REOPEN)
        return table_reopen(request, game)
    if how == "early":
        ending: dict[str, Any] = {"ended_early": True}
        if change_needs_agreement(game, ChangeRequest.Kind.END):
            return ask_the_table(request, game, ChangeRequest.Kind.END, ending=ending)
    elif how == "leftovers":
        seat = parse_int(request.POST.get("leftovers_to", ""))
        ending = {"end": {"leftovers_to": seat}} if seat is not None else {}
    else:
        ending = {}
    error = ""
    if not ending:
        error = gettext("Choose who takes the chips left on the board.")
    else:
        try:
            game_end(
                game=game,
                ending=ending,
                actor=actor_for(request, game),
                revision=parse_int(request.POST.get("revision", "")),
            )
        except GameChangeError as invalid:
            error = joined(invalid.problems)
    game.refresh_from_db()
    if not request.htmx:
        return back_to_table(request, game)
    context = table_context(request, game, end_error=error)
    return render_parts(request, ["entry"], context, oob=["live", "recent"])


def table_reopen(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Take back the ending: the game goes on from its last round.

    Refused when the game is no longer ended (another phone reopened it): with htmx the
    page then simply shows the game as it is. Made against an old revision: refused, and
    the page says so beside the game as it is now.
    """
    try:
        game_reopen(game=game, actor=actor_for(request, game), revision=posted_revision(request))
    except StaleRevision as stale:
        return change_refused(request, game, joined(stale.problems))
    except GameChangeError as invalid:
        if not request.htmx:
            message = joined(invalid.problems)
            return history_page(request, game, error=message)
    if request.POST.get("next", "") == "history":
        return answer(request, reverse("scoring:history", args=[game.table_token]))
    return back_to_table(request, game)


@never_cache
@require_POST
def change_request_answer(request: HtmxHttpRequest, token: str, request_id: int) -> HttpResponse:
    """Agree to a change the other side asked for, or decline it (or take one's own back)."""
    game = game_for(token)
    seat = parse_int(request.POST.get("seat", ""))
    if not hands_over(game):
        seat = my_seat(request, game)
    actor = actor_for(request, game, seat)
    error = ""
    try:
        if request.POST.get("answer") == "accept":
            change_request_accept(game=game, request_id=request_id, actor=actor)
        else:
            change_request_decline(game=game, request_id=request_id, actor=actor)
    except GameChangeError as invalid:
        error = joined(invalid.problems)
    if not request.htmx:
        return back_to_table(request, game)
    return table_parts(request, game, change_error=error)


@never_cache
@require_POST
def game_rematch_view(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The same table again, the first deal passing on: every phone lands in the same game."""
    game = game_for(token)
    if (refusal := throttles.refused(request, "games")) is not None:
        return refusal
    try:
        result = game_rematch(game=game, actor=actor_for(request, game))
    except GameChangeError as invalid:
        throttles.give_back(request, "games")
        game.refresh_from_db()
        if not request.htmx:
            return history_page(request, game, error=joined(invalid.problems))
        context = table_context(request, game, end_error=joined(invalid.problems))
        return render_parts(request, ["entry"], context)
    rematch = result.game
    remember_game(request, rematch)
    remember_seat(request, rematch, my_seat(request, game))
    url = reverse("scoring:table", args=[rematch.table_token])
    return with_device(request, answer(request, url))
