"""Rows -> the seasons core's inputs: a table game as a rated game, a season's nights.

A table game is rated when its event is a rated club night, its tournament round is
published, the game is finished and no round waits for confirmation. Each seat stands
for the roster player linked to its entrant (and member of a fixed team); a seat whose
entrant is linked to nobody is left out of the rating, a side left with nobody is left
out, and a game left with fewer than two sides is not rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from json import loads
from typing import Any

from django.db import connection

from scoring.models import Game, Round
from scoring.selectors import GameOutcome
from tournaments.club.core.ratings import GameKey
from tournaments.club.core.ratings import RatedGame as CoreGame
from tournaments.club.core.table import Night
from tournaments.models import (
    ClubNight,
    EntrantPlayer,
    Event,
    RatedGame,
    Season,
    Table,
    TableSeat,
    TournamentRound,
)
from tournaments.standings.adapter import kept_standings
from tournaments.standings.core import table_from_game


def game_key(played_at: datetime, round_number: int, table_number: int, game_id: int) -> GameKey:
    """The order of rated games: the event's date, its round, the table, the game."""
    stamp = int(played_at.timestamp() * 1_000_000)
    return (stamp, round_number, table_number, game_id)


def core_game(row: RatedGame) -> CoreGame:
    return CoreGame(
        key=game_key(row.played_at, row.round_number, row.table_number, row.game_id),
        game=row.game_id,
        sides=tuple(tuple(int(p) for p in side) for side in row.sides),
        places=tuple(int(p) for p in row.places),
    )


@dataclass(frozen=True)
class GameToRate:
    """What a table game is for the ratings now: its roster and order, and its rated
    sides and places (``sides`` empty when it is not, or no longer, rated)."""

    game_id: int
    roster_id: int | None
    played_at: datetime | None
    round_number: int
    table_number: int
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]


def _sides_and_places(
    game: Game, seats: Sequence[tuple[int, int]], players: dict[tuple[int, int], int]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    outcome = GameOutcome.of(game)
    totals = list(outcome.totals)
    if len(totals) != len(seats):
        return (), ()
    table = table_from_game(
        number=0,
        entrants=list(range(len(seats))),
        totals=totals,
        winners=list(outcome.winners),
        teams=outcome.teams,
    )
    sides: list[tuple[int, ...]] = []
    places: list[int] = []
    for side in table.sides():
        linked = tuple(players[seats[s.entrant]] for s in side if seats[s.entrant] in players)
        if linked:
            sides.append(linked)
            places.append(side[0].place)
    flat = [p for side in sides for p in side]
    if len(sides) < 2 or len(set(flat)) != len(flat):
        return (), ()
    return tuple(sides), tuple(places)


def game_to_rate(game_id: int) -> GameToRate:
    """The table game ``game_id`` as the ratings should see it now."""
    table = (
        Table.objects.select_related("round__event__club_night", "game")
        .filter(game_id=game_id)
        .first()
    )
    nothing = GameToRate(game_id, None, None, 0, 0, (), ())
    if table is None or table.game is None:
        return nothing
    event = table.round.event
    night = getattr(event, "club_night", None)
    if night is None:
        return nothing
    base = GameToRate(
        game_id, night.roster_id, event.created_at, table.round.number, table.number, (), ()
    )
    game = table.game
    if (
        not night.rated
        or table.round.status != TournamentRound.Status.PUBLISHED
        or game.status != Game.Status.FINISHED
        or Round.objects.filter(game=game, status=Round.Status.PENDING).exists()
    ):
        return base
    seats = [
        (entrant, member)
        for entrant, member in TableSeat.objects.filter(table=table)
        .order_by("seat")
        .values_list("entrant_id", "member")
    ]
    players = {
        (entrant, member): player
        for entrant, member, player in EntrantPlayer.objects.filter(
            entrant_id__in={e for e, _ in seats}
        ).values_list("entrant_id", "member", "player_id")
    }
    sides, places = _sides_and_places(game, seats, players)
    return GameToRate(
        game_id, night.roster_id, event.created_at, table.round.number, table.number, sides, places
    )


def event_game_ids(event: Event) -> list[int]:
    return [
        g
        for g in Table.objects.filter(round__event=event, game__isnull=False).values_list(
            "game_id", flat=True
        )
        if g is not None
    ]


# --------------------------------------------------------------------------- season nights


@dataclass(frozen=True)
class SeasonNight:
    number: int
    event: Event
    night: Night


def season_nights(season: Season) -> list[SeasonNight]:
    """Each event of the season, oldest first, as a night: each player's final place.

    An entrant who played no counted table and had no bye did not play that night.
    A fixed team's place goes to each linked member.
    """
    nights = (
        ClubNight.objects.filter(season=season)
        .select_related("event")
        .order_by("event__created_at", "event_id")
    )
    return [
        SeasonNight(
            number, club_night.event, Night(number=number, places=night_places(club_night.event))
        )
        for number, club_night in enumerate(nights, start=1)
    ]


def night_places(event: Event) -> dict[int, int]:
    """Each roster player's final place in the event (a season's or not): an entrant who
    played no counted table and had no bye did not play; a fixed team's place goes to
    each linked member."""
    links: dict[int, list[int]] = {}
    for entrant, player in EntrantPlayer.objects.filter(entrant__event=event).values_list(
        "entrant_id", "player_id"
    ):
        links.setdefault(entrant, []).append(player)
    places: dict[int, int] = {}
    for row in kept_standings(event).rows:
        if row.played == 0 and row.byes == 0:
            continue
        for player in links.get(row.entrant_id, ()):
            places[player] = min(places.get(player, row.rank), row.rank)
    return places


def rated_games(roster_id: int, *, after: GameKey | None = None) -> Iterable[CoreGame]:
    """The roster's rated games in order (only those from ``after`` on, when given)."""
    rows = RatedGame.objects.filter(roster_id=roster_id).order_by(
        "played_at", "round_number", "table_number", "game_id"
    )
    games = (core_game(r) for r in rows.iterator(chunk_size=2000))
    if after is None:
        return games
    return (g for g in games if g.key >= after)


def roster_rated_games(roster_id: int) -> list[tuple[int, CoreGame]]:
    """Every rated game of the roster (its row's id, the game), read as plain values.

    On PostgreSQL the rows come straight from the cursor (a rebuild reads tens of
    thousands, and the field converters cost twice the read): sides and places arrive as
    the JSON text Django's backend asks for, the time as an aware datetime."""
    fields = ("pk", "game_id", "played_at", "round_number", "table_number", "sides", "places")
    query = RatedGame.objects.filter(roster_id=roster_id).values_list(*fields)
    rows: Iterable[tuple[Any, ...]]
    if connection.vendor == "postgresql":
        sql, params = query.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = [
                (pk, game_id, played_at, round_number, table_number, loads(sides), loads(places))
                for pk, game_id, played_at, round_number, table_number, sides, places in (
                    cursor.fetchall()
                )
            ]
    else:
        rows = query
    return [
        (
            pk,
            CoreGame(
                key=game_key(played_at, round_number, table_number, game_id),
                game=game_id,
                sides=tuple(map(tuple, sides)),
                places=tuple(places),
            ),
        )
        for pk, game_id, played_at, round_number, table_number, sides, places in rows
    ]
