"""A player's own page, /me/<private token>/: no account, the token is the proof.

It shows only its player's own things: their name and event, check-in, their seat the
moment the round is published (table, seat, team, table-mates by name), their results
and rank, the round clock; from it they check in, open their table holding their seat,
and drop out between rounds. Its live part polls as the players' page of an entrant does
(``?rev=`` what it shows; 204 while that is the same; ``rev=~`` always drawn), and is
answered by the follow process as that page's is (``tournaments.web.live``, kind "me").
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common import throttles
from common.htmx import HtmxHttpRequest
from scoring.services import Actor, GameChangeError, seat_hold
from scoring.web.phone import device_id, remember_proof, with_device
from scoring.wording import problem_text
from tournaments.events import me_selectors, selectors, services, signup_selectors
from tournaments.events.me_selectors import OwnLink
from tournaments.web import live
from tournaments.web.public.views import latest_clock, shown_unchanged

TEMPLATE = "tournaments/me/page.html"
WRONG_TOKENS = "wrong_tokens"  # the same count as wrong table links (common.throttles)


def unknown_link(request: HtmxHttpRequest) -> HttpResponse:
    """A token that is nobody's (mistyped, or reissued by the desk): a clear 404, counted
    with the wrong table links of the address (past their rate, 429 saying when)."""
    try:
        throttles.take(request, WRONG_TOKENS)
    except throttles.TooMany as refused:
        return throttles.too_many_requests(request, refused)
    return render(request, "tournaments/me/unknown.html", status=404)


def is_poll(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and "rev" in request.GET


def shown_key(own: OwnLink) -> str:
    """What the page shows, as its poll sends it back, as the public player page's (the
    standings' version, the player's tables key) and what it shows of check-in (a window
    opens and closes with no change written): ``live.own_rev``, what the follow process
    compares. The player's own changes (check-in, drop, the desk's answer) are logged,
    and so move the version."""
    if own.entrant is None or own.event is None:
        return "none"
    event, entrant = own.event, own.entrant
    tables = selectors.entrant_tables_key(event=event, entrant=entrant)
    version = selectors.standings_version(event=event)
    return live.own_rev(version, tables, me_selectors.check_in_state(event).key)


def page_context(own: OwnLink, token: str, **extra: Any) -> dict[str, Any]:
    context: dict[str, Any] = {
        "own": own,
        "token": token,
        "revision": shown_key(own),
        "me_url": reverse("tournaments:me", args=[token]),
        "event": own.event,
        **extra,
    }
    if own.entrant is None or own.event is None:
        return context
    event, entrant = own.event, own.entrant
    page = selectors.entrant_page(event=event, entrant=entrant, lag=True)
    seat = me_selectors.my_seat(event, entrant, own.member)
    context.update(
        event=event,
        entrant=entrant,
        page=page,
        seat=seat,
        clock=latest_clock(event),
        check_in=me_selectors.check_in_state(event),
        next_seated=me_selectors.next_round_seated(event),
        playing=seat is not None,
        has_results=bool(page.bye_rounds) or any(t.state == selectors.DONE for t in page.tables),
        checking=any_checked_in(event),
        announcements=signup_selectors.announcements_for(event),
    )
    return context


def any_checked_in(event: Any) -> bool:
    return bool(event.entrants.filter(checked_in=True, dropped=False).exists())


def render_page(request: HtmxHttpRequest, own: OwnLink, token: str, **extra: Any) -> HttpResponse:
    context = page_context(own, token, **extra)
    if request.htmx:
        return render(request, f"{TEMPLATE}#live", context)
    return render(request, TEMPLATE, context)


@never_cache
@require_GET
def me(request: HtmxHttpRequest, token: str) -> HttpResponse:
    own = me_selectors.own_link(token=token)
    if own is None:
        return unknown_link(request)
    if is_poll(request) and shown_unchanged(request, shown_key(own)):
        return HttpResponse(status=204)
    return render_page(request, own, token)


def _own_or_none(token: str) -> OwnLink | None:
    own = me_selectors.own_link(token=token)
    return own if own is not None and own.entrant is not None else None


def after_change(request: HtmxHttpRequest, own: OwnLink, token: str, **extra: Any) -> HttpResponse:
    if not request.htmx and not extra:
        return redirect("tournaments:me", token=token)
    return render_page(request, own, token, **extra)


def refused(error: services.TournamentError) -> str:
    said = [problem_text(p, seats_from=1) for p in error.problems]
    return " ".join(text[:1].upper() + text[1:] + "." for text in said)


@never_cache
@require_POST
def check_in(request: HtmxHttpRequest, token: str) -> HttpResponse:
    own = _own_or_none(token)
    if own is None or own.entrant is None:
        return unknown_link(request)
    wanted = request.POST.get("checked_in", "1") in {"1", "on", "true"}
    try:
        services.entrant_self_check_in(entrant=own.entrant, checked_in=wanted)
    except services.TournamentError as error:
        return after_change(request, own, token, error=refused(error))
    return after_change(request, _own_or_none(token) or own, token)


@never_cache
@require_POST
def drop(request: HtmxHttpRequest, token: str) -> HttpResponse:
    own = _own_or_none(token)
    if own is None or own.entrant is None:
        return unknown_link(request)
    try:
        if request.POST.get("stay"):
            services.entrant_self_drop_withdraw(entrant=own.entrant)
        else:
            services.entrant_self_drop(entrant=own.entrant)
    except services.TournamentError as error:
        return after_change(request, own, token, error=refused(error))
    return after_change(request, _own_or_none(token) or own, token)


@never_cache
@require_POST
def open_table(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Open the player's table on this phone, holding their seat: the phone keeps the
    link's proof, and the table's seat is held by this phone (no other phone enters or
    confirms for it); then on to the table's page."""
    own = _own_or_none(token)
    if own is None or own.entrant is None or own.event is None:
        return unknown_link(request)
    seat = me_selectors.my_seat(own.event, own.entrant, own.member)
    if seat is None or seat.game_id is None:
        return after_change(request, own, token, error=gettext("Your table is not out yet."))
    game = me_selectors.table_game(seat.game_id)
    person = own.name if own.player is None else seat_person_name(own, seat)
    try:
        seat_hold(
            game=game,
            seat=seat.seat_index,
            actor=Actor(seat=seat.seat_index, device=device_id(request), person=person),
        )
    except GameChangeError as error:
        return after_change(
            request,
            own,
            token,
            error=" ".join(problem_text(p, seats_from=1) for p in error.problems),
        )
    remember_proof(request, game, seat.seat_index, own.proof)
    target = game.get_absolute_url()
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return with_device(request, response)
    return with_device(request, redirect(target))


def seat_person_name(own: OwnLink, seat: me_selectors.MySeat) -> str:
    """The name at the seat as the event has it (a team's member), for a roster link."""
    entrant = own.entrant
    assert entrant is not None
    members = entrant.members
    return members[own.member] if members and own.member < len(members) else entrant.name
