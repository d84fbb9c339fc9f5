"""Plan one round: pick the byes and table sizes, seat by the requested format, report."""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations, groupby

from tournaments.seating.core import anneal, constructions, designs
from tournaments.seating.core.ledger import Ledger, pair
from tournaments.seating.core.report import (
    bye_spread,
    keep_apart_broken,
    round_lower_bound,
)
from tournaments.seating.core.search import Coster, Unit, greedy_fill, swap_search
from tournaments.seating.core.seat_order import Split, repeated, seat_order, split_of
from tournaments.seating.core.sizes import table_sizes
from tournaments.seating.core.types import (
    FORMATS,
    Constraints,
    EntrantId,
    PlayedRound,
    RoundPlan,
    RoundReport,
    RoundRequest,
    SchedulingError,
    Sides,
    Table,
    TablePolicy,
    Weights,
)

Tables = list[tuple[int, ...]]


# --------------------------------------------------------------------------- checks


def check_request(request: RoundRequest) -> None:
    """Raise SchedulingError naming the field for anything the engine cannot plan."""
    number = request.number
    if request.format not in FORMATS:
        raise SchedulingError(
            f"format must be one of {', '.join(FORMATS)}", field="format", round=number
        )
    entrants = list(request.entrants)
    if len(set(entrants)) != len(entrants):
        raise SchedulingError("an entrant is listed twice", field="entrants", round=number)
    for entrant, table in request.constraints.fixed_table.items():
        if table < 0:
            raise SchedulingError(
                f"entrant {entrant}: a fixed table must be 0 or more",
                field="fixed_table",
                round=number,
            )
    seen: set[EntrantId] = set()
    for team in request.constraints.fixed_teams:
        if len(team) < 1 or seen & set(team):
            raise SchedulingError(
                "fixed teams must be non-empty and must not share an entrant",
                field="fixed_teams",
                round=number,
            )
        seen |= set(team)
    for entrant, points in request.scores.items():
        if not isinstance(points, int | float) or not math.isfinite(points):
            raise SchedulingError(
                f"entrant {entrant}: points must be a finite number", field="scores", round=number
            )


# --------------------------------------------------------------------------- byes


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


# --------------------------------------------------------------------------- mixer


def _point_map(entrants: Sequence[EntrantId], seed: int) -> list[EntrantId]:
    points = sorted(entrants)
    random.Random(f"points:{seed}").shuffle(points)
    return points


def _construction(
    count: int,
    sizes: Sequence[int],
    policy: TablePolicy,
    round_index: int,
    rounds_planned: int | None = None,
    everyone: int | None = None,
    short: bool = False,
) -> tuple[str, Callable[[int], Tables], int] | None:
    """The exact construction for this field, if one exists: (name, round maker, rounds).

    ``count`` players are seated out of ``everyone`` (default: all of them). At
    partnership tables of 4 a whist rotation (partners once, opponents twice) is
    chosen unless the event is known to be short enough for a construction in which
    no two players meet twice, which is better on both counts for those rounds, or
    ``short`` (``partnership_choice`` found the mixer better for the planned rounds).
    With 4m + 1 players the whist tournament seats 4m of them a round, one sitting out.
    A stored social golfer schedule (32 at 4 for 10 rounds) beats the cyclic
    construction it outlasts; its first rounds serve a shorter event. Where no schedule
    without repeats exists (36 at tables of 6 for 4 rounds), the stored best known one
    is followed (its first rounds, for a shorter event, meet no pair twice).
    """
    everyone = count if everyone is None else everyone
    if not sizes or len(set(sizes)) != 1:
        return None
    k = sizes[0]
    sides = policy.sides_at(k)
    m = count // k
    capacity = constructions.cyclic_capacity(k, m) if count % k == 0 else 0
    partnership = k == 4 and sides == ((0, 2), (1, 3))
    if partnership and everyone % 4 == 1 and count == everyone - 1:
        known = everyone in constructions.whist_sizes() and round_index < everyone
        if known and (rounds_planned is None or rounds_planned > capacity) and not short:
            return ("whist", lambda r: constructions.whist_round(everyone, r), everyone)
        return None
    if everyone != count:
        return None
    golfer = (count, k) in designs.golfer_designs()
    golfer_rounds = designs.golfer_rounds(count, k) if golfer else []
    capacity = max(capacity, len(golfer_rounds))
    best_known = not sides and (count, k) in designs.best_known_designs()
    if best_known and round_index < len(stored := designs.best_known_rounds(count, k)):
        return ("best known schedule", lambda r: list(stored[r]), len(stored))
    whist = partnership and count % 4 == 0 and count in constructions.whist_sizes()
    if whist and (rounds_planned is None or rounds_planned > capacity) and not short:
        return ("whist", lambda r: constructions.whist_round(count, r), count - 1)
    if count % k:
        return None
    if not sides and k == 3 and count in designs.kirkman_sizes():
        stored = designs.kirkman_rounds(count)
        if round_index < len(stored):
            return ("Kirkman triple system", lambda r: list(stored[r]), len(stored))
    if round_index >= capacity:
        return None
    if golfer_rounds:
        return ("social golfer schedule", lambda r: list(golfer_rounds[r]), capacity)
    name = "affine plane" if k == m and constructions.prime_power(m) else "cyclic"
    if name == "cyclic" and constructions.prime_power(m):
        name = f"cyclic GF({m})"
    return (name, lambda r: constructions.cyclic_round(k, m, r), capacity)


