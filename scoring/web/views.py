"""The table-side pages: start a game, the table, rounds, corrections, my games.

Thin views: read the form, make one service call, render a partial of
``scoring/table.html`` for htmx requests (the whole page otherwise). The table
token in the URL is the capability: whoever has the link is at the table.
Invalid entries answer 200 with the form and its messages, because htmx swaps
nothing on a 4xx by default.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

import segno
from django.conf import settings
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget, trigger_client_event

from common import throttles
from common.htmx import HtmxHttpRequest
from scoring.engines.base import InvalidRecord, Problem, ScoredGame
from scoring.entry.fields import SeatInfo, parse_int, seats_from_one
from scoring.entry.forms import EntryForm, NewGameForm
from scoring.games import kit_for
from scoring.models import ChangeRequest, Confirmation, Game, Round, RoundEvent
from scoring.selectors import (
    change_needs_agreement,
    correction_before,
    game_record,
    game_score,
    latest_table_news,
    open_change_request,
    recent_tables,
    scored_from_data,
    seats_that_may_accept,
    seats_that_may_confirm,
    table_closed,
)
from scoring.services import (
    Actor,
    ChangeResult,
    GameChangeError,
    IdempotencyKeyReused,
    RoundConflict,
    StaleRevision,
    change_request_accept,
    change_request_decline,
    change_request_open,
    desk_request_open,
    game_create,
    game_end,
    game_rematch,
    game_reopen,
    misdeal_record,
    round_confirm,
    round_correct,
    round_record,
    round_undo,
)
from scoring.web import presenters
from scoring.web.scores import RecentResults, recent_score

DEVICE_COOKIE = "tablescore_device"
SEATS_KEY = "tablescore_seats"
GAMES_KEY = "tablescore_games"
MY_GAMES_LIMIT = 30
RECENT_ROUNDS = 3
TEMPLATE = "scoring/table.html"


# --------------------------------------------------------------------------- the device


DEVICE_KEY = "tablescore.device"


def device_id(request: HtmxHttpRequest) -> str:
    """This browser's id (a cookie), made up on its first visit."""
    # Kept in the request's environment (an application key, as WSGI allows) so that one
    # request made up no more than one id.
    device: str | None = request.META.get(DEVICE_KEY)
    if device is None:
        known = request.COOKIES.get(DEVICE_COOKIE, "")
        device = known[:64] if known else uuid.uuid4().hex
        request.META[DEVICE_KEY] = device
    return device


def with_device(request: HtmxHttpRequest, response: HttpResponse) -> HttpResponse:
    if request.COOKIES.get(DEVICE_COOKIE) != device_id(request):
        response.set_cookie(
            DEVICE_COOKIE,
            device_id(request),
            max_age=400 * 24 * 3600,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure(),
        )
    return response


def my_seat(request: HtmxHttpRequest, game: Game) -> int | None:
    seat = request.session.get(SEATS_KEY, {}).get(str(game.pk))
    return seat if isinstance(seat, int) else None


def remember_seat(request: HtmxHttpRequest, game: Game, seat: int | None) -> None:
    seats = dict(request.session.get(SEATS_KEY, {}))
    if seat is None:
        seats.pop(str(game.pk), None)
    else:
        seats[str(game.pk)] = seat
    request.session[SEATS_KEY] = seats


def remember_game(request: HtmxHttpRequest, game: Game) -> None:
    """Put the game first in "my games". The session is written only when that changes the
    list: a page seen again (a reload, the service worker keeping its copy) must not save
    a session read before another request (choosing a seat) and so undo it."""
    tokens = list(request.session.get(GAMES_KEY, []))
    if tokens[:1] != [game.table_token]:
        others = [t for t in tokens if t != game.table_token]
        request.session[GAMES_KEY] = [game.table_token, *others][:MY_GAMES_LIMIT]


