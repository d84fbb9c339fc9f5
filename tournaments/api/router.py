"""A player's own link in the JSON API, under /api/me: who they are and where they sit,
checking in, dropping out. ``Authorization: Bearer <private token>`` (the token of their
own link, entrant's or roster player's) is the credential: none is a 401; a wrong or
reissued one is a 404, and wrong ones are counted per address as a table's are."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from ninja import Router, Schema
from ninja.security import HttpBearer

from scoring.api.errors import ApiError
from scoring.api.limits import wrong_token
from scoring.api.schemas import Errors
from scoring.engines.base import N_
from scoring.wording import problem_text
from tournaments.events import me_selectors, selectors, services
from tournaments.events.me_selectors import OwnLink

NO_SUCH_PLAYER = N_("no such player for this token")
router = Router(tags=["a player's own link"])
REFUSED: dict[int, Any] = {400: Errors, 401: Errors, 404: Errors, 413: Errors, 429: Errors}


class PrivateToken(HttpBearer):
    """``Authorization: Bearer <private token>``: one player's own link and no other."""

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get(self.header, "")
        if not header.lower().startswith(f"{self.openapi_scheme} "):
            raise ApiError(
                N_("send your own link's token: Authorization: Bearer <token>"),
                field="authorization",
                status=401,
            )
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, token: str) -> OwnLink:
        token = token.strip()
        own = me_selectors.own_link(token=token)
        if own is None:
            wrong_token(request)
            raise ApiError(NO_SUCH_PLAYER, field="authorization", status=404)
        return own


private_token = PrivateToken()


class MateOut(Schema):
    seat: int
    name: str
    partner: bool


class SeatOut(Schema):
    round: int
    table: int
    seat: int
    team: str
    mates: list[MateOut]
    view_path: str


class MySeatOut(Schema):
    seat: SeatOut | None


class MeOut(Schema):
    name: str
    event: str | None
    registered: bool
    checked_in: bool
    check_in_open: bool
    dropped: bool
    drop_asked: bool
    drop_policy: str
    seat: SeatOut | None
    rank: int | None


class CheckInIn(Schema):
    checked_in: bool = True


class DropIn(Schema):
    stay: bool = False


def own_of(request: HttpRequest) -> OwnLink:
    own = request.auth  # type: ignore[attr-defined]  # set by PrivateToken
    assert isinstance(own, OwnLink)
    return own


def registered(own: OwnLink) -> OwnLink:
    if own.entrant is None:
        raise ApiError(
            N_("you are not playing in an event being played now"), field="event", status=400
        )
    return own


def seat_out(own: OwnLink) -> dict[str, Any] | None:
    if own.entrant is None or own.event is None:
        return None
    seat = me_selectors.my_seat(own.event, own.entrant, own.member)
    if seat is None:
        return None
    return {
        "round": seat.round_number,
        "table": seat.table,
        "seat": seat.seat,
        "team": seat.team,
        "mates": [{"seat": m.seat, "name": m.name, "partner": m.partner} for m in seat.mates],
        "view_path": reverse("scoring:table_view", args=[seat.view_token]),
    }


def me_out(own: OwnLink) -> dict[str, Any]:
    entrant, event = own.entrant, own.event
    rank = None
    if entrant is not None and event is not None:
        # A rank means something once a result (or a bye) counts, as on the page.
        page = selectors.entrant_page(event=event, entrant=entrant, lag=True)
        if page.bye_rounds or any(t.state == selectors.DONE for t in page.tables):
            rank = page.rank
    return {
        "name": own.name,
        "event": event.name if event is not None else None,
        "registered": entrant is not None,
        "checked_in": bool(entrant and entrant.checked_in),
        "check_in_open": bool(event and me_selectors.check_in_state(event).open),
        "dropped": bool(entrant and entrant.dropped),
        "drop_asked": bool(entrant and entrant.drop_asked_at is not None),
        "drop_policy": event.self_drop if event is not None else "ask",
        "seat": seat_out(own),
        "rank": rank,
    }


def refused(error: services.TournamentError) -> ApiError:
    first = error.problems[0]
    return ApiError("; ".join(problem_text(p) for p in error.problems), field=first.field)


def fresh(own: OwnLink, token: str) -> OwnLink:
    return me_selectors.own_link(token=token) or own


def bearer(request: HttpRequest) -> str:
    return request.headers.get("Authorization", "").partition(" ")[2].strip()


@router.get("/me", auth=private_token, response={200: MeOut, **REFUSED}, summary="Who I am")
def me(request: HttpRequest) -> dict[str, Any]:
    """The player whose link the token is: their event, check-in, seat, drop and rank."""
    return me_out(own_of(request))


@router.get("/me/seat", auth=private_token, response={200: MySeatOut, **REFUSED}, summary="My seat")
def my_seat(request: HttpRequest) -> dict[str, Any]:
    """The player's seat in the latest published round while their table plays (table,
    seat, team, table-mates by name); null before the draw and after their table is done."""
    return {"seat": seat_out(own_of(request))}


@router.post(
    "/me/check-in", auth=private_token, response={200: MeOut, **REFUSED}, summary="Check in"
)
def check_in(request: HttpRequest, body: CheckInIn) -> dict[str, Any]:
    """Check in (``checked_in: false``: take it back, until the next round is seated),
    while the director has check-in open."""
    own = registered(own_of(request))
    assert own.entrant is not None
    try:
        services.entrant_self_check_in(entrant=own.entrant, checked_in=body.checked_in)
    except services.TournamentError as error:
        raise refused(error) from None
    return me_out(fresh(own, bearer(request)))


@router.post("/me/drop", auth=private_token, response={200: MeOut, **REFUSED}, summary="Drop out")
def drop(request: HttpRequest, body: DropIn) -> dict[str, Any]:
    """Drop out between rounds: at once, or asked of the desk, as the event says
    (``drop_policy``); ``stay: true`` takes back a drop asked for."""
    own = registered(own_of(request))
    assert own.entrant is not None
    try:
        if body.stay:
            services.entrant_self_drop_withdraw(entrant=own.entrant)
        else:
            services.entrant_self_drop(entrant=own.entrant)
    except services.TournamentError as error:
        raise refused(error) from None
    return me_out(fresh(own, bearer(request)))
