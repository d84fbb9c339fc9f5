"""What the season, leaderboard and player pages show, read from the rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Sum

from tournaments.models import ClubNight, EntrantPlayer, Event, Player, RatingStep, Roster, Season
from tournaments.seasons.adapter import night_places, season_nights
from tournaments.seasons.core.chart import history_svg
from tournaments.seasons.core.ratings import Skill, ranked
from tournaments.seasons.core.table import NightScore, season_table
from tournaments.seasons.services import season_rule


def rating_text(skill: Skill | None) -> str:
    """A rating as shown: the cautious estimate to one decimal (mu - 3 sigma)."""
    return "\N{EN DASH}" if skill is None else f"{skill.ordinal:.1f}"


def player_skill(player: Player) -> Skill | None:
    if player.mu is None or player.sigma is None:
        return None
    return Skill(player.mu, player.sigma)


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
    return SeasonView(season, rule.describe(), heads, tuple(lines))


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
        chart=history_svg(history, label=f"{player.name}: rating after each game"),
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