def actor_for(request: HtmxHttpRequest, game: Game, seat: int | None = None) -> Actor:
    return Actor(
        seat=my_seat(request, game) if seat is None else seat,
        device=device_id(request),
        user=request.user,
    )


def game_for(token: str) -> Game:
    return get_object_or_404(Game, table_token=token)


def posted_revision(request: HtmxHttpRequest) -> int:
    """The game's revision the page showed when the change was made. A form without one
    (a page from before revisions were sent) counts as stale: it is shown again."""
    revision = parse_int(request.POST.get("revision", ""))
    return revision if revision is not None else -1


def hands_over(game: Game) -> bool:
    """Whether one phone is handed to the other side to confirm (casual games, and events
    set to "one phone, handed over"); otherwise the other side confirms on its own phone."""
    return not game.is_tournament_game or game.one_phone


def optional_url(name: str, *args: Any) -> str:
    """The URL of a page that may not exist in this installation ("" then)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=5, dark="#1d2521", light="#ffffff")


# --------------------------------------------------------------------------- page context


def confirmers(game: Game, round_: Round, seats: list[SeatInfo], score: ScoredGame) -> list:
    """The seats that may confirm a pending round (the service has the last word)."""
    allowed = seats_that_may_confirm(game, round_, score)
    return [seat for seat in seats if seat.number in allowed]


def was_and_now(game: Game, number: int, seats: list[SeatInfo], score: ScoredGame) -> dict | None:
    """A corrected round as it was before its latest correction, for the confirming side."""
    before = correction_before(game, number)
    if before is None:
        return None
    cells: list = []
    record = game_record(game)
    entries = list(record.rounds)
    if 0 < number <= len(entries):
        entries[number - 1] = before
        try:
            old = game.engine.score(record.with_rounds(entries))
        except InvalidRecord:
            old = None
        if old is not None and number <= len(old.rounds):
            result = old.rounds[number - 1]
            cells = presenters.score_cells(
                presenters.groups_of(score, seats), result.deltas, result.totals
            )
    return {"summary": presenters.entry_text(game, before), "cells": cells}


def asked_text(request: ChangeRequest, word: str, name: dict[int, str]) -> str:
    """What a request asks, as the table reads it: "Ann asks to undo deal 3"."""
    who = name.get(request.asked_by_seat, "A player")
    if request.kind == ChangeRequest.Kind.UNDO:
        return f"{who} asks to undo {word.lower()} {request.round_number}"
    if request.kind == ChangeRequest.Kind.REOPEN:
        return f"{who} asks to reopen the game"
    if request.kind == ChangeRequest.Kind.CORRECT:
        return f"{who} asks to correct {word.lower()} {request.round_number}"
    return f"{who} asks to end the game now, before the final {word.lower()}"


def request_card(
    game: Game, seats: list[SeatInfo], score: ScoredGame, me: int | None, word: str
) -> dict[str, Any] | None:
    request = open_change_request(game)
    if request is None:
        return None
    name = presenters.names_of(seats)
    if request.to_desk:
        return {
            "request": request,
            "text": asked_text(request, word, name),
            "desk": True,
            "mine": False,
            "asker": me is not None and me == request.asked_by_seat,
            "others": [],
        }
    allowed = seats_that_may_accept(game, request, score)
    if not hands_over(game):
        allowed = allowed & ({me} if me is not None else set())
    return {
        "request": request,
        "text": asked_text(request, word, name),
        "mine": me is not None and me in allowed,
        "asker": me is not None and me == request.asked_by_seat,
        "others": [seat for seat in seats if seat.number in allowed and seat.number != me],
    }


def news_text(game: Game, word: str, name: dict[int, str]) -> str:
    """The last change the table should be told of (an undo, an ending), until the next one."""
    event = latest_table_news(game)
    if event is None:
        return ""
    by = f" by {name[event.seat]}" if event.seat in name else ""
    after = event.after if isinstance(event.after, dict) else {}
    if event.action == RoundEvent.Action.UNDO:
        return f"{word} {event.round_number} was undone{by}."
    if event.action == RoundEvent.Action.REOPEN:
        return f"The game was reopened{by}."
    if event.action == RoundEvent.Action.END:
        how = " early" if after.get("ended_early") else ""
        return f"The game was ended{how}{by}."
    status = after.get("status")
    if status == ChangeRequest.Status.LAPSED:
        return "A change asked for lapsed: the game had changed meanwhile."
    asked = presenters.change_words(after.get("kind"))
    if status == ChangeRequest.Status.WITHDRAWN:
        return f"The request for {asked} was taken back{by}."
    return f"Declined{by}: {asked}."


def new_entry_form(
    game: Game, seats: list[SeatInfo], score: ScoredGame, number: int, data: Any = None
) -> EntryForm:
    return kit_for(game.kind).entry_form(
        engine=game.engine,
        seats=seats,
        options=score.options or game.options,
        context=presenters.context_before(game, number, score),
        data=data,
    )


def printable(text: str) -> str:
    """A form's text without the characters nobody types (NUL and other controls)."""
    return "".join(ch for ch in text if ch.isprintable()).strip()


