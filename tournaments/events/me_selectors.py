"""What a player's own link reads: whose link it is, their entry in the event being played,
and what their page shows (check-in, their seat the moment it exists, results, drop).

A link is an entrant's private token, or a roster player's (it leads to their entry in
the roster's current night: the latest of its nights not closed). Nothing here reads
another player's private things: table-mates are names only.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from common.phrases import N_
from scoring.models import Game, Seat
from tournaments.events import selectors
from tournaments.models import (
    ClubNight,
    Entrant,
    EntrantPlayer,
    Event,
    EventLog,
    Player,
    TableSeat,
    TournamentRound,
)

# A token is url-safe base64 of 16 bytes (22 characters); anything else is no token.
TOKEN_LONGEST = 32


@dataclass(frozen=True)
class OwnLink:
    """Whose link a token is, and where it leads now.

    ``entrant`` is None for a roster player with no entry in a night being played
    (``event`` is then that night, or None when the roster plays none).
    """

    name: str
    entrant: Entrant | None
    event: Event | None
    member: int  # which member of a fixed team the link is (0 for a player)
    proof: str  # what a phone keeps to show it holds this player's seat
    player: Player | None = None


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def proof_of(kind: str, pk: int, token: str) -> str:
    """The proof a phone keeps: whose link (``e`` entrant or ``p`` player, and the id),
    and a digest of the token, so that a reissued link proves nothing any more."""
    return f"{kind}{pk}.{token_digest(token)}"


def own_link(*, token: str) -> OwnLink | None:
    """Whose private link ``token`` is (None: nobody's, or revoked by a reissue)."""
    if not token or len(token) > TOKEN_LONGEST:
        return None
    entrant = Entrant.objects.select_related("event").filter(private_token=token).first()
    if entrant is not None:
        return OwnLink(
            name=entrant.name,
            entrant=entrant,
            event=entrant.event,
            member=0,
            proof=proof_of("e", entrant.pk, token),
        )
    player = Player.objects.filter(private_token=token, merged_into__isnull=True).first()
    if player is None:
        return None
    night = (
        ClubNight.objects.filter(roster_id=player.roster_id)
        .exclude(event__status=Event.Status.CLOSED)
        .select_related("event")
        .order_by("-event__created_at", "-pk")
        .first()
    )
    event = night.event if night else None
    entry = (
        EntrantPlayer.objects.filter(player=player, entrant__event=event)
        .select_related("entrant__event")
        .first()
        if event is not None
        else None
    )
    return OwnLink(
        name=player.name,
        entrant=entry.entrant if entry else None,
        event=event,
        member=entry.member if entry else 0,
        proof=proof_of("p", player.pk, token),
        player=player,
    )


def own_links_led(*, tokens: Collection[str]) -> dict[str, tuple[str, int | None]]:
    """Where each of ``tokens`` leads now, as ``own_link`` finds it: (the event's public
    token, the entrant; None for a roster player with no entry in the night being played,
    "" for the event when the roster plays none). Tokens that are nobody's are left out.
    A few queries for all of them (what a process answering many players' polls reads)."""
    wanted = [token for token in set(tokens) if token and len(token) <= TOKEN_LONGEST]
    led: dict[str, tuple[str, int | None]] = {
        token: (event_token, pk)
        for token, pk, event_token in Entrant.objects.filter(private_token__in=wanted).values_list(
            "private_token", "pk", "event__public_token"
        )
    }
    players = list(
        Player.objects.filter(
            private_token__in=[t for t in wanted if t not in led], merged_into__isnull=True
        ).values_list("private_token", "pk", "roster_id")
    )
    nights: dict[int, Event | None] = {}
    for roster_id in {roster_id for _, _, roster_id in players}:
        night = (
            ClubNight.objects.filter(roster_id=roster_id)
            .exclude(event__status=Event.Status.CLOSED)
            .select_related("event")
            .order_by("-event__created_at", "-pk")
            .first()
        )
        nights[roster_id] = night.event if night else None
    events = {event.pk: event for event in nights.values() if event is not None}
    entries: dict[tuple[int, int], int] = {}
    for player_id, event_id, entrant_id in (
        EntrantPlayer.objects.filter(
            player_id__in=[pk for _, pk, _ in players], entrant__event_id__in=list(events)
        )
        .order_by("pk")
        .values_list("player_id", "entrant__event_id", "entrant_id")
    ):
        entries.setdefault((player_id, event_id), entrant_id)  # the first, as own_link
    for token, pk, roster_id in players:
        event = nights[roster_id]
        if event is None:
            led[token] = ("", None)
        else:
            led[token] = (event.public_token, entries.get((pk, event.pk)))
    return led


def person_at_seat(*, game_id: int, seat: int, proof: str) -> str:
    """The name of the player ``proof`` names, when they sit at ``seat`` of the table
    playing ``game_id`` and their link is still theirs (not reissued); "" otherwise."""
    whose, _, digest = proof.partition(".")
    kind, number = whose[:1], whose[1:]
    if kind not in {"e", "p"} or not number.isdigit() or len(number) > 18 or not digest:
        return ""
    found = (
        TableSeat.objects.filter(table__game_id=game_id, seat=seat)
        .select_related("entrant")
        .first()
    )
    if found is None:
        return ""
    if kind == "e":
        token = found.entrant.private_token if found.entrant_id == int(number) else ""
    else:
        linked = EntrantPlayer.objects.filter(
            entrant_id=found.entrant_id, member=found.member, player_id=int(number)
        ).exists()
        token = (
            Player.objects.filter(pk=int(number)).values_list("private_token", flat=True).first()
            if linked
            else None
        ) or ""
    if not token or not hmac.compare_digest(token_digest(token), digest):
        return ""
    return _seat_name(found)


# --------------------------------------------------------------------------- the page


@dataclass(frozen=True)
class CheckIn:
    """Whether the player may check themselves in now, and what the page says of it."""

    open: bool
    mode: str  # Event.SelfCheckIn
    opens_at: datetime | None
    closes_at: datetime | None

    @property
    def key(self) -> str:
        return f"{self.mode}{int(self.open)}"


def check_in_state(event: Event, *, now: datetime | None = None) -> CheckIn:
    """Whether self check-in is open for ``event`` at ``now``."""
    now = now or timezone.now()
    mode = event.self_check_in
    opens, closes = event.check_in_opens_at, event.check_in_closes_at
    is_open = event.status != Event.Status.CLOSED and (
        mode == Event.SelfCheckIn.OPEN
        or (
            mode == Event.SelfCheckIn.WINDOW
            and opens is not None
            and closes is not None
            and opens <= now < closes
        )
    )
    return CheckIn(open=is_open, mode=mode, opens_at=opens, closes_at=closes)


def next_round_seated(event: Event) -> bool:
    """Whether the next round is seated already (a draft is out): checking out and
    dropping out are the desk's from then on."""
    return event.rounds.filter(status=TournamentRound.Status.DRAFT).exists()


def still_playing(event: Event, entrant: Entrant) -> bool:
    """Whether the entrant sits at a published table whose game has not finished."""
    return (
        TableSeat.objects.filter(
            entrant=entrant,
            table__round__event=event,
            table__round__status=TournamentRound.Status.PUBLISHED,
        )
        .exclude(table__game__status="finished")
        .exists()
    )


@dataclass(frozen=True)
class Mate:
    seat: int  # 1-based
    name: str
    partner: bool  # on the player's own team


@dataclass(frozen=True)
class MySeat:
    """Where the player sits in the latest published round, while that table plays."""

    round_number: int
    table: int
    seat: int  # 1-based
    seat_index: int  # 0-based, as the game's seats
    team: str
    mates: tuple[Mate, ...]
    view_token: str
    game_id: int | None

    @property
    def partners(self) -> tuple[str, ...]:
        return tuple(mate.name for mate in self.mates if mate.partner)


def my_seat(event: Event, entrant: Entrant, member: int = 0) -> MySeat | None:
    """The player's seat at their table of the latest published round (None before the
    draw, or once that table is done): a team's link shows its member's own seat."""
    latest = selectors.latest_published_round(event=event)
    if latest is None:
        return None
    mine = list(
        TableSeat.objects.filter(table__round=latest, entrant=entrant)
        .select_related("table__game")
        .order_by("seat")
    )
    seat = next((s for s in mine if s.member == member), mine[0] if mine else None)
    if seat is None or seat.table.game is None or seat.table.game.status == "finished":
        return None
    game = seat.table.game
    teams = dict(Seat.objects.filter(game=game).values_list("number", "team"))
    team = teams.get(seat.seat, "")
    mates = tuple(
        Mate(
            seat=other.seat + 1,
            name=_seat_name(other),
            partner=bool(team) and teams.get(other.seat) == team,
        )
        for other in TableSeat.objects.filter(table=seat.table)
        .select_related("entrant")
        .order_by("seat")
        if other.seat != seat.seat
    )
    return MySeat(
        round_number=latest.number,
        table=seat.table.number,
        seat=seat.seat + 1,
        seat_index=seat.seat,
        team=team,
        mates=mates,
        view_token=game.view_token,
        game_id=game.pk,
    )


def _seat_name(seat: TableSeat) -> str:
    members = seat.entrant.members
    return members[seat.member] if members and seat.member < len(members) else seat.entrant.name


# --------------------------------------------------------------------------- the desk

SELF_ACTIONS = (
    "entrant_self_check_in",
    "entrant_self_drop",
    "entrant_drop_ask",
    "entrant_drop_ask_withdraw",
)
RECENT_SHOWN = 8


@dataclass(frozen=True)
class SelfSeen:
    """What a player did from their own link, as the desk lists it."""

    name: str
    what: str
    at: datetime


@dataclass(frozen=True)
class DeskSelfService:
    """The desk's card of players' own links: check-in as set, drops asked for, drops
    made, and the latest things players did themselves."""

    check_in: CheckIn
    self_drop: str
    checked_in: int
    active: int
    asked: tuple[Entrant, ...]
    dropped_by_self: tuple[Entrant, ...]
    recent: tuple[SelfSeen, ...]
    key: str  # what the card shows
    # What players did themselves (their latest logged change): when it moves, the desk's
    # list of players is drawn again; the desk's own changes never redraw it under a form
    # the director is filling in.
    players_key: str


WHAT = {
    ("entrant_self_check_in", True): N_("checked in"),
    ("entrant_self_check_in", False): N_("took back their check-in"),
    ("entrant_self_drop", None): N_("dropped out"),
    ("entrant_drop_ask", None): N_("asked to drop out"),
    ("entrant_drop_ask_withdraw", None): N_("took back their drop"),
}


def logged_id(line: EventLog) -> int | None:
    """The entrant a log line of a player's own change is about."""
    pk = line.after.get("id") if isinstance(line.after, dict) else None
    return pk if isinstance(pk, int) else None


def desk_self_service(*, event: Event) -> DeskSelfService:
    lines = list(
        EventLog.objects.filter(event=event, action__in=SELF_ACTIONS).order_by("-pk")[:200]
    )
    shown_ids = {pk for line in lines[:RECENT_SHOWN] if (pk := logged_id(line)) is not None}
    names = dict(event.entrants.filter(pk__in=shown_ids).values_list("pk", "name"))
    recent = []
    for line in lines[:RECENT_SHOWN]:
        after = line.after if isinstance(line.after, dict) else {}
        checked = after.get("checked_in") if line.action == "entrant_self_check_in" else None
        pk = logged_id(line)
        recent.append(
            SelfSeen(
                name=names.get(pk, "?") if pk is not None else "?",
                what=WHAT.get((line.action, checked), line.action),
                at=line.at,
            )
        )
    self_dropped_ids = {
        pk
        for line in lines
        if line.action == "entrant_self_drop" and (pk := logged_id(line)) is not None
    }
    asked = tuple(event.entrants.filter(drop_asked_at__isnull=False).order_by("drop_asked_at"))
    dropped = tuple(event.entrants.filter(pk__in=self_dropped_ids, dropped=True).order_by("name"))
    checked = event.entrants.filter(checked_in=True, dropped=False).count()
    active = event.entrants.filter(dropped=False).count()
    state = check_in_state(event)
    key = ".".join(
        [
            state.key,
            event.self_drop,
            str(checked),
            str(active),
            str(lines[0].pk if lines else 0),
            "-".join(str(e.pk) for e in asked),
            "-".join(str(e.pk) for e in dropped),
        ]
    )
    return DeskSelfService(
        check_in=state,
        self_drop=event.self_drop,
        checked_in=checked,
        active=active,
        asked=asked,
        dropped_by_self=dropped,
        recent=tuple(recent),
        key=key,
        players_key=str(lines[0].pk if lines else 0),
    )


SELF_CHECK_IN_CHOICES = tuple(Event.SelfCheckIn.choices)
SELF_DROP_CHOICES = tuple(Event.SelfDrop.choices)


def table_game(game_id: int) -> Game:
    """The game of a table a player's seat was found at."""
    return Game.objects.get(pk=game_id)
