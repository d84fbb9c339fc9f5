"""Reads of the club: what the desk, season, leaderboard and player pages show, the
roster's and a club night's documents for export, and what the services check. Nothing
here writes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils.formats import number_format
from django.utils.translation import gettext

from common.folding import folded
from scoring.wording import said
from tournaments.club.adapter import night_places, season_nights
from tournaments.club.core.chart import history_svg
from tournaments.club.core.ratings import Skill, ranked
from tournaments.club.core.table import Counting, NightScore, SeasonRule, Tiebreak, season_table
from tournaments.models import (
    ClubNight,
    Entrant,
    EntrantPlayer,
    Event,
    Player,
    RatedGame,
    RatingStep,
    Roster,
    Season,
)


def rating_text(skill: Skill | None) -> str:
    """A rating as shown: the cautious estimate to one decimal (mu - 3 sigma), written as the
    reader's language writes a number (2.4, 2,4)."""
    return "\N{EN DASH}" if skill is None else number_format(round(skill.ordinal, 1), 1)


def player_skill(player: Player) -> Skill | None:
    if player.mu is None or player.sigma is None:
        return None
    return Skill(player.mu, player.sigma)


# --------------------------------------------------------------------------- the roster


def live_players(roster: Roster) -> QuerySet[Player]:
    """The roster's players, those merged into another left out."""
    return Player.objects.filter(roster=roster, merged_into__isnull=True)


@dataclass(frozen=True)
class NameMatch:
    """What a name typed in matches on the roster: one player, nobody, or several."""

    line: int
    name: str
    contact: str
    players: tuple[Player, ...]

    @property
    def status(self) -> str:
        return {0: "new", 1: "found"}.get(len(self.players), "ambiguous")


def players_match(*, roster: Roster, names: Iterable[tuple[int, str, str]]) -> list[NameMatch]:
    """Each (line, name, contact) against the roster, folding case and accents."""
    by_fold: dict[str, list[Player]] = {}
    for player in live_players(roster):
        by_fold.setdefault(player.folded, []).append(player)
    return [
        NameMatch(line, name.strip(), contact.strip(), tuple(by_fold.get(folded(name), ())))
        for line, name, contact in names
    ]


def season_rule(season: Season) -> SeasonRule:
    """The season's rule as the core reads it."""
    return SeasonRule(
        counting=Counting(season.counting),
        best=season.best,
        drop=season.drop,
        min_nights=season.min_nights,
        place_points=tuple(int(p) for p in season.place_points) or SeasonRule().place_points,
        attendance=season.attendance,
        tiebreaks=tuple(Tiebreak(t) for t in season.tiebreaks),
    )


# --------------------------------------------------------------------------- season


@dataclass(frozen=True)
class SeasonCell:
    text: str  # the night's points, or "" when absent
    place: int | None
    counted: bool


@dataclass(frozen=True)
class SeasonLine:
    rank: int | None
    player: Player
    total: int
    played: int
    wins: int
    cells: tuple[SeasonCell, ...]


@dataclass(frozen=True)
class NightHead:
    number: int
    event: Event
    running: bool


@dataclass(frozen=True)
class SeasonView:
    season: Season
    rule_text: str
    nights: tuple[NightHead, ...]
    lines: tuple[SeasonLine, ...]


def season_revision(season: Season) -> str:
    """Changes whenever a night's results or the season itself change (for live polls)."""
    total = Event.objects.filter(club_night__season=season).aggregate(r=Sum("revision"))["r"]
    count = ClubNight.objects.filter(season=season).count()
    return f"{season.revision}.{count}.{total or 0}"


def season_view(*, season: Season) -> SeasonView:
    rule = season_rule(season)
    nights = season_nights(season)
    table = season_table(rule, [n.night for n in nights])
    players = {p.pk: p for p in Player.objects.filter(pk__in=[r.player for r in table.rows])}
    # The latest night, while its event is open, may still change.
    heads = tuple(
        NightHead(n.number, n.event, n is nights[-1] and n.event.status != Event.Status.CLOSED)
        for n in nights
    )
    lines = []
    for row in table.rows:
        by_night: dict[int, NightScore] = {n.night: n for n in row.nights}
        cells = tuple(
            SeasonCell(
                str(by_night[h.number].points), by_night[h.number].place, by_night[h.number].counted
            )
            if h.number in by_night
            else SeasonCell("", None, False)
            for h in heads
        )
        lines.append(
            SeasonLine(row.rank, players[row.player], row.total, row.played, row.wins, cells)
        )
    return SeasonView(season, said(rule.rule_phrase()), heads, tuple(lines))


# --------------------------------------------------------------------------- ratings


@dataclass(frozen=True)
class LeaderLine:
    rank: int
    player: Player
    rating: str
    games: int


def roster_revision(roster: Roster) -> str:
    total = Event.objects.filter(club_night__roster=roster).aggregate(r=Sum("revision"))["r"]
    last = RatingStep.objects.filter(rated_game__roster=roster).order_by("-pk").first()
    return f"{total or 0}.{last.pk if last else 0}"