def construction_bye(
    request: RoundRequest, sizes: Sequence[int], bye_count: int, ledger: Ledger
) -> EntrantId | None:
    """Who sits out this round when a whist tournament for 4m + 1 seats the others:
    the construction's own sitter, when the history has followed it and the sitter
    has had no more byes than anyone (so byes still go to those with fewest)."""
    entrants = list(request.entrants)
    count = len(entrants)
    if (
        request.format != "mixer"
        or bye_count != 1
        or not request.constructions
        or request.constraints.fixed_teams
        or count % 4 != 1
    ):
        return None
    index = len(request.history)
    found = _construction(
        count - 1,
        sizes,
        request.policy,
        index,
        request.rounds_planned,
        count,
        prefers_mixer(request),
    )
    if found is None:
        return None
    _, maker, _ = found
    points = _point_map(entrants, request.seed)
    if not _follows([p.tables for p in request.history], maker, points):
        return None
    sitter = constructions.whist_sitting_out(count, index)
    if sitter is None:
        return None
    chosen = points[sitter]
    fewest = min(ledger.byes.get(e, 0) for e in entrants)
    return chosen if ledger.byes.get(chosen, 0) == fewest else None


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


def _dry_run(request: RoundRequest, *, way: str) -> tuple[int, int]:
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
    mixer = _dry_run(request, way="mixer")
    whist = _dry_run(request, way="whist")
    return PartnershipChoice(
        rounds=request.rounds_planned or 0,
        mixer_pairs=mixer[0],
        mixer_partners=mixer[1],
        whist_pairs=whist[0],
        whist_partners=whist[1],
        partner_weight=max(request.weights.partner, 1),
    )


def partnership_choice(request: RoundRequest) -> PartnershipChoice | None:
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
    return _choice(entrants, policy_key, request.weights, request.seed, request.effort, planned)


def prefers_mixer(request: RoundRequest) -> bool:
    ahead = _PLANNING_AHEAD.get()
    if ahead is not None:
        return ahead == "mixer"
    choice = partnership_choice(request)
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
    request: RoundRequest, sizes: Sequence[int], seated: Sequence[EntrantId]
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
        entrants, sizes[0], request.seed, request.effort, planned, request.search_steps
    )


def _follows(
    history_tables: Sequence[Sequence[Table]],
    maker: Callable[[int], Tables],
    points: Sequence[EntrantId],
) -> bool:
    for index, tables in enumerate(history_tables):
        wanted = {frozenset(points[p] for p in t) for t in maker(index)}
        if {frozenset(t) for t in tables} != wanted:
            return False
    return True


