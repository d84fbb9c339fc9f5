"""Stored and built designs checked pair by pair, and the planner following them."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.seating.core import TablePolicy, constructions, designs, plan_schedule

PARTNERS_AT_4 = TablePolicy(legal_sizes=(4,), preferred=4, sides={4: ((0, 2), (1, 3))})
TRIPLES = TablePolicy(legal_sizes=(3,), preferred=3)


def pairs(tables):
    return [frozenset(p) for table in tables for p in combinations(table, 2)]


@pytest.mark.parametrize("v", designs.kirkman_sizes())
def test_every_stored_kirkman_system_seats_every_pair_exactly_once(v):
    rounds = designs.kirkman_rounds(v)
    assert len(rounds) == (v - 1) // 2
    met: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(v))
        assert {len(t) for t in tables} == {3}
        met.update(pairs(tables))
    assert set(met) == {frozenset(p) for p in combinations(range(v), 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("n", constructions.whist_sizes())
def test_every_whist_tournament_partners_once_and_opposes_twice(n):
    count = constructions.whist_round_count(n)
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    sat_out: Counter[int] = Counter()
    for r in range(count):
        tables = constructions.whist_round(n, r)
        seated = [p for t in tables for p in t]
        sitter = constructions.whist_sitting_out(n, r)
        expected = [p for p in range(n) if p != sitter]
        assert sorted(seated) == expected, f"round {r + 1} seats everyone but the sitter once"
        if sitter is not None:
            sat_out[sitter] += 1
        for a, b, c, d in tables:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset(p) for p in ((a, b), (a, d), (c, b), (c, d)))
    every_pair = {frozenset(p) for p in combinations(range(n), 2)}
    assert set(partners) == every_pair and set(partners.values()) == {1}
    assert set(opponents) == every_pair and set(opponents.values()) == {2}
    if n % 4 == 1:
        assert sat_out == Counter(range(n))


@pytest.mark.parametrize("p", [5, 13, 17, 29, 37, 41, 53, 61])
def test_primes_of_the_form_four_m_plus_one_build_their_first_round(p):
    assert constructions.prime_whist_first_round(p) is not None


@pytest.mark.parametrize("p", [7, 9, 15, 21, 23])
def test_other_numbers_build_no_first_round(p):
    assert constructions.prime_whist_first_round(p) is None


@pytest.mark.parametrize(("players", "rounds"), [(15, 7), (21, 10)])
def test_kirkman_systems_seat_threes_without_meeting_twice(players, rounds):
    """Kirkman's schoolgirls walk seven days, and 21 at tables of 3 play ten rounds."""
    schedule = plan_schedule(list(range(100, 100 + players)), TRIPLES, rounds, seed=5)
    assert schedule.report.repeated_pairs == 0
    assert schedule.report.most_met == 1
    assert {plan.report.method for plan in schedule.rounds} == {"Kirkman triple system"}


@pytest.mark.parametrize("n", [9, 13, 45])
def test_whist_for_four_m_plus_one_sits_each_player_out_once(n):
    entrants = list(range(1, n + 1))
    schedule = plan_schedule(entrants, PARTNERS_AT_4, n, seed=2)
    byes = Counter(e for plan in schedule.rounds for e in plan.byes)
    assert byes == Counter(entrants)
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for plan in schedule.rounds:
        for a, b, c, d in plan.tables:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset(p) for p in ((a, b), (a, d), (c, b), (c, d)))
    every_pair = {frozenset(p) for p in combinations(entrants, 2)}
    assert set(partners) == every_pair and set(partners.values()) == {1}
    assert set(opponents) == every_pair and set(opponents.values()) == {2}


@pytest.mark.parametrize(("n", "k"), designs.golfer_designs())
def test_every_stored_social_golfer_schedule_meets_no_pair_twice(n, k):
    rounds = designs.golfer_rounds(n, k)
    met: Counter[frozenset[int]] = Counter()
    for r, tables in enumerate(rounds):
        seated = sorted(p for t in tables for p in t)
        assert seated == list(range(n)), f"round {r + 1} seats everyone once"
        assert {len(t) for t in tables} == {k}
        met.update(pairs(tables))
    assert set(met.values()) == {1}
    # Each player meets k - 1 others a round, so no schedule lasts longer than this.
    assert len(rounds) == (n - 1) // (k - 1)


def test_the_social_golfer_8_4_10_outlasts_the_cyclic_construction():
    assert len(designs.golfer_rounds(32, 4)) > constructions.cyclic_capacity(4, 8)


FOURS = TablePolicy(legal_sizes=(4,), preferred=4)


@pytest.mark.parametrize("rounds", [1, 9, 10])
@pytest.mark.parametrize("policy", [FOURS, PARTNERS_AT_4])
def test_thirty_two_at_four_play_up_to_ten_rounds_without_meeting_twice(rounds, policy):
    entrants = list(range(500, 532))
    schedule = plan_schedule(entrants, policy, rounds, seed=7)
    assert len(schedule.rounds) == rounds
    assert schedule.report.repeated_pairs == 0
    met: Counter[frozenset[int]] = Counter()
    for plan in schedule.rounds:
        assert sorted(e for t in plan.tables for e in t) == entrants
        met.update(pairs(plan.tables))
    assert set(met.values()) == {1}
    assert {plan.report.method for plan in schedule.rounds} == {"social golfer schedule"}


@pytest.mark.parametrize(("q", "group"), [(25, (5, 5)), (49, (7, 7)), (81, (3, 3, 3, 3))])
def test_prime_powers_of_the_form_four_m_plus_one_build_on_their_field(q, group):
    assert constructions.field_whist_first_round(q) is not None
    found = constructions.whist_design(q)
    assert found is not None and found[0] == group
    assert q in constructions.whist_sizes()


@pytest.mark.parametrize("q", [7, 15, 27, 45])
def test_other_sizes_build_nothing_on_a_field(q):
    assert constructions.field_whist_first_round(q) is None


@pytest.mark.parametrize(
    ("n", "group"),
    [
        (45, (3, 3, 5)),
        (48, (47,)),
        (52, (51,)),
        (56, (55,)),
        (57, (57,)),
        (60, (59,)),
        (64, (7, 3, 3)),
    ],
)
def test_whist_tournaments_up_to_sixty_four_are_stored_on_their_group(n, group):
    found = constructions.whist_design(n)
    assert found is not None and found[0] == group
    size = 1
    for modulus in group:
        size *= modulus
    assert size == (n - 1 if n % 4 == 0 else n)
    seated = sorted(p for table in found[1] for p in table)
    assert seated == ([-1, *range(size)] if n % 4 == 0 else list(range(1, size)))