def leaderboard(*, roster: Roster) -> list[LeaderLine]:
    """Every rated player of the roster, best first (merged duplicates left out)."""
    players = {
        p.pk: p
        for p in Player.objects.filter(roster=roster, merged_into__isnull=True, mu__isnull=False)
    }
    skills = {pk: s for pk, p in players.items() if (s := player_skill(p)) is not None}
    return [
        LeaderLine(rank, players[pk], rating_text(skill), players[pk].rated_games)
        for rank, pk, skill in ranked(skills)
    ]


def ratings_of(player_ids: set[int]) -> dict[int, str]:
    """Each player's rating as shown, for lists of names (the desk)."""
    return {
        p.pk: rating_text(player_skill(p))
        for p in Player.objects.filter(pk__in=player_ids, mu__isnull=False)
    }


@dataclass(frozen=True)
class PlayerNight:
    event: Event
    entrant_id: int
    season: Season | None
    place: int | None
    points: int | None
    counted: bool


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    rating: str
    rank: int | None
    of: int
    chart: str
    nights: tuple[PlayerNight, ...]
    last_played: datetime | None


def player_page(*, player: Player) -> PlayerPage:
    board = leaderboard(roster=player.roster)
    rank = next((line.rank for line in board if line.player.pk == player.pk), None)
    history = [
        Skill(mu, sigma).ordinal
        for mu, sigma in RatingStep.objects.filter(player=player).values_list("mu", "sigma")
    ]
    if history:
        history.insert(
            0,
            Skill(
                *RatingStep.objects.filter(player=player).values_list("mu_before", "sigma_before")[
                    0
                ]
            ).ordinal,
        )
    links = (
        EntrantPlayer.objects.filter(player=player)
        .select_related("entrant__event__club_night__season")
        .order_by("-entrant__event__created_at", "-entrant_id")
    )
    season_cache: dict[int, dict[int, NightScore]] = {}
    nights: list[PlayerNight] = []
    seen: set[int] = set()
    for link in links:
        event = link.entrant.event
        if event.pk in seen:
            continue
        seen.add(event.pk)
        night = getattr(event, "club_night", None)
        season = night.season if night is not None else None
        place = points = None
        counted = False
        if season is not None:
            if season.pk not in season_cache:
                held = season_nights(season)
                table = season_table(season_rule(season), [n.night for n in held])
                numbers = {n.number: n.event.pk for n in held}
                row = next((r for r in table.rows if r.player == player.pk), None)
                season_cache[season.pk] = {numbers[n.night]: n for n in (row.nights if row else ())}
            score = season_cache[season.pk].get(event.pk)
            if score is not None:
                place, points, counted = score.place, score.points, score.counted
        if place is None:
            # A night of no season (or one the season's table leaves out): the place alone.
            place = night_places(event).get(player.pk)
        nights.append(PlayerNight(event, link.entrant_id, season, place, points, counted))
    return PlayerPage(
        player=player,
        rating=rating_text(player_skill(player)),
        rank=rank,
        of=len(board),
        chart=history_svg(
            history, label=gettext("{name}: rating after each game").format(name=player.name)
        ),
        nights=tuple(nights),
        last_played=nights[0].event.created_at if nights else None,
    )


def entrant_ratings(*, event: Event) -> dict[int, str]:
    """Each entrant's rating as shown (a fixed team: its members' mean), for the desk."""
    skills: dict[int, list[float]] = {}
    for entrant_id, mu, sigma in EntrantPlayer.objects.filter(
        entrant__event=event, player__mu__isnull=False
    ).values_list("entrant_id", "player__mu", "player__sigma"):
        skills.setdefault(entrant_id, []).append(
            Skill(mu or 0.0, sigma or 0.0).ordinal
        )  # rated: never null
    return {e: f"{sum(v) / len(v):.1f}" for e, v in skills.items()}


def ratings_concern(*, game_id: int) -> bool:
    """Whether a change to this game can move a rating: its event is a rated club night,
    or it was rated before (most tournament games are neither: no task is sent)."""
    return (
        ClubNight.objects.filter(rated=True, event__rounds__tables__game_id=game_id).exists()
        or RatedGame.objects.filter(game_id=game_id).exists()
    )


# --------------------------------------------------------------------------- export

ROSTER_FORMAT = "tablescore-roster/1"
SEASON_KEYS = ("counting", "best", "drop", "min_nights", "place_points", "attendance", "tiebreaks")


def _season_data(season: Season) -> dict[str, Any]:
    return {"name": season.name, **{key: getattr(season, key) for key in SEASON_KEYS}}