def _order_for_fixed(tables: Tables, fixed_table: Mapping[EntrantId, int]) -> Tables | None:
    """Reorder whole tables so that entrants with a fixed table sit there, or None."""
    if not fixed_table:
        return tables
    slots: list[tuple[int, ...] | None] = [None] * len(tables)
    rest: Tables = []
    for table in tables:
        wanted = {fixed_table[e] for e in table if e in fixed_table}
        if len(wanted) > 1:
            return None
        if wanted:
            index = wanted.pop()
            if index >= len(tables) or slots[index] is not None:
                return None
            slots[index] = table
        else:
            rest.append(table)
    for i in range(len(slots)):
        if slots[i] is None:
            slots[i] = rest.pop(0)
    return [t for t in slots if t is not None]


def _mixer(
    request: RoundRequest,
    seated: list[EntrantId],
    sizes: list[int],
    ledger: Ledger,
    rng: random.Random,
) -> tuple[list[Table], str]:
    policy, constraints = request.policy, request.constraints
    blocks = blocks_of(constraints)
    coster = Coster(ledger, policy, request.weights, apart_pairs(constraints), blocks=blocks)
    index = len(request.history)

    candidates: list[tuple[int, int, list[list[EntrantId]], str, list[Split | None]]] = []
    everyone = len(request.entrants)
    short = prefers_mixer(request)
    found = _construction(
        len(seated), sizes, policy, index, request.rounds_planned, everyone, short
    )
    exact = found and request.constructions and not constraints.fixed_teams
    if found and exact:
        name, maker, rounds = found
        if index < rounds:
            points = _point_map(sorted(request.entrants), request.seed)
            raw = [tuple(points[p] for p in table) for table in maker(index)]
            ordered = _order_for_fixed(raw, constraints.fixed_table)
            if {e for t in raw for e in t} != set(seated):
                ordered = None  # the construction's sitter is not this round's bye
            if ordered is not None:
                follows = not keep_apart_broken(ordered, constraints.keep_apart) and _follows(
                    [p.tables for p in request.history], maker, points
                )
                splits: list[Split | None] = [
                    split_of(t, policy.sides_at(len(t))) if name == "whist" else None
                    for t in ordered
                ]
                cost = sum(coster.table(t) for t in ordered)
                tables = [list(t) for t in ordered]
                candidates.append((0 if follows else 1, cost, tables, name, splits))

    # A construction that covers the whole event is exact; otherwise the annealed whole
    # schedule (which began as this planner's own) replaces it.
    covered = found and exact and request.rounds_planned and found[2] >= request.rounds_planned
    searched = None if covered else searched_schedule(request, sizes, seated)
    if searched is not None:
        candidates = []
        follows = all(
            {frozenset(t) for t in played.tables} == {frozenset(t) for t in searched[i]}
            for i, played in enumerate(request.history)
        )
        tables = [list(t) for t in searched[index]]
        cost = sum(coster.table(t) for t in tables)
        candidates.append((0 if follows else 1, cost, tables, "annealed", [None] * len(tables)))

    # A construction the history has followed so far is kept to its end (a whist
    # tournament repeats table-mates by design, and pays it back in partners).
    if not candidates or candidates[0][0] != 0:
        units = make_units(seated, constraints)
        rng.shuffle(units)
        # Entrants who have met the most go first, while the most choice is left.
        units.sort(key=lambda u: -sum(len(ledger.neighbours.get(m, ())) for m in u))
        fixed = fixed_units(units, constraints)
        filled = greedy_fill(units, sizes, coster, fixed)
        fixed_set = {units[i] for i in fixed}
        steps = request.effort * (3000 + 40 * len(seated))
        filled = swap_search(filled, coster, lambda u: u not in fixed_set, rng, steps=steps)
        tables = [[m for u in table for m in u] for table in filled]
        cost = sum(coster.table(t) for t in tables)
        method = "greedy + swaps" if request.effort else "greedy"
        candidates.append((1, cost, tables, method, [None] * len(tables)))

    candidates.sort(key=lambda c: (c[1], c[0]))
    _, _, tables, method, splits = candidates[0]
    seated_tables = [
        seat_order(t, policy.sides_at(len(t)), ledger, blocks, split=s)
        for t, s in zip(tables, splits, strict=True)
    ]
    return seated_tables, method