def joined(problems: list[Problem]) -> str:
    """The engine's problems as one line for a notice, seats counted from 1."""
    return "; ".join(seats_from_one(p.message) for p in problems)


def answer(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Go to ``url``: htmx is told to go there, a plain browser is redirected."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def table_context(
    request: HtmxHttpRequest,
    game: Game,
    *,
    form: EntryForm | None = None,
    key: str | None = None,
    score: ScoredGame | None = None,
    seats: list[SeatInfo] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The table page's context. ``score`` and ``seats`` are given when the caller has
    them already (a round just saved); only the rounds the page shows are read: the last few
    and those waiting for confirmation."""
    kit = kit_for(game.kind)
    if score is None:
        score = recent_score(game)
    if seats is None:
        seats = presenters.seat_infos(game)
    table = presenters.table_from_seats(game, seats)
    board = presenters.scoreboard(game, score, seats)
    # Rounds are numbered 1, 2, ... without gaps: the last one's number is their count.
    recent_rounds = list(game.rounds.order_by("-number")[:RECENT_ROUNDS])[::-1]
    round_count = recent_rounds[-1].number if recent_rounds else 0
    waiting = list(game.rounds.filter(status=Round.Status.PENDING).order_by("number"))
    me = my_seat(request, game)
    if me is not None and me >= len(seats):
        me = None
    pending = []
    for row, round_ in zip(
        presenters.round_rows(game, score, seats, waiting, table=table), waiting, strict=True
    ):
        allowed = confirmers(game, round_, seats, score)
        if not hands_over(game):
            allowed = [seat for seat in allowed if seat.number == me]
        pending.append(
            {
                "row": row,
                "mine": me is not None and me in [s.number for s in allowed],
                "others": [s for s in allowed if s.number != me],
                "was": was_and_now(game, row.number, seats, score) if row.corrected else None,
            }
        )
    number = round_count + 1
    finished = board.finished or bool(game.ending)
    out = kit.out(score)
    if form is None and not finished:
        form = new_entry_form(game, seats, score, number)
    upcoming = form.context if form else score.upcoming
    context = {
        "game": game,
        "engine": game.engine,
        "kit": kit,
        "score": score,
        "seats": seats,
        "board": board,
        "me": me,
        "me_seat": seats[me] if me is not None else None,
        "pending": pending,
        "recent": presenters.round_rows(game, score, seats, recent_rounds, table=table),
        "round_count": round_count,
        "number": number,
        "word": kit.word,
        "form": form,
        "key": key or uuid.uuid4().hex,
        "finished": finished,
        "upcoming": upcoming,
        "needs_identity": game.confirmation != Confirmation.OFF,
        "confirmation_label": game.get_confirmation_display(),
        "game_template": kit.entry_template,
        "scoresheet_url": optional_url("printing:scoresheet_pdf", game.table_token),
        "blank_sheets_url": optional_url("printing:blank_sheets"),
        "can_undo": bool(round_count) and not game.ending,
        "can_reopen": bool(game.ending),
        "closed": table_closed(game),
        "hands_over": hands_over(game),
        "undo_asks": bool(round_count) and change_needs_agreement(game, ChangeRequest.Kind.UNDO),
        "end_asks": change_needs_agreement(game, ChangeRequest.Kind.END),
        "change_request": request_card(game, seats, score, me, kit.word),
        "news": news_text(game, kit.word, presenters.names_of(seats)),
        # Shown only once the game is over (a rematch is offered from the finished game).
        "rematch": getattr(game, "rematch", None) if finished else None,
        "can_rematch": game.status == Game.Status.FINISHED and not game.is_tournament_game,
        "rematch_dealer": seats[(game.first_dealer + 1) % len(seats)].name if seats else "",
        "end_row": presenters.end_row(game, score, seats),
        "entry_url": reverse("scoring:table_entry", args=[game.table_token]),
        "fresh_url": reverse("scoring:table_entry", args=[game.table_token]),
        "heading": presenters.entry_heading(kit, upcoming, seats),
        "leftovers_end": kit.ending == "leftovers" and not finished and bool(round_count),
        # With nobody holding chips no round can be played: any seat takes the board.
        "waiting_for_end": not finished and bool(out) and len(out) == len(seats),
        "out": out if len(out) < len(seats) else set(),
    }
    context.update(extra)
    return context


def render_parts(
    request: HtmxHttpRequest, parts: list[str], context: dict[str, Any], *, oob: Sequence[str] = ()
) -> HttpResponse:
    """Partials of the table page: the first ones swapped in place, ``oob`` out of band."""
    html = [render_to_string(f"{TEMPLATE}#{part}", context, request) for part in parts]
    html += [
        render_to_string(f"{TEMPLATE}#{part}", {**context, "oob": True}, request) for part in oob
    ]
    return with_device(request, HttpResponse("".join(html)))


def full_page(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context.setdefault("share_url", request.build_absolute_uri(context["game"].get_absolute_url()))
    context.setdefault("qr", qr_svg(context["share_url"]))
    return with_device(request, render(request, TEMPLATE, context, status=status))


def back_to_table(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    return answer(request, reverse("scoring:table", args=[game.table_token]))


# --------------------------------------------------------------------------- start a game


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
        form.errors.append("Sign in to start a game.")
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
        old = Game.objects.filter(table_token=token).prefetch_related("seats").first()
    if old is None:
        form = NewGameForm(None)
        form.errors.append(
            "That game is not among this phone's recent games: choose the game below."
        )
        return render(request, "scoring/game_new.html", {"form": form})
    players = [seat.name for seat in sorted(old.seats.all(), key=lambda seat: seat.number)]
    record = {
        "game": old.kind,
        "players": players,
        "options": dict(old.options),
        "first_dealer": (old.first_dealer + 1) % len(players),
    }
    try:
        result = game_create(
            record=record,
            actor=Actor(device=device_id(request), user=request.user),
            confirmation=old.confirmation,
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
    tokens = request.session.get(GAMES_KEY, [])
    found = {g.table_token: g for g in Game.objects.filter(table_token__in=tokens)}
    games = []
    for token in tokens:
        game = found.get(token)
        if game is None:
            continue
        score = game_score(game)
        seats = presenters.seat_infos(game)
        games.append(
            {
                "game": game,
                "board": presenters.scoreboard(game, score, seats),
                "seat": seats[s] if (s := my_seat(request, game)) is not None else None,
                "rounds": len(score.rounds),
                "scoresheet_url": optional_url("printing:scoresheet_pdf", game.table_token),
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


# --------------------------------------------------------------------------- the table


@never_cache
@require_GET
def table(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = game_for(token)
    remember_game(request, game)
    if game.rematch_of_id is not None and my_seat(request, game) is None:
        # a phone that said who held it at the last game says it again at the rematch
        carried = request.session.get(SEATS_KEY, {}).get(str(game.rematch_of_id))
        if isinstance(carried, int):
            remember_seat(request, game, carried)
    context = table_context(request, game, welcome=request.GET.get("new") == "1")
    if request.htmx and not request.htmx.boosted:
        return render_parts(request, ["live"], context, oob=["recent", "entry"])
    return full_page(request, context)


@never_cache
@require_GET
def table_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The scoreboard for polling phones: 204 (nothing to swap) while nothing changed."""
    if not request.htmx:
        return redirect("scoring:table", token=token)
    revision = Game.objects.filter(table_token=token).values_list("revision", flat=True).first()
    if revision is None:
        raise Http404("no such game")
    if str(revision) == request.GET.get("rev"):
        return HttpResponse(status=204)
    game = game_for(token)
    response = render_parts(request, ["live"], table_context(request, game), oob=["recent"])
    return trigger_client_event(response, "table-changed", {"revision": game.revision})


@never_cache
@require_http_methods(["GET", "POST"])
def table_entry(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The round form: a fresh one (GET), a preview, a misdeal, or a saved round (POST)."""
    game = game_for(token)
    if request.method == "GET":
        if not request.htmx:
            return redirect("scoring:table", token=token)
        return render_parts(request, ["entry"], table_context(request, game))
    action = request.POST.get("action", "save")
    key = printable(request.POST.get("key") or "")[:128] or None
    number = parse_int(printable(request.POST.get("number", ""))) or 0
    score = recent_score(game)
    revision = game.revision
    seats = presenters.seat_infos(game)
    recorded = len(score.rounds)
    form_number = number if 1 <= number <= recorded + 1 else recorded + 1
    form = new_entry_form(game, seats, score, form_number, data=request.POST)

    if action == "preview":
        return preview_response(request, game, form, form_number)

    if number != form_number:
        # Not the next round nor one already recorded (0, empty, negative, not a number,
        # past the next): the form says which round comes next and keeps what was typed.
        word = kit_for(game.kind).word
        form.errors.append(f"The next {word.lower()} is {word.lower()} {recorded + 1}.")
        return entry_error(request, game, form, key)

    if game.confirmation != Confirmation.OFF and my_seat(request, game) is None:
        form.errors.append(
            "Say who is holding this phone (at the top) before saving: "
            "a player of another side confirms what you enter."
        )
        return entry_error(request, game, form, key)

    entry: dict[str, Any] | None
    if action == "misdeal":
        entry = {"misdeal": True}
    else:
        entry = form.clean()
        if entry is None:
            return entry_error(request, game, form, key)
    try:
        if action == "misdeal":
            change = misdeal_record(
                game=game, number=number, actor=actor_for(request, game), idempotency_key=key
            )
        else:
            change = round_record(
                game=game,
                number=number,
                entry=entry,
                actor=actor_for(request, game),
                idempotency_key=key,
            )
    except RoundConflict as conflict:
        game.refresh_from_db()
        seats = presenters.seat_infos(game)
        score = game_score(game)
        theirs = presenters.round_rows(game, score, seats, [conflict.recorded])[0]
        return entry_error(request, game, form, key, conflict=theirs, number=number)
    except IdempotencyKeyReused:
        form.errors.append("This form was saved already. Start a new round to enter another one.")
        return entry_error(request, game, form, key)
    except GameChangeError as invalid:
        form.add_problems(invalid.problems)
        return entry_error(request, game, form, key)
    if not request.htmx:
        return back_to_table(request, game)
    game = change.game  # as the service left it, read under its lock
    score = score_after(score, revision, change)
    word = kit_for(game.kind).word
    saved = f"{word} {number} saved." if action != "misdeal" else "Misdeal recorded."
    if game.confirmation != Confirmation.OFF:
        saved += (
            " A player of another side confirms it."
            if game.confirmation == (Confirmation.OTHER_SIDE)
            else " Another player confirms it."
        )
    context = table_context(request, game, score=score, seats=seats, saved=saved)
    return render_parts(request, ["entry"], context, oob=["live", "recent"])


def score_after(before: ScoredGame, revision: int, change: ChangeResult) -> ScoredGame:
    """The score after a round just recorded: the score read before it with the round the
    service scored. Read again when anything else changed meanwhile (another phone's
    round, a correction, an undo, a replayed key)."""
    game = change.game
    alone = (
        not change.replayed
        and change.round is not None
        and "rounds" not in change.score
        and game.revision == revision + 1
        and change.round_number == len(before.rounds) + 1
    )
    if not alone:
        return game_score(game)
    after = scored_from_data({**change.score, "rounds": [change.round]})
    if isinstance(before.rounds, RecentResults):
        after.rounds = before.rounds.plus(after.rounds[0])
    else:
        after.rounds = [*before.rounds, *after.rounds]
    return after


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
        if seat is None:
            raise GameChangeError.single(
                "say who is holding this phone (at the top) first: a phone of the other side "
                "confirms",
                round_number=number,
                field="seat",
            )
        round_confirm(
            game=game,
            number=number,
            actor=actor_for(request, game, seat),
            seen=seen_entry(request.POST.get("seen")),
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
    if my_seat(request, game) is None:
        error = "Say who is holding this phone (at the top) first: another side agrees to it."
    else:
        try:
            change_request_open(
                game=game, kind=kind, actor=actor_for(request, game), number=number, ending=ending
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
        return "Say who is holding this phone (at the top) first: the desk sees who asks."
    try:
        desk_request_open(
            game=game,
            kind=kind,
            actor=actor_for(request, game),
            revision=posted_revision(request),
            number=number,
            entry=entry,
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
        error = "Choose who takes the chips left on the board."
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


# --------------------------------------------------------------------------- history and fixes


def stale_context(game: Game, number: int, stale: StaleRevision) -> dict[str, Any]:
    """A change refused as stale: what is there now, and the revision to make it again
    against (the form keeps what was entered, so one tap redoes it)."""
    game.refresh_from_db()
    round_ = game.rounds.filter(number=number).first()
    score = game_score(game)
    seats = presenters.seat_infos(game)
    return {
        "stale": joined(stale.problems),
        "now": presenters.round_rows(game, score, seats, [round_])[0] if round_ else None,
        "revision": stale.current,
    }


def history_page(request: HtmxHttpRequest, game: Game, **extra: Any) -> HttpResponse:
    score = game_score(game)
    seats = presenters.seat_infos(game)
    rounds = list(game.rounds.order_by("number"))
    context = {
        "game": game,
        "seats": seats,
        "score": score,
        "board": presenters.scoreboard(game, score, seats),
        "groups": presenters.groups_of(score, seats),
        "rows": presenters.round_rows(game, score, seats, rounds, with_inputs=True),
        "audit": presenters.audit_rows(game, seats),
        "word": kit_for(game.kind).word,
        "can_undo": bool(rounds) and not game.ending,
        "can_reopen": bool(game.ending),
        "closed": table_closed(game),
        "end_row": presenters.end_row(game, score, seats),
        "last_number": rounds[-1].number if rounds else None,
        "undo_asks": bool(rounds) and change_needs_agreement(game, ChangeRequest.Kind.UNDO),
        "end_asks": change_needs_agreement(game, ChangeRequest.Kind.REOPEN),
        "scoresheet_url": optional_url("printing:scoresheet_pdf", game.table_token),
        **extra,
    }
    return with_device(request, render(request, "scoring/history.html", context))


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
