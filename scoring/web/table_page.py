"""What the table page shows (``TablePage``, built by ``table_page``), its parts for htmx,
and the history page."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.context import make_context
from django.template.loader import get_template
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext
from django_htmx.http import HttpResponseClientRedirect

from common.compiled import HOLES, CompiledRead
from common.htmx import HtmxHttpRequest
from scoring.engines.base import Engine, InvalidRecord, Problem, ScoredGame
from scoring.entry.fields import SeatInfo
from scoring.entry.forms import EntryForm
from scoring.games import kit_for
from scoring.games.kit import Kit
from scoring.models import ChangeRequest, Confirmation, Game, Round, RoundEvent
from scoring.selectors import (
    another_phone_confirms,
    change_needs_agreement,
    correction_before,
    game_record,
    game_score,
    latest_table_news,
    open_change_request,
    seats_that_may_accept,
    seats_that_may_confirm,
    table_closed,
)
from scoring.services import (
    StaleRevision,
)
from scoring.web import presenters
from scoring.web.phone import (
    TableUrls,
    device_id,
    hands_over,
    my_seat,
    optional_table_url,
    optional_url,
    proven_person,
    qr_svg,
    with_device,
)
from scoring.web.scores import RecentResults, ShownRound, recent_score
from scoring.web.view_link import watch_only_share
from scoring.wording import problems_text, said_word


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
    values = {
        "who": name.get(request.asked_by_seat) or gettext("A player"),
        "w": said_word(word),
        "number": request.round_number,
    }
    if request.kind == ChangeRequest.Kind.UNDO:
        return gettext("%(who)s asks to undo %(w)s %(number)s") % values
    if request.kind == ChangeRequest.Kind.REOPEN:
        return gettext("%(who)s asks to reopen the game") % values
    if request.kind == ChangeRequest.Kind.CORRECT:
        return gettext("%(who)s asks to correct %(w)s %(number)s") % values
    return gettext("%(who)s asks to end the game now, before the final %(w)s") % values


def request_card(
    game: Game, seats: list[SeatInfo], score: ScoredGame, me: int | None, word: str
) -> RequestCard | None:
    request = open_change_request(game)
    if request is None:
        return None
    name = presenters.names_of(seats)
    if request.to_desk:
        return RequestCard(
            request=request,
            text=asked_text(request, word, name),
            desk=True,
            mine=False,
            asker=me is not None and me == request.asked_by_seat,
            others=[],
        )
    allowed = seats_that_may_accept(game, request, score)
    if not hands_over(game):
        allowed = allowed & ({me} if me is not None else set())
    return RequestCard(
        request=request,
        text=asked_text(request, word, name),
        mine=me is not None and me in allowed,
        asker=me is not None and me == request.asked_by_seat,
        others=[seat for seat in seats if seat.number in allowed and seat.number != me],
    )


def news_text(game: Game, word: str, name: dict[int, str]) -> str:
    """The last change the table should be told of (an undo, an ending), until the next one."""
    event = latest_table_news(game)
    if event is None:
        return ""
    by = name.get(event.seat, "") if event.seat is not None else ""
    after = event.after if isinstance(event.after, dict) else {}
    values = {
        "w": capfirst(said_word(word)),
        "number": event.round_number,
        "name": by,
        "asked": presenters.change_words(after.get("kind")),
    }
    if event.action == RoundEvent.Action.UNDO:
        if by:
            return gettext("%(w)s %(number)s was undone by %(name)s.") % values
        return gettext("%(w)s %(number)s was undone.") % values
    if event.action == RoundEvent.Action.REOPEN:
        if by:
            return gettext("The game was reopened by %(name)s.") % values
        return gettext("The game was reopened.")
    if event.action == RoundEvent.Action.END:
        if after.get("ended_early"):
            if by:
                return gettext("The game was ended early by %(name)s.") % values
            return gettext("The game was ended early.")
        if by:
            return gettext("The game was ended by %(name)s.") % values
        return gettext("The game was ended.")
    status = after.get("status")
    if status == ChangeRequest.Status.LAPSED:
        return gettext("A change asked for lapsed: the game had changed meanwhile.")
    if status == ChangeRequest.Status.WITHDRAWN:
        if by:
            return gettext("The request for %(asked)s was taken back by %(name)s.") % values
        return gettext("The request for %(asked)s was taken back.") % values
    if by:
        return gettext("Declined by %(name)s: %(asked)s.") % values
    return gettext("Declined: %(asked)s.") % values


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
    return problems_text(problems, seats_from=1)


def answer(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Go to ``url``: htmx is told to go there, a plain browser is redirected."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@dataclass(frozen=True)
class PendingRound:
    """A round waiting for confirmation, and who may confirm it from this phone."""

    row: presenters.RoundRow
    mine: bool
    others: list[SeatInfo]
    was: dict[str, Any] | None  # a corrected round as it was: its summary and cells
    entered_here: bool = False  # entered on this phone, which may not confirm it


@dataclass(frozen=True)
class RequestCard:
    """A change asked of the other side or of the desk, as this phone sees it."""

    request: ChangeRequest
    text: str
    mine: bool
    asker: bool
    others: list[SeatInfo]
    desk: bool = False


@dataclass(frozen=True)
class TablePage:
    """Everything the table page shows, one typed field a key of the template's context."""

    game: Game
    engine: Engine
    kit: Kit
    score: ScoredGame
    seats: list[SeatInfo]
    board: presenters.Scoreboard
    me: int | None
    me_seat: SeatInfo | None
    pending: list[PendingRound]
    recent: list[presenters.RoundRow]
    round_count: int
    number: int
    word: str
    form: EntryForm | None
    key: str
    finished: bool
    upcoming: dict[str, Any]
    needs_identity: bool
    confirmation_label: str
    game_template: str
    scoresheet_url: str
    blank_sheets_url: str
    can_undo: bool
    can_reopen: bool
    closed: bool
    hands_over: bool
    undo_asks: bool
    end_asks: bool
    change_request: RequestCard | None
    news: str
    rematch: Game | None  # shown only once the game is over
    can_rematch: bool
    rematch_dealer: str
    end_row: presenters.EndRow | None
    entry_url: str
    fresh_url: str
    urls: TableUrls  # the table's own pages by URL name
    heading: str
    leftovers_end: bool
    waiting_for_end: bool  # nobody holds chips: no round can be played, any seat ends it
    out: set[int]
    # The phone holds its seat by its player's own link (not only said): the page says so.
    me_proven: bool = False

    def context(self, **extra: Any) -> dict[str, Any]:
        """The template's context: every field by name (not copied), what a view may add
        (empty unless it does), then ``extra``."""
        context = {f.name: getattr(self, f.name) for f in fields(self)}
        context.update(VIEW_ADDS)
        context.update(extra)
        return context


