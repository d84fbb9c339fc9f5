"""The roster's JSON document and an event's club night brought in from another
Tablescore, each checked whole before anything is written."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from common.folding import folded
from scoring.engines.base import N_, Phrase, Problem, text_problem
from tournaments.club.errors import ClubError
from tournaments.club.selectors import ROSTER_FORMAT, live_players
from tournaments.club.services.nights import NightLinks, club_night_set
from tournaments.club.services.roster import (
    CONTACT_LONGEST,
    ImportResult,
    name_problems,
    roster_for,
    roster_log,
)
from tournaments.club.services.seasons import SEASON_NAME_LONGEST, rule_from, season_create
from tournaments.models import EntrantPlayer, Event, Player, Roster, Season
from tournaments.services.change import ActingUser


def _roster_problems(data: Any) -> list[Problem]:
    if not isinstance(data, Mapping) or data.get("format") != ROSTER_FORMAT:
        return [
            Problem(
                N_("this is not a {format} document"), None, "format", {"format": ROSTER_FORMAT}
            )
        ]
    problems: list[Problem] = []
    players = data.get("players")
    if not isinstance(players, list):
        return [Problem(N_("players is missing or malformed"), field="players")]
    for number, player in enumerate(players, start=1):
        field = f"player {number}"
        said = {"what": Phrase(N_("player {number}"), {"number": number})}
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str):
            problems.append(Problem(N_("{what}: a name is needed"), None, field, said))
            continue
        problems.extend(
            Problem(N_("{what}: {problem}"), None, field, {**said, "problem": p})
            for p in name_problems(player["name"], field)
        )
        rating = player.get("rating")
        if rating is not None and not (
            isinstance(rating, Mapping)
            and all(isinstance(rating.get(k), int | float) for k in ("mu", "sigma"))
            and 0 < float(rating["sigma"]) < 100
            and -1000 < float(rating["mu"]) < 1000
        ):
            problems.append(Problem(N_("{what}: the rating needs mu and sigma"), None, field, said))
        merged = player.get("merged_into")
        if merged is not None and not (isinstance(merged, int) and 0 <= merged < len(players)):
            problems.append(Problem(N_("{what}: merged into no such player"), None, field, said))
    seasons = data.get("seasons", [])
    if not isinstance(seasons, list):
        return [*problems, Problem(N_("seasons is malformed"), field="seasons")]
    for number, season in enumerate(seasons, start=1):
        field = f"season {number}"
        said = {"what": Phrase(N_("season {number}"), {"number": number})}
        if not isinstance(season, Mapping) or not isinstance(season.get("name"), str):
            problems.append(Problem(N_("{what}: a name is needed"), None, field, said))
            continue
        if problem := text_problem(season["name"].strip(), SEASON_NAME_LONGEST):
            problems.append(
                Problem(N_("{what}: the name {problem}"), None, field, {**said, "problem": problem})
            )
        try:
            rule_from(season)
        except ClubError as error:
            problems.extend(
                Problem(N_("{what}: {problem}"), None, field, {**said, "problem": p})
                for p in error.problems
            )
    return problems


def roster_import_json(*, roster: Roster, data: Any, user: ActingUser = None) -> ImportResult:
    """Bring a roster document in, all or nothing, checked whole first. A player whose
    name (folded) is on the roster once is that player; a new name is a new player; a name
    several players share is a new player too (the director can merge). A rating brought
    in is where the player's ratings start; seasons are added unless one has the name."""
    problems = _roster_problems(data)
    if problems:
        raise ClubError(problems)
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster.pk).first()
        by_fold: dict[str, list[Player]] = {}
        for player in live_players(roster):
            by_fold.setdefault(player.folded, []).append(player)
        created: list[Player] = []
        found: list[Player] = []
        made: list[Player] = []
        for item in data["players"]:
            same = by_fold.get(folded(item["name"]), [])
            if len(same) == 1 and item.get("merged_into") is None:
                player = same[0]
                found.append(player)
            else:
                player = Player.objects.create(
                    roster=roster,
                    name=item["name"].strip(),
                    folded=folded(item["name"]),
                    contact=str(item.get("contact") or "")[:CONTACT_LONGEST],
                )
                created.append(player)
            rating = item.get("rating")
            if rating is not None and player.rated_games == 0:
                player.base_mu, player.base_sigma = float(rating["mu"]), float(rating["sigma"])
                player.mu, player.sigma = player.base_mu, player.base_sigma
                player.save(update_fields=["base_mu", "base_sigma", "mu", "sigma"])
            made.append(player)
        for item, player in zip(data["players"], made, strict=True):
            if item.get("merged_into") is not None and player in created:
                player.merged_into = made[item["merged_into"]]
                player.save(update_fields=["merged_into"])
        names = {s.name for s in Season.objects.filter(roster=roster)}
        for item in data.get("seasons", []):
            if item["name"].strip() not in names:
                rule = rule_from(item)
                Season.objects.create(
                    roster=roster,
                    name=item["name"].strip()[:SEASON_NAME_LONGEST],
                    counting=rule.counting.value,
                    best=rule.best,
                    drop=rule.drop,
                    min_nights=rule.min_nights,
                    place_points=list(rule.place_points),
                    attendance=rule.attendance,
                    tiebreaks=[t.value for t in rule.tiebreaks],
                )
        roster_log(
            roster,
            "roster_import_json",
            user,
            after={"created": len(created), "found": len(found)},
        )
    return ImportResult(created, found, [])


def club_import(*, event: Event, data: Any, user: ActingUser = None) -> NightLinks:
    """Make an imported event a club night of its new owner's roster, as exported: the
    season found by name (made with its rule when missing), each link to the player of
    that name (a new player when nobody has it)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("links", []), list):
        raise ClubError.single(N_("the club night is malformed"), field="club")
    roster = roster_for(owner=event.owner)
    season = None
    if data.get("season"):
        wanted = data["season"]
        if not isinstance(wanted, Mapping) or not isinstance(wanted.get("name"), str):
            raise ClubError.single(N_("the club night's season is malformed"), field="club")
        season = Season.objects.filter(roster=roster, name=wanted["name"].strip()).first()
        if season is None:
            season = season_create(roster=roster, name=wanted["name"], rule=wanted, user=user)
    entrants = list(event.entrants.order_by("pk"))
    with transaction.atomic():
        for item in data.get("links", []):
            if not (
                isinstance(item, Mapping)
                and isinstance(item.get("entrant"), int)
                and 0 <= item["entrant"] < len(entrants)
                and isinstance(item.get("member", 0), int)
                and isinstance(item.get("player"), str)
            ):
                raise ClubError.single(N_("a link of the club night is malformed"), field="club")
            entrant_index, member, name = item["entrant"], item.get("member", 0), item["player"]
            same = list(live_players(roster).filter(folded=folded(name)))
            if len(same) > 1:
                continue  # asked about on the club night page
            player = same[0] if same else None
            if player is None:
                if problems := name_problems(name, "club"):
                    raise ClubError(problems)
                player = Player.objects.create(
                    roster=roster, name=name.strip(), folded=folded(name)
                )
            EntrantPlayer.objects.get_or_create(
                entrant=entrants[entrant_index], member=member, defaults={"player": player}
            )
        return club_night_set(
            event=event,
            season=season,
            rated=bool(data.get("rated", True)),
            balanced=bool(data.get("balanced", False)),
            user=user,
        )