# --------------------------------------------------------------------------- swiss


def ranks_of(request: RoundRequest) -> dict[EntrantId, int]:
    ranks: dict[EntrantId, int] = {}
    for entrant in request.standings:
        if entrant not in ranks:
            ranks[entrant] = len(ranks)
    for entrant in sorted(request.entrants):
        if entrant not in ranks:
            ranks[entrant] = len(ranks)
    return ranks


def wins_of(history: Sequence[PlayedRound]) -> Counter[EntrantId]:
    """Each entrant's score for swiss pairing: tables won so far."""
    return Counter(e for played in history for e in played.winners)


def order_sizes_by_groups(groups: Sequence[int], sizes: Sequence[int]) -> list[int]:
    """The order of the table sizes (top table first) that, sliced from the top of the
    standings, moves the fewest players out of their score group (``groups``: the
    group sizes, best first). A player is moved when a table seats them with a larger
    group than their own."""
    total = sum(groups)
    group_of: list[int] = [g for g, size in enumerate(groups) for _ in range(size)]
    kinds = sorted(set(sizes), reverse=True)
    counts = tuple(sizes.count(k) for k in kinds)
    states = 1
    for count in counts:
        states *= count + 1
    if len(kinds) == 1 or states > 200_000 or len(sizes) > 400 or total != sum(sizes):
        return sorted(sizes, reverse=True)

    def moved(start: int, size: int) -> int:
        seen = Counter(group_of[start : start + size])
        return size - max(seen.values())

    best: dict[tuple[int, ...], tuple[int, int]] = {}

    def solve(left: tuple[int, ...]) -> int:
        if not any(left):
            return 0
        if left in best:
            return best[left][0]
        start = total - sum(c * k for c, k in zip(left, kinds, strict=True))
        choice = (-1, -1)
        for index, kind in enumerate(kinds):
            if left[index]:
                rest = (*left[:index], left[index] - 1, *left[index + 1 :])
                cost = moved(start, kind) + solve(rest)
                if choice[0] < 0 or cost < choice[0]:
                    choice = (cost, index)
        best[left] = choice
        return choice[0]

    solve(counts)
    order: list[int] = []
    left = counts
    while any(left):
        index = best[left][1]
        order.append(kinds[index])
        left = (*left[:index], left[index] - 1, *left[index + 1 :])
    return order


def swiss_scores(request: RoundRequest) -> dict[EntrantId, float]:
    """What swiss groups by: the standings' points when given, else tables won so far
    (with neither, everyone is level: tables are cut from the standings order and any
    swap against a repeat is free)."""
    if request.scores:
        return {e: float(request.scores.get(e, 0.0)) for e in request.entrants}
    wins = wins_of(request.history)
    return {e: float(wins.get(e, 0)) for e in request.entrants}


SWISS_REACH = 30  # tables either side a repair may reach in a field of many tables
SWISS_PASSES = 50