# What the table's partials read that only some views give: said empty here, since a name
# the template language looks up in vain costs it several raised and caught exceptions.
VIEW_ADDS: dict[str, Any] = {
    "saved": "",
    "end_error": "",
    "change_error": "",
    "confirm_error": "",
    "conflict": None,
    "withdrawn": None,
    "correcting": False,
    "ask_who": False,
    "revision": None,
    "oob": False,
}


def table_page(
    request: HtmxHttpRequest,
    game: Game,
    *,
    form: EntryForm | None = None,
    key: str | None = None,
    score: ScoredGame | None = None,
    seats: list[SeatInfo] | None = None,
    news: str | None = None,
) -> TablePage:
    """What the table page shows. ``score`` and ``seats`` are given when the caller has
    them already (a round just saved), and ``news`` when it knows there is none to tell
    (its own round is the last thing done). Only the rounds the page shows are read, in
    one query: the last few and those waiting for confirmation."""
    kit = kit_for(game.kind)
    if score is None:
        score = recent_score(game)
    if seats is None:
        seats = presenters.seat_infos(game)
    table = presenters.table_from_seats(game, seats)
    board = presenters.scoreboard(game, score, seats)
    recent_rounds, waiting = shown_rounds(game, score)
    round_count = recent_rounds[-1].number if recent_rounds else 0
    me = my_seat(request, game)
    if me is not None and me >= len(seats):
        me = None
    pending = []
    for row, round_ in zip(
        presenters.round_rows(game, score, seats, waiting, table=table), waiting, strict=True
    ):
        allowed = confirmers(game, round_, seats, score)
        entered_here = another_phone_confirms(game, device_id(request), round_.entered_by_device)
        if entered_here:
            allowed = []  # the phone that entered it, whoever it now says holds it
        elif not hands_over(game):
            allowed = [seat for seat in allowed if seat.number == me]
        pending.append(
            PendingRound(
                row=row,
                mine=me is not None and me in [s.number for s in allowed],
                others=[s for s in allowed if s.number != me],
                was=was_and_now(game, row.number, seats, score) if row.corrected else None,
                entered_here=entered_here,
            )
        )
    number = round_count + 1
    finished = board.finished or bool(game.ending)
    out = kit.out(score)
    if form is None and not finished:
        form = new_entry_form(game, seats, score, number)
    upcoming = form.context if form else score.upcoming
    urls = TableUrls(game.table_token)
    return TablePage(
        game=game,
        engine=game.engine,
        kit=kit,
        score=score,
        seats=seats,
        board=board,
        me=me,
        me_seat=seats[me] if me is not None else None,
        pending=pending,
        recent=presenters.round_rows(game, score, seats, recent_rounds, table=table),
        round_count=round_count,
        number=number,
        word=kit.word,
        form=form,
        key=key or uuid.uuid4().hex,
        finished=finished,
        upcoming=upcoming,
        needs_identity=game.confirmation != Confirmation.OFF,
        confirmation_label=gettext(game.get_confirmation_display()),
        game_template=kit.entry_template,
        scoresheet_url=optional_table_url("printing:scoresheet_pdf", game.table_token),
        blank_sheets_url=optional_url("printing:blank_sheets"),
        can_undo=bool(round_count) and not game.ending,
        can_reopen=bool(game.ending),
        closed=table_closed(game),
        hands_over=hands_over(game),
        undo_asks=bool(round_count) and change_needs_agreement(game, ChangeRequest.Kind.UNDO),
        end_asks=change_needs_agreement(game, ChangeRequest.Kind.END),
        change_request=request_card(game, seats, score, me, kit.word),
        news=news_text(game, kit.word, presenters.names_of(seats)) if news is None else news,
        rematch=getattr(game, "rematch", None) if finished else None,
        can_rematch=game.status == Game.Status.FINISHED and not game.is_tournament_game,
        rematch_dealer=seats[(game.first_dealer + 1) % len(seats)].name if seats else "",
        end_row=presenters.end_row(game, score, seats),
        entry_url=urls["table_entry"],
        fresh_url=urls["table_entry"],
        urls=urls,
        heading=presenters.entry_heading(kit, upcoming, seats),
        leftovers_end=kit.ending == "leftovers" and not finished and bool(round_count),
        waiting_for_end=not finished and bool(out) and len(out) == len(seats),
        out=out if len(out) < len(seats) else set(),
        me_proven=bool(proven_person(request, game, me)),
    )


