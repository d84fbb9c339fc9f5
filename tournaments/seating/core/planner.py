"""Plan one round: check the request, seat it by its format (``formats.FORMATS``), report."""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence

from common.phrases import N_
from tournaments.seating.core.formats import FORMATS, Seating
from tournaments.seating.core.formats.base import apart_pairs
from tournaments.seating.core.formats.lookahead import PartnershipChoice
from tournaments.seating.core.formats.lookahead import (
    partnership_choice as partnership_choice_with,
)
from tournaments.seating.core.formats.swiss import order_sizes_by_groups
from tournaments.seating.core.ledger import Ledger, pair
from tournaments.seating.core.report import (
    bye_spread,
    keep_apart_broken,
    round_lower_bound,
)
from tournaments.seating.core.search import Coster
from tournaments.seating.core.seat_order import repeated
from tournaments.seating.core.sizes import split_sentence, table_split
from tournaments.seating.core.types import (
    EntrantId,
    RoundPlan,
    RoundReport,
    RoundRequest,
    SchedulingError,
)

__all__ = [
    "PartnershipChoice",
    "check_request",
    "order_sizes_by_groups",
    "partnership_choice",
    "plan_round",
    "report_round",
]


# --------------------------------------------------------------------------- checks


def check_request(request: RoundRequest) -> None:
    """Raise SchedulingError naming the field for anything the engine cannot plan."""
    number = request.number
    if request.format not in FORMATS:
        raise SchedulingError(
            N_("format must be one of {formats}"),
            {"formats": ", ".join(FORMATS)},
            field="format",
            round=number,
        )
    entrants = list(request.entrants)
    if len(set(entrants)) != len(entrants):
        raise SchedulingError(N_("an entrant is listed twice"), field="entrants", round=number)
    for entrant, table in request.constraints.fixed_table.items():
        if table < 0:
            raise SchedulingError(
                N_("entrant {entrant}: a fixed table must be 0 or more"),
                {"entrant": entrant},
                field="fixed_table",
                round=number,
            )
    seen: set[EntrantId] = set()
    for team in request.constraints.fixed_teams:
        if len(team) < 1 or seen & set(team):
            raise SchedulingError(
                N_("fixed teams must be non-empty and must not share an entrant"),
                field="fixed_teams",
                round=number,
            )
        seen |= set(team)
    for entrant, points in request.scores.items():
        if not isinstance(points, int | float) or not math.isfinite(points):
            raise SchedulingError(
                N_("entrant {entrant}: points must be a finite number"),
                {"entrant": entrant},
                field="scores",
                round=number,
            )


# --------------------------------------------------------------------------- the round


def plan_round(request: RoundRequest) -> RoundPlan:
    """Seat one round. See the package documentation for the contract."""
    started = time.perf_counter()
    check_request(request)
    ledger = Ledger.of(request.history, request.policy)
    rng = random.Random(f"{request.seed}:{request.format}:{request.number}")
    seated = FORMATS[request.format](Seating(request, ledger, rng, plan_round))
    report = report_round(
        request,
        seated.tables,
        seated.byes,
        method=seated.method,
        started=started,
        teams=seated.teams,
        entrants=list(request.entrants),
    )
    return RoundPlan(tables=tuple(seated.tables), byes=tuple(sorted(seated.byes)), report=report)


def partnership_choice(request: RoundRequest) -> PartnershipChoice | None:
    """The mixer and the whist rotation compared for this event (the director's report),
    or None when the event is not a fresh partnership field of known, short length."""
    return partnership_choice_with(request, plan_round)


def report_round(
    request: RoundRequest,
    tables: Sequence[Sequence[EntrantId]],
    byes: Iterable[EntrantId],
    *,
    method: str,
    started: float | None = None,
    teams: Sequence[Sequence[EntrantId]] = (),
    entrants: Sequence[EntrantId] | None = None,
) -> RoundReport:
    """The quality report of a seating for ``request``: the planner's own, or one a
    director changed by hand. ``teams``: pairs kept together this round besides the
    fixed teams (they are not counted as repeats); ``started``: when planning began."""
    started = time.perf_counter() if started is None else started
    policy = request.policy
    ledger = Ledger.of(request.history, policy)
    byes = list(byes)
    seatings = [tuple(t) for t in tables]
    teammates = {
        pair(a, b)
        for team in (*request.constraints.fixed_teams, *teams)
        for i, a in enumerate(team)
        for b in team[i + 1 :]
    }
    pairs = partners = 0
    for table in seatings:
        p, q = repeated(table, policy.sides_at(len(table)), ledger, teammates)
        pairs += p
        partners += q
    seated = [e for t in seatings for e in t]
    bound = round_lower_bound(seated, [len(t) for t in seatings], request.history, ledger)
    coster = Coster(ledger, policy, request.weights, apart_pairs(request.constraints))
    after = Ledger(byes=Counter(ledger.byes))
    for entrant in byes:
        after.byes[entrant] += 1
    split = table_split(len(seated) + len(byes), [len(t) for t in seatings], len(byes), policy)
    return RoundReport(
        round=request.number,
        repeated_pairs=pairs,
        repeated_partners=partners,
        lower_bound=bound,
        bye_spread=bye_spread([*seated, *byes] if entrants is None else entrants, after),
        keep_apart_broken=keep_apart_broken(seatings, request.constraints.keep_apart),
        cost=sum(coster.table(t) for t in seatings),
        seconds=time.perf_counter() - started,
        method=method,
        sizes=split_sentence(split),
        split=split,
    )