def _swiss_search(
    tables: list[list[Unit]],
    coster: Coster,
    points: Mapping[EntrantId, float],
    movable: Callable[[Unit], bool],
) -> list[list[Unit]]:
    """Swaps of equal-sized units between tables against repeats and repeated partners,
    taking only a swap that widens no spread of points: the sum over the two tables of
    (most points - fewest points) stays or falls, so the tables are never looser than
    the sort and cut they start from. A pair kept apart is parted whatever the spread,
    at the least widening. Each table with a conflict takes the best swap within
    ``SWISS_REACH`` tables (tables are in standings order), pass after pass while any
    helps. Deterministic."""
    count = len(tables)
    apart = coster.apart

    def spread(members: Sequence[EntrantId]) -> float:
        values = [points[m] for m in members]
        return max(values) - min(values) if values else 0.0

    def parted(members: Sequence[EntrantId]) -> int:
        """Pairs kept apart that sit together here."""
        if not apart:
            return 0
        return sum(1 for a, b in combinations(members, 2) if pair(a, b) in apart)

    def weigh(members: Sequence[EntrantId]) -> tuple[int, int, float]:
        """(pairs kept apart together, other conflicts, spread of points)."""
        broken = parted(members)
        soft = coster.conflicts(members) - coster.weights.keep_apart * broken
        return broken, soft, spread(members)

    members = [[m for u in table for m in u] for table in tables]
    weights = [weigh(ms) for ms in members]

    def best_swap(a: int, b: int) -> tuple[tuple[float, float, float], int, int] | None:
        """The best swap between tables a and b that parts a pair kept apart, or removes
        a conflict widening nothing; None if there is none."""
        found = None
        for ia, unit_a in enumerate(tables[a]):
            if not movable(unit_a):
                continue
            for ib, unit_b in enumerate(tables[b]):
                if len(unit_b) != len(unit_a) or not movable(unit_b):
                    continue
                new_a = weigh([m for m in members[a] if m not in unit_a] + list(unit_b))
                new_b = weigh([m for m in members[b] if m not in unit_b] + list(unit_a))
                hard, soft, wider = (
                    new_a[i] + new_b[i] - weights[a][i] - weights[b][i] for i in range(3)
                )
                wider = round(wider, 9)
                if hard < 0:
                    key = (float(hard), wider, float(soft))
                elif hard == 0 and soft < 0 and wider <= 0:
                    key = (0.0, float(soft), wider)
                else:
                    continue
                if found is None or key < found[0]:
                    found = (key, ia, ib)
        return found

    def apply(a: int, b: int, ia: int, ib: int) -> None:
        unit_a, unit_b = tables[a][ia], tables[b][ib]
        tables[a][ia], tables[b][ib] = unit_b, unit_a
        members[a] = [m for m in members[a] if m not in unit_a] + list(unit_b)
        members[b] = [m for m in members[b] if m not in unit_b] + list(unit_a)
        weights[a], weights[b] = weigh(members[a]), weigh(members[b])

    for _ in range(SWISS_PASSES):
        improved = False
        for a in range(count):
            if not (weights[a][0] or weights[a][1]):
                continue
            near = range(max(0, a - SWISS_REACH), min(count, a + SWISS_REACH + 1))
            options = [(found, b) for b in near if b != a if (found := best_swap(a, b))]
            if options:
                found, b = min(options, key=lambda option: (option[0][0], option[1]))
                apply(a, b, found[1], found[2])
                improved = True
        if not improved:
            break
    return tables


def _swiss(
    request: RoundRequest,
    seated: list[EntrantId],
    sizes: list[int],
    ledger: Ledger,
    ranks: Mapping[EntrantId, int],
) -> tuple[list[Table], str]:
    """Score groups (``swiss_scores``), best first, each in standings order; tables
    sliced from the top with the table sizes ordered to move the fewest players out of
    their group (sort and cut); then swaps against repeats that widen no table's
    spread of points (``_swiss_search``)."""
    policy, constraints = request.policy, request.constraints
    w = request.weights
    weights = Weights(meet=max(w.meet, 1), partner=w.partner, seat=w.seat, keep_apart=w.keep_apart)
    blocks = blocks_of(constraints)
    coster = Coster(ledger, policy, weights, apart_pairs(constraints), blocks=blocks)
    points = swiss_scores(request)
    units = make_units(seated, constraints)

    def score(unit: Unit) -> float:
        return max(points[m] for m in unit)

    units.sort(key=lambda u: (-score(u), min(ranks[m] for m in u)))
    groups = [
        len(list(members)) for _, members in groupby(m for u in units for m in [score(u)] * len(u))
    ]
    order = order_sizes_by_groups(groups, sizes)
    fixed = fixed_units(units, constraints)
    filled = greedy_fill(units, order, coster, fixed, window=1)
    fixed_set = {units[i] for i in fixed}
    unit_points = {m: score(u) for u in units for m in u}
    filled = _swiss_search(filled, coster, unit_points, lambda unit: unit not in fixed_set)
    tables = [
        seat_order([m for u in t for m in u], policy.sides_at(sum(map(len, t))), ledger, blocks)
        for t in filled
    ]
    return tables, "swiss: score groups top down + swaps against repeats, no spread widened"