def table_context(
    request: HtmxHttpRequest,
    game: Game,
    *,
    form: EntryForm | None = None,
    key: str | None = None,
    score: ScoredGame | None = None,
    seats: list[SeatInfo] | None = None,
    news: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The table page's context: its ``TablePage`` by name, then what a view adds."""
    page = table_page(request, game, form=form, key=key, score=score, seats=seats, news=news)
    return page.context(**extra)


RECENT_ROUNDS = 3


# The rounds after a number and those pending, oldest first (built once: see common.compiled).
SHOWN_ROUNDS = CompiledRead(
    lambda game_id, after: Round.objects.filter(
        Q(game_id=game_id) & (Q(number__gt=after) | Q(status=Round.Status.PENDING))
    ).order_by("number"),
    HOLES[:2],
)


def shown_rounds(game: Game, score: ScoredGame) -> tuple[Sequence[Round | ShownRound], list[Round]]:
    """The last RECENT_ROUNDS rounds and those waiting for confirmation, oldest first.

    A game without confirmation has no round waiting: its last rounds are those read with
    its score, when they were. Otherwise they are read in one query, from the number of
    rounds the score counts on (so a round recorded meanwhile is shown too)."""
    if game.confirmation == Confirmation.OFF and isinstance(score.rounds, RecentResults):
        last = score.rounds.last_rows(RECENT_ROUNDS)
        if last is not None:
            return last, []
    count = len(score.rounds)
    rows = SHOWN_ROUNDS.instances(game.pk, count - RECENT_ROUNDS)
    for round_ in rows:
        round_.game = game  # as the game's own rounds know it
    recent: Sequence[Round | ShownRound]
    recent = [r for r in rows if r.number > count - RECENT_ROUNDS][-RECENT_ROUNDS:]
    if len(recent) < min(count, RECENT_ROUNDS):
        # Rounds undone meanwhile: the last ones are those before them.
        recent = list(game.rounds.order_by("-number")[:RECENT_ROUNDS])[::-1]
    return recent, [r for r in rows if r.status == Round.Status.PENDING]


TEMPLATE = "scoring/table.html"


def engine_template(part: str) -> Any:
    """A partial of the table page as the template engine holds it (inside the backend's):
    looked up once per process, unless templates may change under it (DEBUG)."""
    template = PARTS_LOOKED_UP.get(part)
    if template is None:
        backend_template: Any = get_template(f"{TEMPLATE}#{part}")
        template = backend_template.template
        if not settings.DEBUG:
            PARTS_LOOKED_UP[part] = template
    return template


PARTS_LOOKED_UP: dict[str, Any] = {}


def render_parts(
    request: HtmxHttpRequest, parts: list[str], context: dict[str, Any], *, oob: Sequence[str] = ()
) -> HttpResponse:
    """Partials of the table page: the first ones swapped in place, ``oob`` out of band.

    All of them are drawn in one template context. Numbers are written as they are, not
    through the locale's number format: the site is English without thousands
    separators, where both write the same, and the locale's lookups for every number
    were a fifth of the drawing (``tests/web/test_table_parts.py`` holds them equal).
    """
    drawn = make_context(context, request, autoescape=True)
    drawn.use_l10n = False
    # Drawn in the one context, bound once: the context processors run once for all.
    templates = [engine_template(part) for part in parts]
    oob_templates = [engine_template(part) for part in oob]
    with drawn.bind_template((templates or oob_templates)[0]):
        html = [str(template.render(drawn)) for template in templates]
        if oob_templates:
            with drawn.push(oob=True):
                html += [str(template.render(drawn)) for template in oob_templates]
    return with_device(request, HttpResponse("".join(html)))


def full_page(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context.setdefault("share_url", request.build_absolute_uri(context["game"].get_absolute_url()))
    context.setdefault("qr", qr_svg(context["share_url"]))
    for key, value in watch_only_share(request, context["game"]).items():
        context.setdefault(key, value)
    return with_device(request, render(request, TEMPLATE, context, status=status))


def back_to_table(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    return answer(request, reverse("scoring:table", args=[game.table_token]))


def stale_context(game: Game, number: int, stale: StaleRevision) -> dict[str, Any]:
    """A change refused as stale: what is there now, and the revision to make it again
    against (the form keeps what was entered, so one tap redoes it)."""
    game.refresh_from_db()
    round_ = stale.now if stale.now is not None and stale.now.number == number else None
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
        "scoresheet_url": optional_table_url("printing:scoresheet_pdf", game.table_token),
        **extra,
    }
    return with_device(request, render(request, "scoring/history.html", context))
