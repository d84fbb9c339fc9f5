"""Who holds the phone: its device cookie, the seat and the games it remembers, the actor it
speaks for, and the small helpers every table view shares."""

from __future__ import annotations

import functools
import re
import uuid
from typing import Any

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse

from common.compiled import TEXT_HOLES, CompiledRead
from scoring.entry.fields import parse_int
from scoring.models import Game
from scoring.selectors import seat_person
from scoring.services import (
    Actor,
)

DEVICE_COOKIE = "tablescore_device"
SEATS_KEY = "tablescore_seats"
GAMES_KEY = "tablescore_games"
MY_GAMES_LIMIT = 30


DEVICE_KEY = "tablescore.device"


def device_id(request: HttpRequest) -> str:
    """This browser's id (a cookie), made up on its first visit."""
    # Kept in the request's environment (an application key, as WSGI allows) so that one
    # request made up no more than one id.
    device: str | None = request.META.get(DEVICE_KEY)
    if device is None:
        known = request.COOKIES.get(DEVICE_COOKIE, "")
        device = known[:64] if known else uuid.uuid4().hex
        request.META[DEVICE_KEY] = device
    return device


def with_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
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


def my_seat(request: HttpRequest, game: Game) -> int | None:
    seat = request.session.get(SEATS_KEY, {}).get(str(game.pk))
    return seat if isinstance(seat, int) else None


def remember_seat(request: HttpRequest, game: Game, seat: int | None) -> None:
    seats = dict(request.session.get(SEATS_KEY, {}))
    if seat is None:
        seats.pop(str(game.pk), None)
    else:
        seats[str(game.pk)] = seat
    request.session[SEATS_KEY] = seats


def remember_game(request: HttpRequest, game: Game) -> None:
    """Put the game first in "my games". The session is written only when that changes the
    list: a page seen again (a reload, the service worker keeping its copy) must not save
    a session read before another request (choosing a seat) and so undo it."""
    tokens = list(request.session.get(GAMES_KEY, []))
    if tokens[:1] != [game.table_token]:
        others = [t for t in tokens if t != game.table_token]
        request.session[GAMES_KEY] = [game.table_token, *others][:MY_GAMES_LIMIT]


# A seat a phone holds by its player's own link: {game id: {"seat": n, "proof": text}}.
# The proof is what the link's page put there; who it names is asked of
# ``scoring.selectors.seat_person`` at each change (a revoked link proves nothing).
PROOFS_KEY = "tablescore_proofs"


def remember_proof(request: HttpRequest, game: Game, seat: int, proof: str) -> None:
    """This phone holds ``seat`` of ``game`` for the player ``proof`` names."""
    proofs = dict(request.session.get(PROOFS_KEY, {}))
    proofs[str(game.pk)] = {"seat": seat, "proof": proof}
    request.session[PROOFS_KEY] = proofs
    remember_seat(request, game, seat)


def proven_person(request: HttpRequest, game: Game, seat: int | None) -> str:
    """The player this phone proves it holds ``seat`` for ("" for a seat only said)."""
    held = request.session.get(PROOFS_KEY, {}).get(str(game.pk))
    if seat is None or not isinstance(held, dict) or held.get("seat") != seat:
        return ""
    return seat_person(game=game, seat=seat, proof=str(held.get("proof", "")))


def actor_for(request: HttpRequest, game: Game, seat: int | None = None) -> Actor:
    seat = my_seat(request, game) if seat is None else seat
    return Actor(
        seat=seat,
        device=device_id(request),
        user=request.user,
        person=proven_person(request, game, seat),
    )


def seat_actor(request: HttpRequest, seat: int | None, game: Game | None = None) -> Actor:
    """The actor for ``seat`` as the page said it (None: said by nobody), whatever seat this
    phone holds: a phone handed over to the other side says who confirms or agrees. With
    ``game``, the player this phone proves it holds that seat for is named."""
    person = proven_person(request, game, seat) if game is not None else ""
    return Actor(seat=seat, device=device_id(request), user=request.user, person=person)


# The game of a table page, by its token (built once: see common.compiled).
GAME_BY_TOKEN = CompiledRead(
    lambda token: Game.objects.filter(table_token=token).order_by()[:1], TEXT_HOLES[:1]
)


def game_for(token: str) -> Game:
    game = GAME_BY_TOKEN.first(token)
    if game is None:
        raise Http404("no such game")
    return game


def posted_revision(request: HttpRequest) -> int:
    """The game's revision the page showed when the change was made. A form without one
    (a page from before revisions were sent) counts as stale: it is shown again."""
    revision = parse_int(request.POST.get("revision", ""))
    return revision if revision is not None else -1


def hands_over(game: Game) -> bool:
    """Whether one phone is handed to the other side to confirm (casual games, and events
    set to "one phone, handed over"); otherwise the other side confirms on its own phone."""
    return not game.is_tournament_game or game.one_phone


def optional_url(name: str) -> str:
    """The URL of a site page (no arguments) that may not exist in this installation ("" then);
    a table's own pages are ``optional_table_url``."""
    try:
        return _site_url(name, get_script_prefix(), get_urlconf())
    except NoReverseMatch:
        return ""


@functools.lru_cache(maxsize=64)
def _site_url(name: str, prefix: str, urlconf: Any) -> str:
    """A page's URL that takes no arguments, reversed once per script prefix and URL
    configuration."""
    return reverse(name)


def optional_table_url(name: str, token: str) -> str:
    """The URL of a table's page that may not exist in this installation ("" then)."""
    try:
        return table_url(name, token)
    except NoReverseMatch:
        return ""


PLAIN_TOKEN = re.compile(r"[-A-Za-z0-9_]+")
TOKEN_MARK = "0" * 16  # a token the table's URL patterns take, standing for any token


@functools.lru_cache(maxsize=256)
def _table_url_parts(name: str, prefix: str, urlconf: Any) -> tuple[str, str]:
    before, _, after = reverse(name, args=[TOKEN_MARK]).partition(TOKEN_MARK)
    return before, after


def table_url(name: str, token: str) -> str:
    """``reverse(name, args=[token])`` for a page of one table.

    A table's URLs differ only by its token, so each name is reversed once per script
    prefix and URL configuration and the token put in its place: the table page links a
    dozen of them, and reversing each was a tenth of drawing a saved round. A token that
    reversing would quote (not plain url-safe base64) is reversed as it is."""
    if PLAIN_TOKEN.fullmatch(token) is None:
        return reverse(name, args=[token])
    before, after = _table_url_parts(name, get_script_prefix(), get_urlconf())
    return f"{before}{token}{after}"


class TableUrls:
    """A table's own pages by URL name, as the template reads them (``urls.history``)."""

    def __init__(self, token: str):
        self.token = token

    def __getitem__(self, name: str) -> str:
        return table_url(f"scoring:{name}", self.token)


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=5, dark="#1d2521", light="#ffffff")
