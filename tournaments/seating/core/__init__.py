"""Pure-Python seating for multi-table events: no Django, no I/O, deterministic for a seed.

The tournaments app calls ``plan_round`` once per tournament round::

    policy = TablePolicy(legal_sizes=(4,), preferred=4, sides={4: ((0, 2), (1, 3))})
    plan = plan_round(RoundRequest(entrants=ids, policy=policy, history=played, seed=7))
    plan.tables   # ((12, 3, 40, 9), ...): seat-ordered entrant ids, table 0 first
    plan.byes     # (27,): entrants sitting this round out
    plan.report   # RoundReport: repeated pairs and partners, lower bound, bye spread, ...

Between rounds the caller may drop entrants (leave them out of ``entrants``) or add
late ones; ``history`` is every round played (``RoundPlan.as_played(winners)``), and
the plan takes it into account: who met whom, who partnered whom, seats and first
dealer, byes.

Inputs: ``TablePolicy`` (legal sizes, preferred size, sides read from seat order,
taken from the game engine's own description by the caller), ``Constraints``
(keep-apart pairs, fixed tables for access, fixed teams), ``Weights``, standings
(best first) for ``swiss``, winners in the history for ``progressive``.

Formats (one module each under ``formats/``, one entry each in ``FORMATS``):

- ``mixer``: individuals meet as rarely as possible (and partner as rarely as possible
  in partnership games). Exact constructions where they exist (cyclic, finite-field
  cyclic, affine planes, whist tournaments for partner rotation at 4); otherwise a
  greedy fill plus swap search minimising sum of (times met)^2 plus weighted partner,
  keep-apart and standings terms. Always returns a legal round.
- ``swiss``: tables filled from the top of the standings down, then swaps that trade
  standings gap against repeats; byes to the lowest ranked among those with fewest.
- ``round_robin``: fixed teams (``Constraints.fixed_teams``, or entrants taken in id
  order) meet every other team once, two a table, circle method; a bye team when odd.
- ``progressive``: winners of each table move up one table, the others down, partners
  split.

Byes (mixer, swiss, progressive): the fewest the legal sizes allow, never a second
before everyone has had one, so within one of each other. ``plan_schedule`` plans a
whole dry run (results drawn from the seed) and totals the reports.

A request the engine cannot plan raises ``SchedulingError`` naming the field.
"""

from tournaments.seating.core.dryrun import Schedule, draw_winners, plan_schedule
from tournaments.seating.core.formats import FORMATS
from tournaments.seating.core.planner import plan_round, report_round
from tournaments.seating.core.report import ScheduleReport
from tournaments.seating.core.sizes import fewest_byes, table_sizes
from tournaments.seating.core.types import (
    Constraints,
    EntrantId,
    Format,
    PlayedRound,
    RoundPlan,
    RoundReport,
    RoundRequest,
    SchedulingError,
    Sides,
    Table,
    TablePolicy,
    TableSplit,
    Weights,
)

__all__ = [
    "FORMATS",
    "Constraints",
    "EntrantId",
    "Format",
    "PlayedRound",
    "RoundPlan",
    "RoundReport",
    "RoundRequest",
    "Schedule",
    "ScheduleReport",
    "SchedulingError",
    "Sides",
    "Table",
    "TablePolicy",
    "TableSplit",
    "Weights",
    "draw_winners",
    "fewest_byes",
    "plan_round",
    "plan_schedule",
    "report_round",
    "table_sizes",
]
