"""A whole event planned ahead, round after round, with results drawn from the seed.

What ``manage.py schedule`` prints and the benchmark measures: the same ``plan_round``
a live event calls, fed its own plans as history. ``swiss`` and ``progressive`` need
results; here every table's winners are drawn at random (a side in a partnership
game, the top half otherwise), reproducibly for the seed.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from common.phrases import N_
from tournaments.seating.core.formats.lookahead import PartnershipChoice
from tournaments.seating.core.ledger import Ledger
from tournaments.seating.core.planner import partnership_choice, plan_round
from tournaments.seating.core.report import ScheduleReport, bye_spread, schedule_lower_bound
from tournaments.seating.core.types import (
    Constraints,
    EntrantId,
    Format,
    PlayedRound,
    RoundPlan,
    RoundRequest,
    SchedulingError,
    Table,
    TablePolicy,
    Weights,
)

MAX_ROUNDS = 200
MAX_ENTRANTS = 100_000


@dataclass(frozen=True)
class Schedule:
    """``partnership``: for a short partnership event, both ways of seating it counted
    (the individual mixer and the whist rotation) and which one was chosen."""

    rounds: tuple[RoundPlan, ...]
    report: ScheduleReport
    partnership: PartnershipChoice | None = None

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "rounds": [
                {"tables": [list(t) for t in plan.tables], "byes": list(plan.byes)}
                for plan in self.rounds
            ],
            "report": self.report.as_dict(),
        }
        if self.partnership is not None:
            data["partnership"] = self.partnership.as_dict()
        return data


def draw_winners(table: Table, policy: TablePolicy, rng: random.Random) -> set[EntrantId]:
    """Who wins this table in a dry run: one side at random, or a random top half."""
    sides = policy.sides_at(len(table))
    if sides:
        group = sides[rng.randrange(len(sides))]
        return {table[seat] for seat in group}
    order = list(table)
    rng.shuffle(order)
    return set(order[: max(1, len(order) // 2)])


def plan_schedule(
    entrants: Sequence[EntrantId],
    policy: TablePolicy,
    rounds: int,
    *,
    format: Format = "mixer",
    seed: int = 0,
    constraints: Constraints | None = None,
    weights: Weights | None = None,
    effort: int = 1,
    constructions: bool = True,
    search_steps: int = 0,
) -> Schedule:
    """Plan ``rounds`` rounds for a fixed field, with results drawn from ``seed``."""
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SchedulingError(
            N_("rounds must be between 1 and {most}"), {"most": MAX_ROUNDS}, field="rounds"
        )
    if not 1 <= len(entrants) <= MAX_ENTRANTS:
        raise SchedulingError(
            N_("players must be between 1 and {most}"), {"most": MAX_ENTRANTS}, field="players"
        )
    constraints = constraints or Constraints()
    weights = weights or Weights()
    results = random.Random(f"results:{seed}")
    history: list[PlayedRound] = []
    points: Counter[EntrantId] = Counter()
    plans: list[RoundPlan] = []
    started = time.perf_counter()
    for _ in range(rounds):
        order = {e: results.random() for e in sorted(entrants)}
        standings = sorted(entrants, key=lambda e: (-points[e], order[e]))
        plan = plan_round(
            RoundRequest(
                entrants=tuple(entrants),
                policy=policy,
                format=format,
                history=tuple(history),
                standings=tuple(standings),
                constraints=constraints,
                weights=weights,
                seed=seed,
                effort=effort,
                constructions=constructions,
                rounds_planned=rounds,
                search_steps=search_steps,
            )
        )
        winners: set[EntrantId] = set()
        for table in plan.tables:
            winners |= draw_winners(table, policy, results)
        for entrant in winners:
            points[entrant] += 1
        plans.append(plan)
        history.append(plan.as_played(frozenset(winners)))
    seconds = time.perf_counter() - started
    report = summarize(plans, history, policy, entrants, seconds)
    choice = partnership_choice(
        RoundRequest(
            entrants=tuple(entrants),
            policy=policy,
            format=format,
            constraints=constraints,
            weights=weights,
            seed=seed,
            effort=effort,
            constructions=constructions,
            rounds_planned=rounds,
        )
    )
    return Schedule(rounds=tuple(plans), report=report, partnership=choice)


def summarize(
    plans: Sequence[RoundPlan],
    history: Sequence[PlayedRound],
    policy: TablePolicy,
    entrants: Sequence[EntrantId],
    seconds: float,
) -> ScheduleReport:
    ledger = Ledger.of(history, policy)
    bound = schedule_lower_bound(len(entrants), [[len(t) for t in p.tables] for p in plans])
    return ScheduleReport(
        rounds=len(plans),
        repeated_pairs=sum(p.report.repeated_pairs for p in plans),
        repeated_partners=sum(p.report.repeated_partners for p in plans),
        lower_bound=bound,
        bye_spread=bye_spread(entrants, ledger),
        keep_apart_broken=sum(p.report.keep_apart_broken for p in plans),
        most_met=max(ledger.met.values(), default=0),
        most_partnered=max(ledger.partnered.values(), default=0),
        seconds=seconds,
        per_round=tuple(p.report for p in plans),
    )
