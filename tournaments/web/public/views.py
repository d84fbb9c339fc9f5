"""The players' pages of an event, under /e/<public token>/: draw, seat search, standings,
a player's own page and the projector.

They need no login: the event's public token in the URL is the capability. Each polls its
live part with the event's revision and gets 204 while nothing changed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from redis.exceptions import RedisError

from common.htmx import HtmxHttpRequest
from tournaments.events import selectors, signup_selectors
from tournaments.events.selectors import clock_of
from tournaments.standings import adapter as results
from tournaments.standings.core import METRIC_LABELS
from tournaments.standings.core.shown import columns_with_values
from tournaments.web.live import live_unchanged, pager_for

if TYPE_CHECKING:
    from tournaments.models import Event

T = TypeVar("T")


# The players' pages show this many tables and standings rows at a time, so that a
# 10,000-player event's pages stay light on a phone; search finds anyone on any page.
TABLES_PAGE = 50
STANDINGS_PAGE = 100
# The projector holds this many tables and standings rows at a time, and asks for the
# next slice as it cycles: no answer carries a 10,000-player event whole.
PROJECTOR_TABLES = 100
PROJECTOR_ROWS = 200
# "Where do I sit" lists this many players at most: typing more of the name finds the rest.
SEATS_FOUND = 30


def page_number(request: HtmxHttpRequest) -> int:
    """The page asked for (``?page=``), 1 when it is missing or not a number."""
    text = request.GET.get("page", "1")
    return int(text) if text.isdigit() and len(text) < 7 else 1


def page_of(items: Sequence[T], page: int, size: int) -> tuple[Sequence[T], dict[str, Any]]:
    """One page of ``items`` (a page past the end shows the last), and the pager's facts."""
    pager = pager_for(len(items), page, size)
    return items[pager["first"] - 1 : pager["page"] * size], pager


def public_event(token: str, *, poll: bool = False) -> Event:
    event = selectors.event_by_public_token(token=token, poll=poll)
    if event is None:
        raise Http404("no such event")
    return event


def is_poll(request: HtmxHttpRequest) -> bool:
    """A page's live part asking whether anything is new (htmx, with what it shows)."""
    return bool(request.htmx) and "rev" in request.GET


def polled_event(request: HtmxHttpRequest, token: str) -> Event:
    """The event as a poll needs it to find whether anything is new (a few columns; the
    whole row is read only when the page is drawn), or the whole row for a page."""
    return public_event(token, poll=is_poll(request))


def public_page(
    request: HtmxHttpRequest, event: Event, template: str, context: dict[str, Any]
) -> HttpResponse:
    """A player's page, or its live part for a poll (204 while the revision is the same)."""
    if is_poll(request):
        return render(request, f"{template}#live", context)
    return render(request, template, context)


# A poll's live part that is the same for every phone (the standings, the projector) is
# drawn once for what it shows and kept for all: the room's phones then cost a cache read
# each. Its round clock, which counts from the moment it is drawn, is drawn for each.
CLOCK_MARK = "<!--round-clock-->"
LIVE_KEPT_SECONDS = 600


def shared_live(
    request: HtmxHttpRequest,
    event: Event,
    key: str,
    template: str,
    context: Callable[[], dict[str, Any]],
) -> HttpResponse:
    """The live part of ``template`` for a poll, drawn once for ``key`` (what it shows)
    from ``context()`` and kept; the clock drawn now. ``context()`` names the key of what
    it holds as ``live_key`` (it may be newer than ``key``)."""
    with suppress(RedisError, OSError):
        kept = cache.get(key)
    if kept is None:
        drawn = context()
        kept = render_to_string(f"{template}#live", {**drawn, "clock_later": True}, request)
        with suppress(RedisError, OSError):
            cache.set(drawn["live_key"], kept, LIVE_KEPT_SECONDS)
    clock = render_to_string("scoring/_clock.html", {"clock": latest_clock(event)})
    return HttpResponse(kept.replace(CLOCK_MARK, clock, 1))


