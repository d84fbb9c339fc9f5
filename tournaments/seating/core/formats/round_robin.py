"""Round robin: fixed teams meet every other team once, two teams a table (circle method).

Teams are ``Constraints.fixed_teams`` (a team with a member absent sits out whole),
then the other entrants in id order, cut into teams of half a table; a bye team when
the count is odd.
"""

from __future__ import annotations

from common.phrases import N_
from tournaments.seating.core.formats.base import Seated, Seating
from tournaments.seating.core.types import EntrantId, SchedulingError, Table
from tournaments.seating.core.words import ROUND_ROBIN


def plan(seating: Seating) -> Seated:
    """Circle method over fixed teams, two teams a table; a bye team when odd."""
    request = seating.request
    policy, constraints = request.policy, request.constraints
    size = policy.preferred
    if size % 2:
        raise SchedulingError(
            N_("round_robin seats two teams a table: table size {size} is odd"),
            {"size": size},
            field="table_size",
            round=request.number,
        )
    team_size = size // 2
    present = set(request.entrants)
    teams: list[tuple[EntrantId, ...]] = []
    byes: list[EntrantId] = []
    taken: set[EntrantId] = set()
    for team in constraints.fixed_teams:
        taken |= set(team)
        if len(team) != team_size:
            raise SchedulingError(
                N_(
                    "round_robin at tables of {size} needs teams of {members}; "
                    "team {team} has {has}"
                ),
                {"size": size, "members": team_size, "team": str(list(team)), "has": len(team)},
                field="fixed_teams",
                round=request.number,
            )
        if all(m in present for m in team):
            teams.append(tuple(team))
        else:
            byes.extend(m for m in team if m in present)
    loose = sorted(e for e in request.entrants if e not in taken)
    whole = len(loose) - len(loose) % team_size
    teams.extend(tuple(loose[i : i + team_size]) for i in range(0, whole, team_size))
    byes.extend(loose[whole:])
    slots: list[tuple[EntrantId, ...] | None] = list(teams)
    if len(slots) % 2:
        slots.append(None)
    count = len(slots)
    tables: list[Table] = []
    if count >= 2:
        r = len(request.history) % (count - 1)
        rotating = slots[1:]
        rotating = rotating[-r:] + rotating[:-r] if r else rotating
        order = [slots[0], *rotating]
        sides = policy.sides_at(size) or ((tuple(range(0, size, 2))), tuple(range(1, size, 2)))
        for i in range(count // 2):
            home, away = order[i], order[count - 1 - i]
            if home is None or away is None:
                byes.extend(m for m in (home or away or ()) if m in present)
                continue
            if r % 2 and i == 0:
                home, away = away, home  # the fixed team alternates its seats
            seats: list[EntrantId] = [-1] * size
            for seat, member in zip(sides[0], home, strict=True):
                seats[seat] = member
            for seat, member in zip(sides[1], away, strict=True):
                seats[seat] = member
            tables.append(tuple(seats))
    else:
        for team in teams:
            byes.extend(team)
    return Seated(tables=tables, byes=byes, method=ROUND_ROBIN, teams=teams)