def roster_export(*, roster: Roster) -> dict[str, Any]:
    """The roster as one JSON document: players (contacts, merges, ratings) and seasons."""
    players = list(Player.objects.filter(roster=roster).order_by("pk"))
    index = {p.pk: i for i, p in enumerate(players)}
    return {
        "format": ROSTER_FORMAT,
        "name": roster.name,
        "players": [
            {
                "name": p.name,
                "contact": p.contact,
                "merged_into": index.get(p.merged_into_id) if p.merged_into_id else None,
                "rating": None if p.mu is None else {"mu": p.mu, "sigma": p.sigma},
                "rated_games": p.rated_games,
            }
            for p in players
        ],
        "seasons": [_season_data(s) for s in Season.objects.filter(roster=roster).order_by("pk")],
    }


def club_export(*, event: Event) -> dict[str, Any] | None:
    """The event's club night for the event's export: its season, and who is who."""
    night = ClubNight.objects.filter(event=event).select_related("season").first()
    if night is None:
        return None
    index = {
        pk: i for i, pk in enumerate(event.entrants.order_by("pk").values_list("pk", flat=True))
    }
    links = EntrantPlayer.objects.filter(entrant__event=event).select_related("player")
    return {
        "season": _season_data(night.season) if night.season else None,
        "rated": night.rated,
        "balanced": night.balanced,
        "links": [
            {"entrant": index[link.entrant_id], "member": link.member, "player": link.player.name}
            for link in sorted(links, key=lambda k: (index[k.entrant_id], k.member))
        ],
    }


# --------------------------------------------------------------------------- the desk's pages


def roster_player(*, roster: Roster, player_id: int | None) -> Player | None:
    """The roster's player of that id (merged or not), None for no such player."""
    if player_id is None:
        return None
    return Player.objects.select_related("roster").filter(roster=roster, pk=player_id).first()


def roster_season(*, roster: Roster, season_id: int | None) -> Season | None:
    """The roster's season of that id, None for no such season."""
    if season_id is None:
        return None
    return Season.objects.filter(roster=roster, pk=season_id).first()


def event_entrant(*, event: Event, entrant_id: int | None) -> Entrant | None:
    if entrant_id is None:
        return None
    return Entrant.objects.filter(event=event, pk=entrant_id).first()


def roster_by_token(token: str) -> Roster | None:
    """The roster whose public page this is."""
    return Roster.objects.filter(public_token=token).first()


def season_by_token(token: str) -> Season | None:
    """The season whose public page this is (with its roster)."""
    return Season.objects.select_related("roster").filter(public_token=token).first()


def roster_seasons(*, roster: Roster) -> list[Season]:
    return list(Season.objects.filter(roster=roster))


@dataclass(frozen=True)
class ClubDesk:
    """The roster desk: its players (each with their rating as shown) and seasons."""

    roster: Roster
    players: tuple[tuple[Player, str], ...]
    seasons: tuple[Season, ...]


def club_desk(*, roster: Roster) -> ClubDesk:
    players = live_players(roster).order_by("folded", "pk")
    return ClubDesk(
        roster=roster,
        players=tuple((p, rating_text(player_skill(p))) for p in players),
        seasons=tuple(roster_seasons(roster=roster)),
    )


@dataclass(frozen=True)
class PlayerDesk:
    """One roster player at the desk: their rating as shown."""

    player: Player
    rating: str


def roster_player_desk(*, player: Player) -> PlayerDesk:
    return PlayerDesk(player=player, rating=rating_text(player_skill(player)))


@dataclass(frozen=True)
class NightDesk:
    """An event as a club night at the desk: the night (None while it is none), the
    roster's seasons and players, and every entrant (every member of a fixed team) with
    the roster player it is linked to, or the players of its name to choose from."""

    event: Event
    night: ClubNight | None
    seasons: tuple[Season, ...]
    entrants: tuple[dict[str, Any], ...]
    players: tuple[Player, ...]


def club_night_desk(*, event: Event, roster: Roster) -> NightDesk:
    night = ClubNight.objects.filter(event=event).select_related("season").first()
    links = {
        (e, m): p
        for e, m, p in EntrantPlayer.objects.filter(entrant__event=event)
        .select_related("player")
        .values_list("entrant_id", "member", "player")
    }
    players = {p.pk: p for p in live_players(roster)}
    ratings = ratings_of(set(players))
    entrants = []
    for entrant in event.entrants.order_by("pk"):
        names = list(entrant.members) or [entrant.name]
        for member, name in enumerate(names):
            linked = players.get(links.get((entrant.pk, member)) or 0)
            same = [p for p in players.values() if p.folded == folded(name)]
            entrants.append(
                {
                    "entrant": entrant,
                    "member": member,
                    "name": name,
                    "player": linked,
                    "rating": ratings.get(linked.pk, "") if linked else "",
                    "choices": same if not linked else [],
                }
            )
    return NightDesk(
        event=event,
        night=night,
        seasons=tuple(roster_seasons(roster=roster)),
        entrants=tuple(entrants),
        players=tuple(sorted(players.values(), key=lambda p: p.folded)),
    )
