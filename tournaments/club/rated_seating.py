"""Ratings in seating: Swiss round 1 seeded by rating, and balanced tables.

Seats are the seating adapter's slots (an entrant's id and member); a slot's strength
is its roster player's rating (``Skill.ordinal``). Balanced tables keep the engine's
table sizes and byes and deal the players out again by strength (the seasons core);
a round with fixed teams, fixed tables or keep-apart pairs keeps the engine's seating,
since balancing would undo them. The round's report then names the tables' mean
ratings either way.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from tournaments.club.core.balance import balanced_tables, seed_order, table_means
from tournaments.club.core.ratings import Skill
from tournaments.models import ClubNight, EntrantPlayer, Event
from tournaments.seating import adapter as seating
from tournaments.seating.core.types import RoundPlan


def slot_strength(event: Event) -> dict[int, float]:
    """Each linked, rated seat slot of the event's entrants: its player's rating."""
    return {
        seating.slot(entrant_id, member): Skill(
            mu or 0.0, sigma or 0.0
        ).ordinal  # rated: never null
        for entrant_id, member, mu, sigma in EntrantPlayer.objects.filter(
            entrant__event=event, player__mu__isnull=False
        ).values_list("entrant_id", "member", "player__mu", "player__sigma")
    }


def entrant_strength(event: Event) -> dict[int, float]:
    """Each entrant's rating (a fixed team: its members' mean)."""
    sums: dict[int, list[float]] = {}
    for value, strength in slot_strength(event).items():
        sums.setdefault(seating.unslot(value)[0], []).append(strength)
    return {e: sum(v) / len(v) for e, v in sums.items()}


def rating_order(event: Event) -> list[int]:
    """The event's entrant ids, strongest first (unrated after, in registration order)."""
    ids = list(event.entrants.order_by("pk").values_list("pk", flat=True))
    return seed_order(ids, entrant_strength(event))


def is_balanced(event: Event) -> bool:
    return ClubNight.objects.filter(event=event, balanced=True).exists()


def balance_plan(event: Event, inputs: seating.SeatingInputs, plan: RoundPlan) -> RoundPlan:
    """The plan with its tables dealt out by strength (when the event asks for it)."""
    if not is_balanced(event):
        return plan
    request = inputs.request
    constraints = request.constraints
    if constraints.fixed_teams or constraints.fixed_table or constraints.keep_apart:
        return plan
    strength = slot_strength(event)
    met: Counter[frozenset[int]] = Counter()
    for played in request.history:
        for table in played.tables:
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] += 1
    seated = [s for table in plan.tables for s in table]
    balanced = balanced_tables(seated, [len(t) for t in plan.tables], strength, met)
    report = seating.report_for(request, balanced.tables, plan.byes, method="balanced tables")
    return RoundPlan(tables=balanced.tables, byes=plan.byes, report=report)


def mean_ratings(event: Event, plan: RoundPlan) -> list[str]:
    """Each table's mean rating as shown in the round's report ("-" with nobody rated)."""
    means = table_means(plan.tables, slot_strength(event))
    return ["\N{EN DASH}" if m is None else f"{m:.1f}" for m in means]
