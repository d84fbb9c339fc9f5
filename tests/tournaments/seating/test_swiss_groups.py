"""Swiss for tables of k by score groups: top down, fewest moved, repeats avoided within."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating.core import PlayedRound, RoundRequest, TablePolicy, plan_round
from tournaments.seating.core.planner import order_sizes_by_groups
from tournaments.seating.core.report import points_gap

FOURS = TablePolicy((4,), 4)


def moved(groups: list[int], order: list[int]) -> int:
    group_of = [g for g, size in enumerate(groups) for _ in range(size)]
    start = total = 0
    for size in order:
        seen = Counter(group_of[start : start + size])
        total += size - max(seen.values())
        start += size
    return total


def test_round_two_of_twenty_four_keeps_every_table_in_one_score_group():
    first = tuple(tuple(range(t * 4, t * 4 + 4)) for t in range(6))
    winners = frozenset(e for table in first for e in table[:2])  # half of each table won
    history = (PlayedRound(tables=first, winners=winners),)
    standings = sorted(range(24), key=lambda e: (e not in winners, e))
    plan = plan_round(
        RoundRequest(
            entrants=tuple(range(24)),
            policy=FOURS,
            format="swiss",
            history=history,
            standings=tuple(standings),
        )
    )
    points = {e: 1 if e in winners else 0 for e in range(24)}
    assert points_gap(plan.tables, points) == 0
    # Twelve winners at three tables from six first-round tables: repeats are avoidable.
    assert plan.report.repeated_pairs == plan.report.lower_bound == 0


def test_mixed_table_sizes_are_ordered_to_fit_the_score_groups():
    assert moved([7, 7], order_sizes_by_groups([7, 7], [4, 4, 3, 3])) == 0
    assert moved([7, 7], [4, 4, 3, 3]) > 0


@settings(max_examples=60, deadline=None)
@given(
    groups=st.lists(st.integers(1, 6), min_size=1, max_size=5),
    threes=st.integers(0, 4),
)
def test_no_order_of_the_table_sizes_moves_fewer_players(groups, threes):
    total = sum(groups)
    fours = (total - 3 * threes) // 4
    if fours < 0 or 4 * fours + 3 * threes != total:
        return
    sizes = [4] * fours + [3] * threes
    chosen = order_sizes_by_groups(groups, sizes)
    assert sorted(chosen) == sorted(sizes)
    best = min(moved(groups, list(order)) for order in set(permutations(sizes)))
    assert moved(groups, chosen) == best