def latest_clock(event: Event) -> Any:
    """The clock of the event's latest published round."""
    return clock_of(selectors.latest_published_round(event=event))


def standings_context(
    event: Event,
    *,
    query: str = "",
    page: int | None = None,
    size: int = STANDINGS_PAGE,
    lag: bool = True,
) -> dict[str, Any]:
    """The standings rows as kept (``lag``: see ``selectors.standings_for``); with
    ``page``, one page (of ``size`` rows) of those whose name holds ``query``: with no
    query, only that page's rows are read."""
    needle = selectors.folded(query) if page is not None else ""
    pager: dict[str, Any] | None = None
    if page is not None and not needle:
        kept, count, page = results.kept_page(event, page=page, size=size, lag=lag)
        view = selectors.StandingsView(
            metrics=tuple(m.value for m in kept.metrics),
            labels=tuple(gettext(METRIC_LABELS[m]) for m in kept.metrics),
            rows=kept.rows,
            revision=event.revision,
            version=kept.version,
        )
        listed: Sequence[selectors.StandingRow] = view.rows
        pager = pager_for(count, page, size)
    else:
        view = selectors.standings_for(event=event, lag=lag)
        listed = view.rows
        count = len(view.rows)
        if page is not None:
            listed = [r for r in view.rows if needle in selectors.folded(r.name)]
            listed, pager = page_of(listed, page, size)
    if pager is not None:
        pager["q"] = query
    # A column with no value in any row shown (all dashes) is left out.
    kept_columns = columns_with_values((row.values for row in listed), len(view.labels))
    view = dataclasses.replace(
        view,
        metrics=tuple(view.metrics[i] for i in kept_columns),
        labels=tuple(view.labels[i] for i in kept_columns),
    )
    # Each player's link made from one reversed address (hundreds of rows a page).
    before, _, after = reverse("tournaments:entrant", args=[event.public_token, 0]).rpartition("0")
    rows = [
        {
            "rank": row.rank,
            "entrant_id": row.entrant_id,
            "url": f"{before}{row.entrant_id}{after}",
            "name": row.name,
            "values": [results.metric_shown(row.values[i]) for i in kept_columns],
            "played": row.played,
            "byes": row.byes,
            "dropped": row.dropped,
        }
        for row in listed
    ]
    return {
        "standings": view,
        "standings_rows": rows,
        "standings_count": count,
        "pager": pager,
        "pager_from": STANDINGS_PAGE // 4,
    }


def public_base(event: Event) -> dict[str, Any]:
    return {
        "event": event,
        # When and where, and the desk's announcements (read only when a page shows them).
        "when_where": signup_selectors.when_and_where(event),
        "announcements": signup_selectors.announcements_for(event),
        # Called by a template that shows it (the draw's link to the sign-up page).
        "signup_open": partial(signup_selectors.signup_is_open, event),
        "clock": latest_clock(event),
        "revision": event.revision,
        "draw_url": reverse("tournaments:draw", args=[event.public_token]),
        "standings_url": reverse("tournaments:standings", args=[event.public_token]),
        "projector_url": reverse("tournaments:projector", args=[event.public_token]),
    }