# --------------------------------------------------------------------------- round robin


def _round_robin(
    request: RoundRequest, ledger: Ledger
) -> tuple[list[Table], list[EntrantId], str, list[tuple[EntrantId, ...]]]:
    """Circle method over fixed teams, two teams a table; a bye team when odd."""
    policy, constraints = request.policy, request.constraints
    size = policy.preferred
    if size % 2:
        raise SchedulingError(
            f"round_robin seats two teams a table: table size {size} is odd",
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
                f"round_robin at tables of {size} needs teams of {team_size}; "
                f"team {list(team)} has {len(team)}",
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
    return tables, byes, "round robin: circle method", teams


# --------------------------------------------------------------------------- progressive


def _progressive(
    request: RoundRequest,
    seated: list[EntrantId],
    sizes: list[int],
    ledger: Ledger,
    rng: random.Random,
) -> tuple[list[Table], str]:
    """Winners of a table move up one table, the others down; partners are split."""
    if not request.history or not request.history[-1].tables:
        mixed, _ = _mixer(request, seated, sizes, ledger, rng)
        return mixed, "progressive: first round mixed"
    last = request.history[-1]
    bottom = len(last.tables) - 1
    target: dict[EntrantId, tuple[int, int]] = {}
    for index, table in enumerate(last.tables):
        for entrant in table:
            if entrant in last.winners:
                target[entrant] = (max(index - 1, 0), 0)
            else:
                target[entrant] = (min(index + 1, bottom), 1)
    tiebreak = {e: rng.random() for e in sorted(seated)}
    order = sorted(seated, key=lambda e: (*target.get(e, (bottom + 1, 2)), tiebreak[e]))
    tables: list[Table] = []
    start = 0
    blocks = blocks_of(request.constraints)
    for size in sizes:
        members = order[start : start + size]
        start += size
        tables.append(seat_order(members, request.policy.sides_at(size), ledger, blocks))
    return tables, "progressive: winners up, others down"


# --------------------------------------------------------------------------- the round


def plan_round(request: RoundRequest) -> RoundPlan:
    """Seat one round. See the package documentation for the contract."""
    started = time.perf_counter()
    check_request(request)
    policy = request.policy
    ledger = Ledger.of(request.history, policy)
    rng = random.Random(f"{request.seed}:{request.format}:{request.number}")
    entrants = list(request.entrants)
    ranks = ranks_of(request)

    if request.format == "round_robin":
        tables, byes, method, teams = _round_robin(request, ledger)
        sizes = [len(t) for t in tables]
    else:
        teams = []
        sizes, bye_count = table_sizes(len(entrants), policy)
        draw = {e: rng.random() for e in sorted(entrants)}
        if request.format == "swiss":
            preference: Callable[[EntrantId], object] = lambda e: -ranks[e]  # noqa: E731
        else:
            preference = draw.__getitem__
        sitter = construction_bye(request, sizes, bye_count, ledger)
        if sitter is not None:
            byes = [sitter]
        else:
            byes = choose_byes(entrants, bye_count, ledger, request.constraints, preference)
        bye_set = set(byes)
        seated = [e for e in sorted(entrants) if e not in bye_set]
        if request.format == "mixer":
            tables, method = _mixer(request, seated, sizes, ledger, rng)
        elif request.format == "swiss":
            tables, method = _swiss(request, seated, sizes, ledger, ranks)
        else:
            tables, method = _progressive(request, seated, sizes, ledger, rng)

    report = report_round(
        request,
        tables,
        byes,
        method=method,
        started=started,
        teams=teams,
        entrants=entrants,
    )
    return RoundPlan(tables=tuple(tables), byes=tuple(sorted(byes)), report=report)


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
    )
