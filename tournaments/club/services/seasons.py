"""Seasons: made with their rule, chosen up front."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from scoring.engines.base import N_, Problem
from tournaments.club.core.table import Counting, SeasonRule, Tiebreak
from tournaments.club.errors import ClubError
from tournaments.club.services.roster import roster_log
from tournaments.models import Roster, Season
from tournaments.services.change import ActingUser

SEASON_NAME_LONGEST = 80


def rule_from(data: Mapping[str, Any]) -> SeasonRule:
    problems: list[Problem] = []
    try:
        counting = Counting(data.get("counting", Counting.ALL))
    except ValueError:
        problems.append(Problem(N_("choose how nights add up"), field="counting"))
        counting = Counting.ALL
    try:
        tiebreaks = tuple(Tiebreak(t) for t in data.get("tiebreaks", SeasonRule().tiebreaks))
    except ValueError:
        problems.append(Problem(N_("an unknown tiebreak"), field="tiebreaks"))
        tiebreaks = ()
    numbers: dict[str, int] = {}
    for name in ("best", "drop", "min_nights", "attendance"):
        try:
            numbers[name] = int(data.get(name) or 0)
        except (TypeError, ValueError):
            problems.append(Problem(N_("a whole number is needed"), field=name))
            numbers[name] = 0
    raw = data.get("place_points", SeasonRule().place_points)
    if isinstance(raw, str):
        raw = [p for p in raw.replace(",", " ").replace("-", " ").split() if p]
    try:
        points = tuple(int(p) for p in raw)
    except (TypeError, ValueError):
        problems.append(Problem(N_("place points are whole numbers"), field="place_points"))
        points = SeasonRule().place_points
    rule = SeasonRule(
        counting=counting,
        best=numbers["best"],
        drop=numbers["drop"],
        min_nights=numbers["min_nights"],
        place_points=points,
        attendance=numbers["attendance"],
        tiebreaks=tiebreaks,
    )
    problems.extend(rule.problems())
    if problems:
        raise ClubError(problems)
    return rule


def season_create(
    *,
    roster: Roster,
    name: str,
    rule: Mapping[str, Any],
    user: ActingUser = None,
) -> Season:
    """A new season with its rule (chosen up front: it cannot change once a night is in)."""
    problems: list[Problem] = []
    if not name.strip() or len(name.strip()) > SEASON_NAME_LONGEST:
        problems.append(
            Problem(
                N_("the name is 1 to {longest} characters"),
                None,
                "name",
                {"longest": SEASON_NAME_LONGEST},
            )
        )
    try:
        parsed = rule_from(rule)
    except ClubError as error:
        problems.extend(error.problems)
    if problems:
        raise ClubError(problems)
    with transaction.atomic():
        season = Season.objects.create(
            roster=roster,
            name=name.strip(),
            counting=parsed.counting.value,
            best=parsed.best,
            drop=parsed.drop,
            min_nights=parsed.min_nights,
            place_points=list(parsed.place_points),
            attendance=parsed.attendance,
            tiebreaks=[t.value for t in parsed.tiebreaks],
        )
        roster_log(roster, "season_create", user, after={"id": season.pk, "name": season.name})
    return season
