"""36 players at tables of 6: no 4 rounds without a repeat exist (no pair of orthogonal
Latin squares of order 6), so the bound says at least 1, and the stored best known
schedule (2 repeats, both in round 4) is what the planner seats by default."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating.core import (
    PlayedRound,
    RoundRequest,
    TablePolicy,
    designs,
    plan_round,
    plan_schedule,
)
from tournaments.seating.core.report import schedule_lower_bound

SIXES = TablePolicy((6,), 6)
SEVENS = TablePolicy((7,), 7)


def pairs(tables):
    return [frozenset(p) for table in tables for p in combinations(table, 2)]


def repeats(rounds) -> int:
    met: Counter[frozenset[int]] = Counter()
    total = 0
    for tables in rounds:
        for pair in pairs(tables):
            total += met[pair] > 0
            met[pair] += 1
    return total


def latin_rounds(order: int, rows, columns, symbols) -> list[tuple[tuple[int, ...], ...]]:
    """Rows, columns and symbols of an isotope of the cyclic Latin square of ``order``,
    the cells numbered row * order + column: three rounds meeting no pair twice."""
    cells = [(r, c, (rows[r] + columns[c]) % order) for r in range(order) for c in range(order)]
    rounds = []
    for part in range(3):
        groups: dict[int, list[int]] = {}
        for r, c, s in cells:
            key = (r, c, symbols[s])[part]
            groups.setdefault(key, []).append(r * order + c)
        rounds.append(tuple(tuple(groups[key]) for key in sorted(groups)))
    return rounds


def test_the_stored_schedule_seats_everyone_and_repeats_two_pairs_all_in_round_four():
    assert (36, 6) in designs.best_known_designs()
    rounds = designs.best_known_rounds(36, 6)
    assert len(rounds) == 4
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(36))
        assert [len(t) for t in tables] == [6] * 6
    assert repeats(rounds[:3]) == 0
    assert repeats(rounds) == designs.best_known_repeats(36, 6) == 2


@pytest.mark.parametrize("rounds", [3, 4])
def test_the_planner_seats_the_best_known_schedule_by_default(rounds):
    entrants = list(range(100, 136))
    schedule = plan_schedule(entrants, SIXES, rounds, seed=5)
    seated = [[tuple(t) for t in plan.tables] for plan in schedule.rounds]
    assert schedule.report.repeated_pairs == repeats(seated) == (2 if rounds == 4 else 0)
    assert schedule.report.lower_bound == (1 if rounds == 4 else 0)
    assert {plan.report.method for plan in schedule.rounds} == {"best known schedule"}
    assert [plan.report.repeated_pairs for plan in schedule.rounds][:3] == [0, 0, 0]


def test_the_schedule_bound_counts_one_repeat_in_every_four_full_rounds():
    assert schedule_lower_bound(36, [[6] * 6] * 3) == 0
    assert schedule_lower_bound(36, [[6] * 6] * 4) == 1
    assert schedule_lower_bound(36, [[6] * 6] * 7) == 1  # 630 meetings: every pair once
    assert schedule_lower_bound(36, [[6] * 6] * 8) == 8 * 6 * 15 - 630  # the count bound
    # 49 at tables of 7: an affine plane of order 7 seats 8 rounds with no repeat.
    assert schedule_lower_bound(49, [[7] * 7] * 8) == 0
    # 36 at tables of 6 with one sitting out is no net: the bound does not apply.
    assert schedule_lower_bound(36, [[6] * 5 + [5]] * 4) == 0


permutations6 = st.permutations(list(range(6)))


@settings(max_examples=25, deadline=None)
@given(rows=permutations6, columns=permutations6, symbols=permutations6, seed=st.integers(0, 99))
def test_after_three_rounds_of_a_latin_square_a_fourth_round_must_repeat(
    rows, columns, symbols, seed
):
    history = latin_rounds(6, rows, columns, symbols)
    assert repeats(history) == 0
    plan = plan_round(
        RoundRequest(
            entrants=tuple(range(36)),
            policy=SIXES,
            history=tuple(PlayedRound(tables=tables) for tables in history),
            seed=seed,
        )
    )
    assert plan.report.lower_bound == 1
    assert plan.report.repeated_pairs >= 1
    assert repeats([*history, plan.tables]) == plan.report.repeated_pairs


@settings(max_examples=10, deadline=None)
@given(rows=st.permutations(list(range(7))), seed=st.integers(0, 99))
def test_an_affine_plane_order_keeps_the_fourth_round_bound_at_zero(rows, seed):
    identity = list(range(7))
    history = latin_rounds(7, rows, identity, identity)
    plan = plan_round(
        RoundRequest(
            entrants=tuple(range(49)),
            policy=SEVENS,
            history=tuple(PlayedRound(tables=tables) for tables in history),
            seed=seed,
        )
    )
    assert plan.report.lower_bound == 0
