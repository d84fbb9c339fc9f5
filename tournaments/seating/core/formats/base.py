"""What every seating format is given and gives back, and the steps most formats share.

A format is one function, ``Seating -> Seated``: it seats one tournament round from
the request, the ledger of what was played and the round's random stream. The
planner checks the request first and reports on the seating after.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tournaments.seating.core.ledger import Ledger, pair
from tournaments.seating.core.search import Unit
from tournaments.seating.core.sizes import table_sizes
from tournaments.seating.core.types import (
    Constraints,
    EntrantId,
    RoundPlan,
    RoundRequest,
    Table,
)

# The whole planner, handed to a format that plans ahead (a dry run of the event):
# a format module never imports the planner, which imports every format.
Planner = Callable[[RoundRequest], RoundPlan]


@dataclass(frozen=True)
class Seating:
    """One round to seat: the request, who met whom so far, the round's random stream
    (seeded by the planner from the seed, the format and the round) and the planner."""

    request: RoundRequest
    ledger: Ledger
    rng: random.Random
    plan_round: Planner


@dataclass(frozen=True)
class Seated:
    """A format's answer: the tables (seat order, table 0 first), the byes, the method
    named in the report, and pairs kept together this round besides the fixed teams."""

    tables: list[Table]
    byes: list[EntrantId]
    method: str
    teams: list[tuple[EntrantId, ...]] = field(default_factory=list)


FormatPlanner = Callable[[Seating], Seated]


@dataclass(frozen=True)
class Field:
    """The round's table sizes (largest first), who sits out and who is seated (by id)."""

    sizes: list[int]
    byes: list[EntrantId]
    seated: list[EntrantId]


def sit_out(
    seating: Seating,
    *,
    preference: Callable[[EntrantId], object] | None = None,
    sitter: Callable[[Sequence[int], int], EntrantId | None] | None = None,
) -> Field:
    """Table sizes and byes for a format that seats individuals at tables of legal sizes.

    One random draw per entrant is taken first, whatever decides (so the round's random
    stream is the same for every such format); byes go by ``choose_byes`` with
    ``preference`` (default: that draw), unless ``sitter`` (given the sizes and the
    number of byes) names the one entrant to sit out."""
    request = seating.request
    entrants = list(request.entrants)
    sizes, bye_count = table_sizes(len(entrants), request.policy)
    draw = {e: seating.rng.random() for e in sorted(entrants)}
    chosen = sitter(sizes, bye_count) if sitter is not None else None
    if chosen is not None:
        byes = [chosen]
    else:
        byes = choose_byes(
            entrants,
            bye_count,
            seating.ledger,
            request.constraints,
            draw.__getitem__ if preference is None else preference,
        )
    bye_set = set(byes)
    seated = [e for e in sorted(entrants) if e not in bye_set]
    return Field(sizes=sizes, byes=byes, seated=seated)


def choose_byes(
    entrants: Sequence[EntrantId],
    count: int,
    ledger: Ledger,
    constraints: Constraints,
    preference: Callable[[EntrantId], object],
) -> list[EntrantId]:
    """The ``count`` entrants to sit out: fewest byes so far first (so nobody has two
    before everyone has one, and byes stay within one of each other); among those,
    entrants with no fixed table and in no fixed team first; then ``preference``
    (lowest first)."""
    if count <= 0:
        return []
    in_team = {m for team in constraints.fixed_teams for m in team}
    ordered = sorted(
        entrants,
        key=lambda e: (
            ledger.byes.get(e, 0),
            e in constraints.fixed_table,
            e in in_team,
            preference(e),
        ),
    )
    return ordered[:count]


def make_units(seated: Sequence[EntrantId], constraints: Constraints) -> list[Unit]:
    """Entrants as units to seat: each fixed team (its present members) is one unit."""
    here = set(seated)
    units: list[Unit] = []
    placed: set[EntrantId] = set()
    for team in constraints.fixed_teams:
        members = tuple(m for m in team if m in here)
        if members:
            units.append(members)
            placed |= set(members)
    units.extend((e,) for e in seated if e not in placed)
    return units


def blocks_of(constraints: Constraints) -> dict[EntrantId, int]:
    return {m: i for i, team in enumerate(constraints.fixed_teams) for m in team}


def fixed_units(units: Sequence[Unit], constraints: Constraints) -> dict[int, int]:
    fixed: dict[int, int] = {}
    for index, unit in enumerate(units):
        for member in unit:
            if member in constraints.fixed_table:
                fixed[index] = constraints.fixed_table[member]
                break
    return fixed


def apart_pairs(constraints: Constraints) -> frozenset[tuple[int, int]]:
    return frozenset(pair(a, b) for a, b in constraints.keep_apart)