@never_cache
@require_GET
def draw(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The current draw, and "where do I sit" by name."""
    event = public_event(token)
    if live_unchanged(request, event):
        return HttpResponse(status=204)
    query = request.GET.get("q", "")[:40]
    context = {
        **public_base(event),
        **draw_context(event, page_number(request)),
        "query": query,
        **found_context(event, query),
    }
    return public_page(request, event, "tournaments/draw.html", context)


def draw_context(event: Event, page: int, size: int = TABLES_PAGE) -> dict[str, Any]:
    """The current draw, one page (of ``size`` tables) read from the database."""
    page = max(1, page)
    draw = selectors.draw_for(event=event, offset=(page - 1) * size, limit=size)
    if draw is None:
        return {"draw": None, "tables": (), "pager": pager_for(0, page, size)}
    pager = pager_for(draw.table_count, page, size)
    if pager["page"] != page:  # past the end: the last page
        draw = selectors.draw_for(event=event, offset=pager["first"] - 1, limit=size)
    return {"draw": draw, "tables": draw.tables if draw else (), "pager": pager}


def found_context(event: Event, query: str) -> dict[str, Any]:
    """The first players whose name holds ``query`` and where they sit, and whether more
    match than are listed."""
    found = (
        selectors.seat_find(event=event, query=query, limit=SEATS_FOUND + 1)
        if query.strip()
        else []
    )
    return {"found": found[:SEATS_FOUND], "found_more": len(found) > SEATS_FOUND}


@never_cache
@require_GET
def seat_search(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The search's answers, as the name is typed."""
    event = public_event(token)
    query = request.GET.get("q", "")[:40]
    context = {
        **public_base(event),
        "query": query,
        **found_context(event, query),
    }
    if not request.htmx:
        context.update(draw_context(event, page_number(request)))
        return render(request, "tournaments/draw.html", context)
    return render(request, "tournaments/draw.html#found", context)


def shown_unchanged(request: HtmxHttpRequest, shown: str) -> bool:
    """A poll whose page already shows this: nothing to swap (204)."""
    return bool(request.htmx) and request.GET.get("rev") == shown


# The standings page, a player's own page and the projector poll with what they show
# (the version of the standings kept, and a player's own tables), not the event's
# revision, which every deal at any table moves: a poll that finds nothing new for its
# page costs a cache read and a small query, and hundreds of phones cost the tables
# little. Changes the director makes (the clock, a round, a drop) are in the version.


@never_cache
@require_GET
def standings(request: HtmxHttpRequest, token: str) -> HttpResponse:
    event = polled_event(request, token)
    shown = f"s{selectors.standings_version(event=event)}"
    if shown_unchanged(request, shown):
        return HttpResponse(status=204)
    event = public_event(token) if is_poll(request) else event
    query = request.GET.get("q", "")[:40]
    page = page_number(request)
    template = "tournaments/standings.html"

    def context() -> dict[str, Any]:
        drawn = {**public_base(event), **standings_context(event, query=query, page=page)}
        drawn["revision"] = f"s{drawn['standings'].version}"
        drawn["live_key"] = live_key(event, drawn["revision"], page, query)
        return drawn

    if is_poll(request):
        return shared_live(request, event, live_key(event, shown, page, query), template, context)
    return render(request, template, context())


def live_key(event: Event, *parts: object) -> str:
    """The cache key of a live part drawn for every phone: the event, what it shows, and
    the language it is drawn in (each reader's phone reads its own)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return ":".join(["live", event.public_token, language, *(str(part) for part in parts)])


@never_cache
@require_GET
def entrant(request: HtmxHttpRequest, token: str, entrant_id: int) -> HttpResponse:
    # The player and their event in one query (a poll answered 204 reads nothing else).
    person = selectors.public_entrant(token=token, entrant_id=entrant_id)
    if person is None:
        raise Http404("no such player")
    event = person.event
    tables = selectors.entrant_tables_key(event=event, entrant=person)
    if shown_unchanged(request, f"{selectors.standings_version(event=event)}.{tables}"):
        return HttpResponse(status=204)
    page = selectors.entrant_page(event=event, entrant=person, lag=True)
    context = {
        **public_base(event),
        "revision": f"{page.standings_version}.{tables}",
        "person": person,
        "page": page,
        # A rank means something once a result (or a bye) counts.
        "has_results": bool(page.bye_rounds) or any(t.state == selectors.DONE for t in page.tables),
    }
    return public_page(request, event, "tournaments/entrant.html", context)


def projector_number(request: HtmxHttpRequest, name: str) -> int:
    """A page number the projector asks with (``draw_page=``, ``standings_page=``)."""
    text = request.GET.get(name, "1")
    return int(text) if text.isdigit() and len(text) < 7 else 1


def projector_draw(event: Event, page: int) -> dict[str, Any]:
    """One slice of the current draw's tables for the projector, and the slice's facts."""
    context = draw_context(event, page, size=PROJECTOR_TABLES)
    return {"draw": context["draw"], "draw_pager": context["pager"]}


def projector_standings(event: Event, page: int) -> dict[str, Any]:
    """One slice of the standings for the projector, and the slice's facts."""
    context = standings_context(event, page=page, size=PROJECTOR_ROWS)
    return {**context, "standings_pager": context["pager"]}


# The projector's panels (a slice of the draw, a slice of the standings) are drawn once
# for what they show and kept for every screen and process: the draw's slice for the
# round's seating (it changes only with a director's change, which the results' version
# names), the standings' slice for the version of the standings shown.


def kept_panel(
    request: HtmxHttpRequest, key: str, name: str, context: Callable[[], dict[str, Any]]
) -> str:
    """The projector's partial ``name``, drawn from ``context()`` once for ``key``."""
    with suppress(RedisError, OSError):
        kept = cache.get(key)
        if kept is not None:
            return mark_safe(kept)  # drawn by the template, as below
    drawn = render_to_string(f"tournaments/projector.html#{name}", context(), request)
    with suppress(RedisError, OSError):
        cache.set(key, drawn, LIVE_KEPT_SECONDS)
    return mark_safe(drawn)  # the template escaped what it drew


def draw_panel(request: HtmxHttpRequest, event: Event, page: int) -> str:
    """The projector's slice ``page`` of the current draw, drawn once for every screen."""
    director, _, when = results.version_parts(results.results_version(event))
    key = live_key(event, "panel-draw", director, when, page)
    return kept_panel(
        request, key, "panel_draw", lambda: {**public_base(event), **projector_draw(event, page)}
    )


def standings_panel(
    request: HtmxHttpRequest, event: Event, page: int, version: str | None = None
) -> str:
    """The projector's slice ``page`` of the standings shown (those of ``version``, the
    version shown now when not given), drawn once for every screen."""
    version = selectors.standings_version(event=event) if version is None else version
    key = live_key(event, "panel-standings", version, page)
    return kept_panel(
        request,
        key,
        "panel_standings",
        lambda: {**public_base(event), **projector_standings(event, page)},
    )


@never_cache
@require_GET
def projector(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Draw and standings in large type, cycling, for a screen on the wall: a slice of
    each at a time; the page's script asks for the next slice (``?part=draw&page=``,
    ``?part=standings&page=``) as it cycles, and the poll for the slices shown."""
    event = polled_event(request, token)
    template = "tournaments/projector.html"
    part = request.GET.get("part", "")
    if part == "draw":
        return HttpResponse(draw_panel(request, event, page_number(request)))
    if part == "standings":
        return HttpResponse(standings_panel(request, event, page_number(request)))
    shown = f"p{selectors.standings_version(event=event)}"  # the draw changes with it
    if shown_unchanged(request, shown):
        return HttpResponse(status=204)
    event = public_event(token) if is_poll(request) else event
    draw_page = projector_number(request, "draw_page")
    standings_page = projector_number(request, "standings_page")

    def context() -> dict[str, Any]:
        version = selectors.standings_version(event=event)
        drawn = {
            **public_base(event),
            "draw_panel": draw_panel(request, event, draw_page),
            "standings_panel": standings_panel(request, event, standings_page, version),
            "players_link": request.build_absolute_uri(
                reverse("tournaments:draw", args=[event.public_token])
            ),
        }
        drawn["revision"] = f"p{version}"
        drawn["live_key"] = live_key(event, drawn["revision"], draw_page, standings_page)
        return drawn

    if is_poll(request):
        key = live_key(event, shown, draw_page, standings_page)
        return shared_live(request, event, key, template, context)
    return render(request, template, context())
