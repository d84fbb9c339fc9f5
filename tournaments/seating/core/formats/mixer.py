"""Mixer: individuals meet as rarely as possible (and partner as rarely as possible in
partnership games).

Exact constructions where they exist (cyclic, finite-field cyclic, affine planes,
whist tournaments for partner rotation at 4, stored designs), followed to their end once
the event has followed them; the annealed whole schedule when the request asks to
search harder; otherwise a greedy fill plus swap search minimising sum of (times met)^2
plus weighted partner, keep-apart and standings terms. Always returns a legal round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from tournaments.seating.core import constructions, designs
from tournaments.seating.core.formats.base import (
    Seated,
    Seating,
    apart_pairs,
    blocks_of,
    fixed_units,
    make_units,
    sit_out,
)
from tournaments.seating.core.formats.lookahead import prefers_mixer, searched_schedule
from tournaments.seating.core.report import keep_apart_broken
from tournaments.seating.core.search import Coster, greedy_fill, swap_search
from tournaments.seating.core.seat_order import Split, seat_order, split_of
from tournaments.seating.core.types import (
    EntrantId,
    Table,
    TablePolicy,
)
from tournaments.seating.core.words import (
    AFFINE,
    ANNEALED,
    BEST_KNOWN,
    CYCLIC,
    GOLFER,
    GREEDY,
    GREEDY_SWAPS,
    KIRKMAN,
    WHIST,
    cyclic_gf,
)

Tables = list[tuple[int, ...]]


def plan(seating: Seating) -> Seated:
    """Byes to those with fewest (a whist tournament's own sitter while the event follows
    it), then the tables."""

    def sitter(sizes: Sequence[int], bye_count: int) -> EntrantId | None:
        return construction_bye(seating, sizes, bye_count)

    field = sit_out(seating, sitter=sitter)
    tables, method = seat(seating, field.seated, field.sizes)
    return Seated(tables=tables, byes=field.byes, method=method)


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
            return (WHIST, lambda r: constructions.whist_round(everyone, r), everyone)
        return None
    if everyone != count:
        return None
    golfer = (count, k) in designs.golfer_designs()
    golfer_rounds = designs.golfer_rounds(count, k) if golfer else []
    capacity = max(capacity, len(golfer_rounds))
    best_known = not sides and (count, k) in designs.best_known_designs()
    if best_known and round_index < len(stored := designs.best_known_rounds(count, k)):
        return (BEST_KNOWN, lambda r: list(stored[r]), len(stored))
    whist = partnership and count % 4 == 0 and count in constructions.whist_sizes()
    if whist and (rounds_planned is None or rounds_planned > capacity) and not short:
        return (WHIST, lambda r: constructions.whist_round(count, r), count - 1)
    if count % k:
        return None
    if not sides and k == 3 and count in designs.kirkman_sizes():
        stored = designs.kirkman_rounds(count)
        if round_index < len(stored):
            return (KIRKMAN, lambda r: list(stored[r]), len(stored))
    if round_index >= capacity:
        return None
    if golfer_rounds:
        return (GOLFER, lambda r: list(golfer_rounds[r]), capacity)
    name: str = AFFINE if k == m and constructions.prime_power(m) else CYCLIC
    if name == CYCLIC and constructions.prime_power(m):
        name = cyclic_gf(m)
    return (name, lambda r: constructions.cyclic_round(k, m, r), capacity)


def construction_bye(seating: Seating, sizes: Sequence[int], bye_count: int) -> EntrantId | None:
    """Who sits out this round when a whist tournament for 4m + 1 seats the others:
    the construction's own sitter, when the history has followed it and the sitter
    has had no more byes than anyone (so byes still go to those with fewest)."""
    request, ledger = seating.request, seating.ledger
    entrants = list(request.entrants)
    count = len(entrants)
    if (
        bye_count != 1
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
        prefers_mixer(request, seating.plan_round),
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


def seat(seating: Seating, seated: list[EntrantId], sizes: list[int]) -> tuple[list[Table], str]:
    """Seat ``seated`` at tables of ``sizes``: the best of the construction (kept while
    the history follows it), the annealed schedule and the greedy fill plus swaps."""
    request, ledger, rng = seating.request, seating.ledger, seating.rng
    policy, constraints = request.policy, request.constraints
    blocks = blocks_of(constraints)
    coster = Coster(ledger, policy, request.weights, apart_pairs(constraints), blocks=blocks)
    index = len(request.history)

    candidates: list[tuple[int, int, list[list[EntrantId]], str, list[Split | None]]] = []
    everyone = len(request.entrants)
    short = prefers_mixer(request, seating.plan_round)
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
                    split_of(t, policy.sides_at(len(t))) if name == WHIST else None for t in ordered
                ]
                cost = sum(coster.table(t) for t in ordered)
                tables = [list(t) for t in ordered]
                candidates.append((0 if follows else 1, cost, tables, name, splits))

    # A construction that covers the whole event is exact; otherwise the annealed whole
    # schedule (which began as this planner's own) replaces it.
    covered = found and exact and request.rounds_planned and found[2] >= request.rounds_planned
    searched = None if covered else searched_schedule(request, sizes, seated, seating.plan_round)
    if searched is not None:
        candidates = []
        follows = all(
            {frozenset(t) for t in played.tables} == {frozenset(t) for t in searched[i]}
            for i, played in enumerate(request.history)
        )
        tables = [list(t) for t in searched[index]]
        cost = sum(coster.table(t) for t in tables)
        candidates.append((0 if follows else 1, cost, tables, ANNEALED, [None] * len(tables)))

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
        method = GREEDY_SWAPS if request.effort else GREEDY
        candidates.append((1, cost, tables, method, [None] * len(tables)))

    candidates.sort(key=lambda c: (c[1], c[0]))
    _, _, tables, method, splits = candidates[0]
    seated_tables = [
        seat_order(t, policy.sides_at(len(t)), ledger, blocks, split=s)
        for t, s in zip(tables, splits, strict=True)
    ]
    return seated_tables, method
