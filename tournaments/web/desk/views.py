"""The director's desk: an event's entrants, rounds, tables, results and exports.

Thin views: read the form, make one service call, render the page or one of its named
partials (``request.htmx``); rows are read through ``tournaments.events.selectors``, and
the services own every refusal, shown by one decorator (``refusal_shown``). The desk
needs a login and shows a director only their own events (404 for anyone else's). Live
parts poll with the event's revision and get 204 while nothing changed. Bad input answers
200 with the form and its messages beside the fields (htmx swaps nothing on a 4xx),
never a 500.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from functools import partial, wraps
from typing import TYPE_CHECKING, Any, TypeVar

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from common import csvsafe
from common.htmx import HtmxHttpRequest
from common.phrases import N_
from printing.paper import default_paper, paper_choices
from scoring.entry.fields import parse_int
from scoring.games import kit_for
from scoring.selectors import game_score, table_closed
from scoring.services import Later, LaterDealsBreak, StaleRevision
from scoring.web import presenters
from scoring.web.history import correction_form
from scoring.web.phone import posted_revision
from scoring.web.table_actions import preview_response
from scoring.web.table_page import stale_context
from scoring.wording import phrase_text, problem_text, said
from tournaments import tasks
from tournaments.events import selectors, services
from tournaments.events.availability import (
    CHECK_IN_RULE,
    availability_for,
    tables_still_playing,
)
from tournaments.events.directors import Action, directed_events, may_direct, role_of
from tournaments.events.eventlog import waiting_requests
from tournaments.events.selectors import CLOCK_LONGEST_MINUTES, clock_of
from tournaments.services.change import ActingUser
from tournaments.web.desk.access import directed_event, director_of, director_required
from tournaments.web.desk.directors import staff_context
from tournaments.web.desk.forms import EventForm, problems_by_field
from tournaments.web.desk.print_pages import Printout, printouts_for
from tournaments.web.live import live_unchanged, pager_for
from tournaments.web.me.desk_card import own_links_context

if TYPE_CHECKING:
    from tournaments.models import Entrant, Event, Table, TournamentRound

View = TypeVar("View", bound=Callable[..., HttpResponse])

# A list of names is a few kB; this also stays within the csv module's field limit.
CSV_LARGEST = 128 * 1024
DESK = "tournaments/desk_event.html"
ROUND = "tournaments/desk_round.html"


# A game's word for one round of play, as the desk says it in the reader's language.
ROUND_WORDS = {
    "Round": pgettext_lazy("one round of play of a game", "Round"),
    "Deal": pgettext_lazy("one round of play of a game", "Deal"),
    "Hand": pgettext_lazy("one round of play of a game", "Hand"),
}


def round_word(word: str) -> str:
    """The game's word for a round of play (``kit.word``) in the reader's language."""
    return str(ROUND_WORDS.get(word, word))


def tournament_round_printouts(event: Event, round_: TournamentRound) -> list[Printout]:
    """What the director can print for this round: its own cards, list and scoresheets,
    and the standings as they stand."""
    return [
        replace(p, round_number=round_.number) if p.round_number is not None else p
        for p in printouts_for(event=event)
    ]


# =========================================================================== the desk


def own_event(request: HtmxHttpRequest, pk: int, action: Action = Action.DIRECT) -> Event:
    """The event, if the user may do ``action`` in it (owner, co-director, scorer: see
    ``tournaments.events.directors``); 404 otherwise, as for an event that does not exist."""
    return directed_event(request, pk, action)


def own_entrant(event: Event, value: Any) -> Entrant | None:
    number = parse_int(value) if isinstance(value, str) else None
    if number is None:
        return None
    return selectors.entrant_of(event=event, pk=number)


def own_tournament_round(event: Event, number: int) -> TournamentRound:
    round_ = selectors.tournament_round_of(event=event, number=number)
    if round_ is None:
        raise Http404("no such round")
    return round_


@never_cache
@director_required
@require_GET
def desk(request: HtmxHttpRequest) -> HttpResponse:
    events = directed_events(request.user)
    return render(request, "tournaments/desk.html", {"events": events})


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def event_new(request: HtmxHttpRequest) -> HttpResponse:
    template = "tournaments/event_new.html"
    if request.method == "GET":
        data = request.GET if "game" in request.GET else {}
        return render(request, template, {"form": EventForm(data)})
    form = EventForm(request.POST)
    if request.POST.get("refresh"):
        part = f"{template}#setup" if request.htmx else template
        return render(request, part, {"form": form})
    arguments = form.clean()
    if arguments is not None:
        try:
            event = services.event_create(owner=director_of(request), **arguments)
        except services.TournamentError as error:
            form.add_problems(error.problems)
        else:
            return redirect("tournaments:desk_event", pk=event.pk)
    return render(request, template, {"form": form})


# The desk lists this many players and tables at a time (a 10,000-player event stays light).
PLAYERS_PAGE = 100
LIVE_TABLES_SHOWN = 60


def players_listed(event: Event, query: str, page: int) -> tuple[list[Entrant], dict[str, Any]]:
    """One page of the players whose name holds ``query``, and the pager's facts."""
    shown, page, count = selectors.entrants_page(
        event=event, query=query, page=page, per_page=PLAYERS_PAGE
    )
    pages = max(1, -(-count // PLAYERS_PAGE))
    return shown, {"q": query, "page": page, "pages": pages, "found": count}


def desk_context(
    event: Event, user: ActingUser = None, *, query: str = "", page: int = 1, **extra: Any
) -> dict[str, Any]:
    entrants, pager = players_listed(event, query, page)
    counts = selectors.entrant_counts(event=event)
    desk_rounds = selectors.desk_rounds(event=event)
    published, next_number = desk_rounds.published, desk_rounds.next_number
    closed = selectors.event_closed(event)
    context = {
        "next_round": availability_for(
            event,
            number=next_number,
            entrants=selectors.entrants_for_availability(event=event),
        ),
        "pager": pager,
        "pager_from": PLAYERS_PAGE // 4,
        "entrant_total": counts.registered,
        "check_in_rule": CHECK_IN_RULE,
        "away_choices": selectors.AWAY_SCORING.values,
        "table_size_choices": selectors.table_size_choices(event=event),
        "event": event,
        "entrants": entrants,
        "active_count": counts.active,
        "checked_count": counts.checked_in,
        "started": bool(published),
        "closed": closed,
        "role": role_of(user, event),
        "read_only": closed or not may_direct(user, event, Action.DIRECT),
        "staff": staff_context(event, user),
        "waiting_count": len(waiting_requests(event)),
        "keep_apart": selectors.keep_apart_pairs(event=event),
        "rounds": desk_rounds.rounds,
        "published": published,
        "draft": desk_rounds.draft,
        "next_number": next_number,
        "can_generate": not closed
        and len(published) < event.rounds_planned
        and may_direct(user, event, Action.DIRECT),
        "generation": selectors.generation_for(event=event),
        **live_tables(event, published[-1].number if published else None),
        "players_url": reverse("tournaments:draw", args=[event.public_token]),
        "word": round_word(kit_for(event.game).word).lower(),
        "errors": {},
        **requests_context(event),
        **own_links_context(event, user),
    }
    context.update(extra)
    return context


def live_tables(event: Event, round_number: int | None) -> dict[str, Any]:
    """The latest round's tables for the desk: those still playing first, at most
    ``LIVE_TABLES_SHOWN`` (the round's page lists every one)."""
    if round_number is None:
        return {"live": [], "live_more": 0}
    tables, count = selectors.tables_live_first(
        event=event, round_number=round_number, shown=LIVE_TABLES_SHOWN
    )
    return {"live": tables, "live_more": max(0, count - LIVE_TABLES_SHOWN)}


def requests_context(event: Event) -> dict[str, Any]:
    """The changes closed tables asked of the desk, as the director reads them: who asks
    what, the round as it is now and as asked, and the revision the answer is made at."""
    items: list[dict[str, Any]] = []
    for found in selectors.table_requests(event=event):
        request = found.request
        game = request.game
        word = kit_for(game.kind).word
        seats = presenters.seat_infos(game)
        name = presenters.names_of(seats).get(request.asked_by_seat, gettext("A player"))
        now = found.now
        items.append(
            {
                "request": request,
                "where": found.where,
                "table_id": found.table_id,
                "game": game,
                "text": request_words(request, word, name),
                "now": presenters.entry_text(game, now.entry) if now else "",
                "asked": presenters.entry_text(game, request.entry) if request.entry else "",
                "word": word,
            }
        )
    return {
        "requests": items,
        "requests_key": "-".join(f"{item['request'].pk}.{item['game'].revision}" for item in items),
    }


def request_words(request: Any, word: str, name: str) -> str:
    said = round_word(word).lower()
    if request.kind == "correct":
        return gettext("{name} asks to correct {word} {number}").format(
            name=name, word=said, number=request.round_number
        )
    if request.kind == "undo":
        return gettext("{name} asks to undo {word} {number}").format(
            name=name, word=said, number=request.round_number
        )
    if request.kind == "reopen":
        return gettext("{name} asks to reopen the game").format(name=name)
    return gettext("{name} asks to end the game").format(name=name)


def desk_page(
    request: HtmxHttpRequest, event: Event, part: str = "", status: int = 200, **extra: Any
) -> HttpResponse:
    """The event's desk page, or one of its partials for htmx."""
    event.refresh_from_db()
    asked = request.POST if request.method == "POST" else request.GET
    context = desk_context(
        event,
        request.user,
        query=asked.get("q", "")[:40],
        page=parse_int(asked.get("page", "1")) or 1,
        **extra,
    )
    if part and request.htmx:
        return render(request, f"{DESK}#{part}", context, status=status)
    return render(request, DESK, context, status=status)


def desk_done(request: HtmxHttpRequest, event: Event, part: str, **extra: Any) -> HttpResponse:
    """After a change: the partial for htmx, a redirect (PRG) for a plain form."""
    if request.htmx:
        return desk_page(request, event, part, **extra)
    return redirect("tournaments:desk_event", pk=event.pk)


# How a refusal shows besides its problems by field: extra context for the page, read
# from the request, the error and the view's arguments.
Shown = Callable[..., dict[str, Any]]


def refusal_context(error: Exception, field: str | None = None) -> dict[str, Any]:
    """A service's refusal as the desk shows it: each problem beside its field (all of
    them beside ``field`` when given); while tables still play, which ones."""
    assert isinstance(error, services.TournamentError)
    errors = problems_by_field(error.problems)
    if isinstance(error, services.StillPlayingError):
        return {"errors": {"round": errors["go_on"]}, "still_playing": error.tables}
    if field is not None:
        errors = {field: " ".join(errors.values())}
    return {"errors": errors}


def refusal_shown(
    part: str = "",
    *,
    on_round: bool = False,
    field: str | None = None,
    shown: Shown | None = None,
    refusals: tuple[type[Exception], ...] = (services.TournamentError,),
    page: Callable[..., HttpResponse] | None = None,
) -> Callable[[View], View]:
    """The desk's one answer to a refused change: the page the change came from again
    (the event's desk, or with ``on_round`` the round's page; its ``part`` for htmx; or
    ``page``, given the request, the event and the view's arguments), the refusal beside
    the fields it names (``refusal_context``, or ``shown``'s context for a page that shows
    it its own way). The view only makes its one call."""

    def wrap(view: View) -> View:
        @wraps(view)
        def answered(request: HtmxHttpRequest, **kwargs: Any) -> HttpResponse:
            try:
                return view(request, **kwargs)
            except refusals as error:
                event = own_event(request, kwargs["pk"], Action.VIEW)
                extra = shown(request, error, **kwargs) if shown else refusal_context(error, field)
                if page is not None:
                    return page(request, event, **kwargs, **extra)
                if on_round:
                    round_ = own_tournament_round(event, kwargs["number"])
                    return tournament_round_page(request, event, round_, part, **extra)
                return desk_page(request, event, part, **extra)

        return answered  # type: ignore[return-value]

    return wrap


@never_cache
@director_required
@require_GET
def desk_event(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = own_event(request, pk, Action.VIEW)
    return desk_page(request, event)


@never_cache
@director_required
@require_GET
def desk_live(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every table's state, for the desk's polling (204 while nothing changed)."""
    event = own_event(request, pk, Action.VIEW)
    if not request.htmx:
        return redirect("tournaments:desk_event", pk=event.pk)
    if request.GET.get("part") == "rounds":
        if live_unchanged(request, event):
            return HttpResponse(status=204)
        return desk_page(request, event, "rounds")
    if request.GET.get("part") == "requests":
        context = requests_context(event)
        if request.GET.get("key") == context["requests_key"]:
            return HttpResponse(status=204)
        return desk_page(request, event, "requests")
    if live_unchanged(request, event):
        return HttpResponse(status=204)
    return desk_page(request, event, "live")


def request_refused(
    request: HtmxHttpRequest, error: Exception, *, request_id: int, **kwargs: Any
) -> dict[str, Any]:
    """A refused answer shown beside the request it answers, its reason kept."""
    if isinstance(error, StaleRevision):
        message = "; ".join(problem_text(p) for p in error.problems)
        words = gettext("Nothing done: the table {problem}.").format(problem=message)
    else:
        words = " ".join(refusal_context(error)["errors"].values())
    return {
        "request_error_id": request_id,
        "request_error": words,
        "kept_reason": request.POST.get("reason", "")[:500],
    }


@never_cache
@director_required
@require_POST
@refusal_shown(
    "requests", shown=request_refused, refusals=(StaleRevision, services.TournamentError)
)
def table_request_answer(request: HtmxHttpRequest, pk: int, request_id: int) -> HttpResponse:
    """A director's answer to a closed table's request: made or declined, with a reason."""
    event = own_event(request, pk)
    services.table_request_answer(
        event=event,
        request_id=request_id,
        accept=request.POST.get("answer", "") == "accept",
        reason=request.POST.get("reason", ""),
        revision=posted_revision(request),
        user=request.user,
    )
    return desk_done(request, event, "requests")


# --------------------------------------------------------------------------- entrants


def entrant_refused(request: HtmxHttpRequest, error: Exception, **kwargs: Any) -> dict[str, Any]:
    """A refused player shown with the name and members posted, to correct them."""
    posted = {"name": request.POST.get("name", ""), "members": request.POST.get("members", "")}
    return {**refusal_context(error), "posted": posted}


@never_cache
@director_required
@require_POST
@refusal_shown("entrants", shown=entrant_refused)
def entrant_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A player (or a team: members after the name). Once the event runs, a late entry."""
    event = own_event(request, pk)
    name = request.POST.get("name", "")
    members = [m.strip() for m in request.POST.get("members", "").split(",") if m.strip()]
    late = selectors.event_started(event=event)
    add = services.entrant_add_late if late else services.entrant_add
    add(event=event, name=name, members=members, user=request.user)
    return desk_done(request, event, "entrants", added=name.strip())


def posted_csv(request: HtmxHttpRequest) -> tuple[str, str]:
    """The names posted (an uploaded CSV file, or pasted text), and what is wrong with
    them as sent (empty when nothing is)."""
    upload = request.FILES.get("file")
    text = request.POST.get("text", "")
    problem = ""
    if upload is not None:
        if upload.size is None or upload.size > CSV_LARGEST:
            problem = gettext("The file is larger than {size} kB.").format(size=CSV_LARGEST // 1024)
        else:
            upload.seek(0)
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                problem = gettext(
                    "The file is not UTF-8 text: save it as CSV UTF-8 and upload it again."
                )
    elif not text.strip():
        problem = gettext("Choose a CSV file, or paste the names.")
    elif len(text) > CSV_LARGEST:
        problem = gettext("The names pasted are longer than {size} kB: upload a file.").format(
            size=CSV_LARGEST // 1024
        )
    return text, problem


def csv_refused(request: HtmxHttpRequest, error: Exception, **kwargs: Any) -> dict[str, Any]:
    """A refused list shown whole with its problems, to correct it."""
    assert isinstance(error, services.TournamentError)
    messages = [capfirst(problem_text(p)) for p in error.problems]
    return csv_shown(posted_csv(request)[0], messages)


@never_cache
@director_required
@require_POST
@refusal_shown("entrants", shown=csv_refused)
def entrants_csv(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Names from an uploaded CSV file (or pasted text), one entrant a line: first a
    preview of what the list holds, then (``register=1``) every one registered."""
    event = own_event(request, pk)
    text, problem = posted_csv(request)
    if problem:
        return desk_page(request, event, "entrants", csv_errors=[problem])
    if request.POST.get("register") != "1":  # first a preview: what the list holds
        listed, problems = services.entrants_csv_preview(event=event, text=text)
        messages = [capfirst(problem_text(p)) for p in problems]
        return desk_page(
            request,
            event,
            "entrants",
            **csv_shown(text, messages),
            csv_preview=None if problems else preview_shown(listed),
        )
    created = services.entrants_import_csv(event=event, text=text, user=request.user)
    return desk_done(request, event, "entrants", imported=len(created))


# A list's preview shows its first players and its first problems, and counts the rest:
# a 10,000-line list is not drawn whole in the director's tab.
PREVIEW_PLAYERS = 50
PREVIEW_PROBLEMS = 50
PREVIEW_SKIPPED = 20
# A list longer than this is not put back in the box to edit (it stays in the form
# that registers it): the file is corrected instead.
CSV_EDITABLE = 20_000


def csv_shown(text: str, messages: list[str]) -> dict[str, Any]:
    """The list's text and its problems as the desk shows them: the first problems, and
    how many more; the text back in the box when it is short enough to edit there."""
    return {
        "csv_errors": messages[:PREVIEW_PROBLEMS],
        "csv_errors_more": max(0, len(messages) - PREVIEW_PROBLEMS),
        "csv_text": text,
        "csv_editable": len(text) <= CSV_EDITABLE,
    }


def preview_shown(listed: Any) -> dict[str, Any]:
    """The preview's first players and lines skipped, and how many there are in all."""
    return {
        "players": listed.players[:PREVIEW_PLAYERS],
        "count": len(listed.players),
        "more": max(0, len(listed.players) - PREVIEW_PLAYERS),
        "skipped": [said(note) for note in listed.skipped[:PREVIEW_SKIPPED]],
        "skipped_more": max(0, len(listed.skipped) - PREVIEW_SKIPPED),
    }


def ticked(request: HtmxHttpRequest) -> bool:
    """A check-in tick sent by the desk's script, answered in JSON (one row at a time)."""
    return request.headers.get("X-Tick") == "1"


def tick_answer(event: Event, entrant_id: int, wanted: bool, user: ActingUser) -> JsonResponse:
    """A tick saved or refused, for the row that sent it: the player as now kept (so a
    tick is acknowledged only once it is), the event's count, or the refusal in words."""
    entrant = selectors.entrant_of(event=event, pk=entrant_id)
    if entrant is None:
        return JsonResponse(
            {"error": gettext("This player is no longer in the event.")}, status=409
        )
    try:
        entrant = services.entrant_check_in(
            event=event, entrant=entrant, checked_in=wanted, user=user
        )
    except services.TournamentError as error:
        words = " ".join(problem_text(p) for p in error.problems)
        return JsonResponse({"error": words[:1].upper() + words[1:] + "."}, status=409)
    counts = selectors.entrant_counts(event=event)
    return JsonResponse(
        {"id": entrant.pk, "checked_in": entrant.checked_in, "checked": counts.checked_in}
    )


@never_cache
@director_required
@require_POST
@refusal_shown("entrants")
def entrant_check_in(request: HtmxHttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    wanted = request.POST.get("checked_in", "") in {"on", "1", "true"}
    if ticked(request):
        return tick_answer(own_event(request, pk), entrant_id, wanted, request.user)
    return entrant_change(
        request, pk, entrant_id, partial(services.entrant_check_in, checked_in=wanted)
    )


@never_cache
@director_required
@require_POST
@refusal_shown("entrants")
def entrants_check_in_all(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Check in every player not dropped, or (``q``) those the search finds."""
    event = own_event(request, pk)
    query = request.POST.get("q", "")[:40]
    count = services.entrants_check_in_all(event=event, query=query, user=request.user)
    return desk_done(request, event, "entrants", checked_all=count, checked_query=query)


@never_cache
@director_required
@require_POST
@refusal_shown("entrants")
def entrant_drop(request: HtmxHttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    return entrant_change(request, pk, entrant_id, services.entrant_drop)


@never_cache
@director_required
@require_POST
@refusal_shown("entrants")
def entrant_return(request: HtmxHttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    return entrant_change(request, pk, entrant_id, services.entrant_return)


def entrant_change(
    request: HtmxHttpRequest, pk: int, entrant_id: int, change: Callable[..., Any]
) -> HttpResponse:
    """One service on a player (check-in, drop); a refusal shows beside the players."""
    event = own_event(request, pk)
    entrant = selectors.entrant_of(event=event, pk=entrant_id)
    if entrant is None:
        raise Http404("no such player")
    change(event=event, entrant=entrant, user=request.user)
    return desk_done(request, event, "entrants")


@never_cache
@director_required
@require_POST
@refusal_shown("entrants")
def away_scoring(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """How a player away for a round scores for it."""
    event = own_event(request, pk)
    services.event_away_scoring_set(
        event=event, away_scoring=request.POST.get("away_scoring", ""), user=request.user
    )
    return desk_done(request, event, "entrants")


@never_cache
@director_required
@require_POST
@refusal_shown("entrants")
def table_sizes(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table sizes the event allows from its next seating on."""
    event = own_event(request, pk)
    sizes = [int(t) for t in request.POST.getlist("table_sizes") if t.strip().isdigit()]
    if len(sizes) != len(request.POST.getlist("table_sizes")):
        raise services.TournamentError.single(
            N_("choose table sizes from the list"), field="table_sizes"
        )
    services.event_table_sizes_set(event=event, table_sizes=sizes, user=request.user)
    return desk_done(request, event, "entrants")


@never_cache
@director_required
@require_POST
@refusal_shown("entrants")
def keep_apart_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = own_event(request, pk)
    services.keep_apart_add(
        event=event,
        first=own_entrant(event, request.POST.get("first")),
        second=own_entrant(event, request.POST.get("second")),
        user=request.user,
    )
    return desk_done(request, event, "entrants")


# --------------------------------------------------------------------------- rounds


@never_cache
@director_required
@require_POST
@refusal_shown("rounds", field="round")
def tournament_round_generate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Seat the next round as a draft: at once, or by the worker for a large event."""
    event = own_event(request, pk)
    go_on = request.POST.get("go_on") == "1"
    round_ = tasks.tournament_round_generate_start(
        event=event,
        user=request.user,
        go_on=go_on,
        number=parse_int(request.POST.get("round", "")),
        draft=parse_int(request.POST.get("draft", "")),
    )
    if round_ is None:  # queued: the desk shows the worker's progress
        return desk_done(request, event, "generation")
    return redirect("tournaments:desk_round", pk=event.pk, number=round_.number)


@never_cache
@director_required
@require_GET
def generation(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The background generation's progress, polled while it runs."""
    event = own_event(request, pk, Action.VIEW)
    return desk_page(request, event, "generation")


@never_cache
@director_required
@require_POST
@refusal_shown("generation", field="round")
def generation_restart(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Start a stuck seating or publishing again (its worker died, its message was lost):
    the one the button was drawn for."""
    event = own_event(request, pk)
    work = request.POST.get("work")
    tasks.background_job_restart(
        event=event,
        user=request.user,
        number=parse_int(request.POST.get("round", "")),
        work=work if work in ("seat", "publish") else None,
    )
    return desk_done(request, event, "generation")


# The round's page lists this many tables at a time (a 10,000-player event stays light);
# a search by table numbers or names finds any of them.
ROUND_TABLES_PAGE = 100


def tournament_round_tables_shown(
    round_: TournamentRound, query: str, page: int
) -> tuple[list[int], Any]:
    """The numbers of the round's tables on this page (of those the search names), and
    the pager's facts."""
    numbers = selectors.table_numbers_found(round=round_, query=query)
    pager = pager_for(len(numbers), page, ROUND_TABLES_PAGE)
    pager["q"] = query
    pager["paged"] = bool(query) or pager["pages"] > 1
    return numbers[pager["first"] - 1 : pager["last"]], pager


def tournament_round_context(
    event: Event,
    round_: TournamentRound,
    user: ActingUser = None,
    *,
    query: str = "",
    page: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    shown, pager = tournament_round_tables_shown(round_, query, page)
    draw = selectors.draw_for(event=event, round=round_, numbers=shown)
    seated = sorted(
        {(s.entrant_id, s.entrant_name) for t in (draw.tables if draw else ()) for s in t.seats},
        key=lambda pair: pair[1].casefold(),
    )
    facts = selectors.round_facts(event=event, round=round_, numbers=shown)
    byes, tables = facts.byes, facts.table_ids
    closed = selectors.event_closed(event)
    published = selectors.is_published(round_)
    live = (
        selectors.tables_live_numbered(event=event, round_number=round_.number, numbers=shown)
        if published
        else []
    )
    context = {
        "event": event,
        "round": round_,
        "draw": draw,
        "pager": pager,
        # The search shows once the round's tables take more than one page.
        "searchable": pager["paged"],
        "report": dict(round_.report),
        "in_round": seated + [(b.entrant_id, b.entrant.name) for b in byes],
        "absences": facts.absences,
        # A draft waits for the tables of earlier rounds still playing: who, on the page.
        "still_playing": [t for t in tables_still_playing(event) if t.round_number < round_.number]
        if not published
        else [],
        "live": [
            {
                "state": state,
                "results_url": (
                    reverse("tournaments:desk_table", args=[event.pk, tables[state.table]])
                    if state.table in tables
                    else ""
                ),
            }
            for state in live
        ],
        # Only before any result is in: a round with deals played cannot be taken back.
        "can_direct": may_direct(user, event, Action.DIRECT),
        "clock": clock_of(round_) if published else None,
        "clock_longest": CLOCK_LONGEST_MINUTES,
        "can_undo": published
        and may_direct(user, event, Action.DIRECT)
        and facts.last_number == round_.number
        and not closed
        and not selectors.tournament_round_has_deals(round=round_),
        "printouts": tournament_round_printouts(event, round_) if published else [],
        "papers": paper_choices(),
        "paper": default_paper(),
        "closed": closed,
        "word": round_word(kit_for(event.game).word).lower(),
        "errors": {},
    }
    context.update(extra)
    return context


def tournament_round_page(
    request: HtmxHttpRequest, event: Event, round_: TournamentRound, part: str = "", **extra: Any
) -> HttpResponse:
    """The round's page (one page of its tables, of those searched for), or a partial."""
    event.refresh_from_db()
    round_.refresh_from_db()
    asked = request.POST if request.method == "POST" else request.GET
    context = tournament_round_context(
        event,
        round_,
        request.user,
        query=asked.get("q", "")[:60],
        page=parse_int(asked.get("page", "1")) or 1,
        **extra,
    )
    if part and request.htmx:
        return render(request, f"{ROUND}#{part}", context)
    return render(request, ROUND, context)


@never_cache
@director_required
@require_GET
def desk_round(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    event = own_event(request, pk, Action.VIEW)
    round_ = own_tournament_round(event, number)
    if request.htmx and request.GET.get("part") == "live":
        if live_unchanged(request, event):
            return HttpResponse(status=204)
        return tournament_round_page(request, event, round_, "live")
    return tournament_round_page(request, event, round_)


@never_cache
@director_required
@require_POST
@refusal_shown("draft", on_round=True)
def tournament_round_swap(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Swap two players of a draft; the page shows the seating cost before and after."""
    event = own_event(request, pk)
    round_ = own_tournament_round(event, number)
    if "draft" in request.POST:  # the draft the page showed, not one seated since
        services.tournament_round_opened_check(
            event=event, number=number, draft=parse_int(request.POST.get("draft", ""))
        )
    swapped = services.tournament_round_swap(
        event=event,
        round=round_,
        first=own_entrant(event, request.POST.get("first")),
        second=own_entrant(event, request.POST.get("second")),
        user=request.user,
    )
    return tournament_round_page(
        request,
        event,
        round_,
        "draft",
        swapped={
            "first": swapped.first,
            "second": swapped.second,
            "before": swapped.before.get("cost"),
            "after": swapped.after.get("cost"),
            "change": swapped.cost_change,
            "repeats_before": swapped.before.get("repeated_pairs"),
            "repeats_after": swapped.after.get("repeated_pairs"),
        },
    )


@never_cache
@director_required
@require_POST
@refusal_shown(on_round=True)
def tournament_round_publish(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Publish a draft; while tables of the round before play, the page shows who and
    offers to go on without them."""
    event = own_event(request, pk)
    round_ = own_tournament_round(event, number)
    go_on = request.POST.get("go_on") == "1"
    queued = tasks.tournament_round_publish_start(
        event=event,
        round=round_,
        user=request.user,
        go_on=go_on,
        draft=parse_int(request.POST.get("draft", "")),
        checked="draft" in request.POST,
    )
    if queued:
        return redirect("tournaments:desk_event", pk=event.pk)
    return redirect("tournaments:desk_round", pk=event.pk, number=round_.number)


@never_cache
@director_required
@require_POST
@refusal_shown(on_round=True)
def tournament_round_undo(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Take back the last round before any result is in; a refusal shows on its page."""
    event = own_event(request, pk)
    round_ = own_tournament_round(event, number)
    services.tournament_round_undo(event=event, round=round_, user=request.user)
    return redirect("tournaments:desk_round", pk=event.pk, number=round_.number)


@never_cache
@director_required
@require_POST
@refusal_shown()
def event_close(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = own_event(request, pk)
    services.event_close(event=event, user=request.user)
    return redirect("tournaments:desk_event", pk=event.pk)


# --------------------------------------------------------------------------- results


def own_table(event: Event, table_id: int) -> Table:
    table = selectors.table_of(event=event, table_id=table_id)
    if table is None:
        raise Http404("no such table")
    if table.game is None:
        raise Http404("this table has no game yet")
    return table


# What the table page says once a change of the director's is made.
TABLE_DONE = {
    "undo": gettext_lazy("The last deal was undone."),
    "remove": gettext_lazy("The deal was removed; the later deals moved up one."),
    "end": gettext_lazy("The game was ended at the totals standing."),
    "correct": gettext_lazy("The correction stands."),
}


def table_page(
    request: HtmxHttpRequest, event: Event, *, table_id: int, status: int = 200, **extra: Any
) -> HttpResponse:
    """One table's deals, each with a way to correct it, and the director's word on the
    table's result: undo the last deal, remove any deal, end the game at the totals."""
    table = own_table(event, table_id)
    game = table.game
    assert game is not None
    game.refresh_from_db()
    score = game_score(game)
    seats = presenters.seat_infos(game)
    rounds = selectors.table_deals(game=game)
    context = {
        "event": event,
        "table": table,
        "game": game,
        "board": presenters.scoreboard(game, score, seats),
        "rows": presenters.round_rows(game, score, seats, rounds),
        "word": round_word(kit_for(game.kind).word),
        "closed": table_closed(game),
        "last": rounds[-1].number if rounds else None,
        "can_end": not score.finished and not game.ending,
        "done": TABLE_DONE.get(request.GET.get("done", "")),
        "errors": {},
        **extra,
    }
    return render(request, "tournaments/desk_table.html", context, status=status)


@never_cache
@director_required
@require_GET
def desk_table(request: HtmxHttpRequest, pk: int, table_id: int) -> HttpResponse:
    """One table's deals and the director's word on them (``table_page``)."""
    event = own_event(request, pk, Action.SCORE)
    return table_page(request, event, table_id=table_id)


# A change that would change how the game ended, said without its way out: the choices
# offered below it are that way out.
LATER_FIRST = N_(
    "{what} would make deal {at} invalid ({problem}); correct or undo the later deals first"
)
LATER_CHOOSE = N_("{what} would make deal {at} invalid ({problem})")
# The choices, by what is made (a correction, a removal) and where the game ends.
LATER_END = {
    (False, False): N_("Correct it and end the game at {word} {number}"),
    (False, True): N_("Correct it and end the game before the first {word}"),
    (True, False): N_("Remove it and end the game at {word} {number}"),
    (True, True): N_("Remove it and end the game before the first {word}"),
}
LATER_UNDO = {
    False: N_("Correct it and undo the later {words}"),
    True: N_("Remove it and undo the later {words}"),
}
# The game's word for a round of play, lower case and in the plural, in the reader's
# language.
ROUNDS_WORDS = {
    "Round": pgettext_lazy("rounds of play of a game, lower case", "rounds"),
    "Deal": pgettext_lazy("rounds of play of a game, lower case", "deals"),
    "Hand": pgettext_lazy("rounds of play of a game, lower case", "hands"),
}


def later_choices(error: LaterDealsBreak, word: str, action: str) -> dict[str, Any]:
    """A change that would change how the game ended, as the desk offers it: with the later
    deals removed, the game ended there, or going on from there (one choice when the game
    ends there by itself); in the reader's language."""
    kept, name = error.kept, round_word(word).lower()
    words = str(ROUNDS_WORDS.get(word, f"{name}s"))
    return {
        # The choices below are the way through: the message says what would break.
        "message": "; ".join(
            problem_text(
                replace(p, template=LATER_CHOOSE) if p.template == LATER_FIRST else p,
                seats_from=1,
            )
            for p in error.problems
        ),
        "action": action,
        "number": error.number,
        "end": phrase_text(LATER_END[(error.removing, kept == 0)], {"word": name, "number": kept}),
        "undo": "" if error.ends else phrase_text(LATER_UNDO[error.removing], {"words": words}),
        "ends": error.ends,
    }


def posted_later(request: HtmxHttpRequest) -> Later | None:
    """What the director chose for the later deals of a change that ends the game
    otherwise: "end" (the game ends at the changed deal) or "undo" (it goes on)."""
    later = request.POST.get("later", "")
    if later == "end":
        return "end"
    if later == "undo":
        return "undo"
    return None


def table_refused(
    request: HtmxHttpRequest, error: Exception, *, table_id: int, **kwargs: Any
) -> dict[str, Any]:
    """A refused change of the table's result, shown on the table's page: a stale page
    with what is there now, a change that would change how the game ended with its
    choices, any other refusal beside its field; the reason typed is kept."""
    shown: dict[str, Any] = {"kept_reason": request.POST.get("reason", "")[:500], "status": 200}
    if isinstance(error, StaleRevision):
        shown["stale"] = True
    elif isinstance(error, LaterDealsBreak):
        game = own_table(own_event(request, kwargs["pk"], Action.SCORE), table_id).game
        assert game is not None
        word = kit_for(game.kind).word
        shown["breaks"] = later_choices(error, word, request.POST.get("action", "remove"))
    else:
        shown.update(refusal_context(error))
    return shown


@never_cache
@director_required
@require_POST
@refusal_shown(
    shown=table_refused,
    refusals=(StaleRevision, LaterDealsBreak, services.TournamentError),
    page=lambda request, event, **kwargs: table_page(
        request, event, **{k: v for k, v in kwargs.items() if k != "pk"}
    ),
)
def table_change(request: HtmxHttpRequest, pk: int, table_id: int) -> HttpResponse:
    """The director's word on a table's result, with a reason: undo the last deal, remove
    a deal, end the game at the totals standing (audited and revision-checked by the
    service; a stale page is refused, never applied)."""
    event = own_event(request, pk, Action.SCORE)
    table = own_table(event, table_id)
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "")
    revision = posted_revision(request)
    if action == "end":
        services.result_end_at_totals(
            event=event, table=table, user=request.user, reason=reason, revision=revision
        )
    elif action in ("undo", "remove"):
        number = parse_int(request.POST.get("last" if action == "undo" else "number", ""))
        if number is None:
            raise services.TournamentError.single(N_("say which deal"), field="number")
        services.result_remove(
            event=event,
            table=table,
            number=number,
            user=request.user,
            reason=reason,
            revision=revision,
            later=posted_later(request),
        )
    else:
        raise services.TournamentError.single(N_("undo, remove or end"), field="action")
    url = reverse("tournaments:desk_table", args=[event.pk, table.pk])
    return redirect(f"{url}?done={action}")


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def result_correct(request: HtmxHttpRequest, pk: int, table_id: int, number: int) -> HttpResponse:
    """The director replaces one deal of a table's game, with a reason (audited by the
    service); one that would change how the game ended is offered with the later deals
    removed: the game ended at this deal, or going on from it."""
    event = own_event(request, pk, Action.SCORE)
    table = own_table(event, table_id)
    game = table.game
    assert game is not None
    kit = kit_for(game.kind)
    round_, form, seats, score = correction_form(request, game, number)
    post_url = reverse("tournaments:result_correct", args=[event.pk, table.pk, number])
    context = {
        "event": event,
        "table": table,
        "game": game,
        "seats": seats,
        "form": form,
        "number": number,
        "word": kit.word,
        "kit": kit,
        "was": presenters.round_rows(game, score, seats, [round_])[0],
        "game_template": kit.entry_template,
        "correcting": True,
        "upcoming": form.context,
        "heading": presenters.entry_heading(kit, form.context, seats),
        "post_url": post_url,
        "key": "",
        "revision": game.revision if request.method == "GET" else posted_revision(request),
        "desk_fields": "tournaments/desk_correct.html#reason",
        "kept_reason": request.POST.get("reason", "")[:500],
    }
    template = "tournaments/desk_correct.html"
    if request.method == "POST":
        if request.POST.get("action") == "preview":
            return preview_response(request, game, form, number, correcting=True)
        entry = {"misdeal": True} if request.POST.get("action") == "misdeal" else form.clean()
        if entry is not None:
            try:
                services.result_correct(
                    event=event,
                    table=table,
                    number=number,
                    entry=entry,
                    user=request.user,
                    reason=request.POST.get("reason", ""),
                    revision=posted_revision(request),
                    later=posted_later(request),
                )
            except StaleRevision as stale:
                context.update(stale_context(game, number, stale))
            except LaterDealsBreak as error:
                context["breaks"] = later_choices(error, kit.word, "correct")
            except services.TournamentError as error:
                said = problems_by_field(error.problems)
                if "reason" in said:
                    context["reason_error"] = said["reason"]
                form.add_problems([p for p in error.problems if p.field != "reason"])
            else:
                url = reverse("tournaments:desk_table", args=[event.pk, table.pk])
                url = f"{url}?done=correct"
                if request.htmx:
                    return HttpResponseClientRedirect(url)
                return redirect(url)
        if request.htmx:
            response = render(request, f"{template}#form", context)
            if "breaks" in context:
                # The choices in sight, above the form's save bar.
                response["HX-Reswap"] = "outerHTML show:#later-choices:top"
            return response
    return render(request, template, context)


# --------------------------------------------------------------------------- export


@never_cache
@director_required
@require_GET
def standings_csv(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = own_event(request, pk, Action.VIEW)
    view = selectors.standings_for(event=event)
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow(
        [
            gettext("Rank"),
            gettext("Name"),
            *view.labels,
            gettext("Tables played"),
            gettext("Byes"),
            gettext("Dropped"),
        ]
    )
    dropped_word = pgettext("a dropped player, in the standings file", "yes")
    for row in view.rows:
        values = ["" if v is None else (int(v) if float(v).is_integer() else v) for v in row.values]
        dropped = dropped_word if row.dropped else ""
        writer.writerow([row.rank, row.name, *values, row.played, row.byes, dropped])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    name = slugify(event.name) or "event"
    response["Content-Disposition"] = f'attachment; filename="{name}-standings.csv"'
    return response


@never_cache
@director_required
@require_GET
def event_json(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = own_event(request, pk, Action.VIEW)
    response = JsonResponse(
        services.event_export(event=event), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    name = slugify(event.name) or "event"
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response
