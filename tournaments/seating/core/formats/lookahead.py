"""The mixer planning ahead: a short partnership event's two ways compared in dry runs,
and the whole event's schedule annealed when the request asks to search harder.

Both plan the event round by round with the planner itself, which the caller hands in
(``Planner``): this module never imports the planner, which imports every format.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache

from tournaments.seating.core import anneal, constructions
from tournaments.seating.core.formats.base import Planner
from tournaments.seating.core.sizes import table_sizes
from tournaments.seating.core.types import (
    Constraints,
    EntrantId,
    PlayedRound,
    RoundRequest,
    Sides,
    TablePolicy,
    Weights,
)

# A partnership event longer than this is long: the whist rotation is kept without
# planning the mixer's whole event beside it.
SHORT_EVENT_ROUNDS = 12


@dataclass(frozen=True)
class PartnershipChoice:
    """Both ways to seat a partnership event of ``rounds`` rounds, as counted in a dry run:
    the individual mixer (then partners split to avoid repeats) and the whist rotation.
    The mixer is chosen when it costs less: repeated pairs plus ``Weights.partner`` per
    repeated partner (a whist rotation repeats table-mates on purpose and never a partner,
    which wins for long events)."""

    rounds: int
    mixer_pairs: int
    mixer_partners: int
    whist_pairs: int
    whist_partners: int
    partner_weight: int

    @property
    def mixer_cost(self) -> int:
        return self.mixer_pairs + self.partner_weight * self.mixer_partners

    @property
    def whist_cost(self) -> int:
        return self.whist_pairs + self.partner_weight * self.whist_partners

    @property
    def chosen(self) -> str:
        return "mixer" if self.mixer_cost < self.whist_cost else "whist"

    def as_dict(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "mixer": {"repeated_pairs": self.mixer_pairs, "repeated_partners": self.mixer_partners},
            "whist": {"repeated_pairs": self.whist_pairs, "repeated_partners": self.whist_partners},
            "chosen": self.chosen,
        }


# Set while one way of seating is planned ahead, so that the dry run seats as the
# event would once that way is chosen.
_PLANNING_AHEAD: ContextVar[str | None] = ContextVar("planning_ahead", default=None)


def _dry_run(request: RoundRequest, plan_round: Planner, *, way: str) -> tuple[int, int]:
    """Repeated pairs and partners over the planned rounds, seated ``way``."""
    assert request.rounds_planned is not None
    history: list[PlayedRound] = []
    pairs = partners = 0
    token = _PLANNING_AHEAD.set(way)
    try:
        for _ in range(request.rounds_planned):
            plan = plan_round(replace(request, history=tuple(history)))
            pairs += plan.report.repeated_pairs
            partners += plan.report.repeated_partners
            history.append(plan.as_played(frozenset()))
    finally:
        _PLANNING_AHEAD.reset(token)
    return pairs, partners


@lru_cache(maxsize=256)
def _choice(
    entrants: tuple[EntrantId, ...],
    policy_key: tuple[tuple[int, ...], int, tuple[tuple[int, Sides], ...]],
    weights: Weights,
    seed: int,
    effort: int,
    planned: int,
    plan_round: Planner,
) -> PartnershipChoice:
    legal, preferred, sides = policy_key
    request = RoundRequest(
        entrants=entrants,
        policy=TablePolicy(legal_sizes=legal, preferred=preferred, sides=dict(sides)),
        weights=weights,
        seed=seed,
        effort=effort,
        rounds_planned=planned,
    )
    mixer = _dry_run(request, plan_round, way="mixer")
    whist = _dry_run(request, plan_round, way="whist")
    return PartnershipChoice(
        rounds=request.rounds_planned or 0,
        mixer_pairs=mixer[0],
        mixer_partners=mixer[1],
        whist_pairs=whist[0],
        whist_partners=whist[1],
        partner_weight=max(request.weights.partner, 1),
    )


def partnership_choice(request: RoundRequest, plan_round: Planner) -> PartnershipChoice | None:
    """The mixer and the whist rotation compared for this event (the director's report),
    or None when the event is not a fresh partnership field of known, short length."""
    policy = request.policy
    planned = request.rounds_planned
    if (
        request.format != "mixer"
        or not request.constructions
        or planned is None
        or planned > SHORT_EVENT_ROUNDS
        or policy.sides_at(4) != ((0, 2), (1, 3))
        or request.constraints != Constraints()
    ):
        return None
    count = len(request.entrants)
    if count not in constructions.whist_sizes():
        return None
    sizes, _ = table_sizes(count, policy)
    if set(sizes) != {4}:
        return None
    policy_key = (tuple(policy.legal_sizes), policy.preferred, tuple(sorted(policy.sides.items())))
    entrants = tuple(sorted(request.entrants))
    return _choice(
        entrants, policy_key, request.weights, request.seed, request.effort, planned, plan_round
    )


def prefers_mixer(request: RoundRequest, plan_round: Planner) -> bool:
    ahead = _PLANNING_AHEAD.get()
    if ahead is not None:
        return ahead == "mixer"
    choice = partnership_choice(request, plan_round)
    return choice is not None and choice.chosen == "mixer"


# The annealing stops early past this many seconds a million steps (a slow machine):
# the schedule then depends on the machine, and the event follows it only where it can.
SECONDS_PER_MILLION_STEPS = 30.0


@lru_cache(maxsize=64)
def _annealed(
    entrants: tuple[EntrantId, ...],
    size: int,
    seed: int,
    effort: int,
    planned: int,
    steps: int,
    plan_round: Planner,
) -> tuple[tuple[tuple[EntrantId, ...], ...], ...] | None:
    """The planner's own schedule for the whole event, annealed; None when annealing
    found nothing better."""
    policy = TablePolicy(legal_sizes=(size,), preferred=size)
    history: list[PlayedRound] = []
    for _ in range(planned):
        plan = plan_round(
            RoundRequest(
                entrants=entrants,
                policy=policy,
                history=tuple(history),
                seed=seed,
                effort=effort,
                rounds_planned=planned,
            )
        )
        history.append(plan.as_played(frozenset()))
    index = {e: i for i, e in enumerate(entrants)}
    rounds = [[tuple(index[e] for e in table) for table in played.tables] for played in history]
    before = anneal.repeated_pairs(rounds, len(entrants))
    best = anneal.anneal_schedule(
        rounds,
        len(entrants),
        seconds=SECONDS_PER_MILLION_STEPS * steps / 1_000_000,
        seed=seed,
        steps=steps,
    )
    if anneal.repeated_pairs(best, len(entrants)) >= before:
        return None
    return tuple(tuple(tuple(entrants[p] for p in table) for table in tables) for tables in best)


def searched_schedule(
    request: RoundRequest,
    sizes: Sequence[int],
    seated: Sequence[EntrantId],
    plan_round: Planner,
) -> tuple[tuple[tuple[EntrantId, ...], ...], ...] | None:
    """The annealed schedule for this event when the request asks to search harder."""
    planned = request.rounds_planned
    if (
        request.search_steps <= 0
        or request.format != "mixer"
        or planned is None
        or len(request.history) >= planned
        or len(set(sizes)) != 1
        or len(seated) != len(request.entrants)
        or request.constraints != Constraints()
        or request.policy.sides_at(sizes[0])
    ):
        return None
    entrants = tuple(sorted(request.entrants))
    return _annealed(
        entrants, sizes[0], request.seed, request.effort, planned, request.search_steps, plan_round
    )
