"""Every exact construction verified pair by pair: nobody meets twice, whist partners once."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.seating.core import constructions
from tournaments.seating.core.constructions import (
    affine_plane,
    cyclic_capacity,
    cyclic_rounds,
    field_tables,
    prime_power,
    whist_rounds,
)


def meetings(rounds: list[list[tuple[int, ...]]], players: int) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        seated = sorted(p for t in tables for p in t)
        assert seated == list(range(players)), "every point seated exactly once a round"
        for table in tables:
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] += 1
    return met


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9])
def test_finite_fields_are_fields(q):
    add, mul = field_tables(q)
    for a in range(q):
        assert sorted(add[a]) == list(range(q))
        if a:
            assert sorted(mul[a]) == list(range(q)), f"{a} has an inverse in GF({q})"
        for b in range(q):
            assert add[a][b] == add[b][a] and mul[a][b] == mul[b][a]
            for c in range(q):
                assert mul[a][add[b][c]] == add[mul[a][b]][mul[a][c]]


def test_thirty_two_at_four_give_nine_repeat_free_rounds_over_gf8():
    assert cyclic_capacity(4, 8) == 9
    rounds = cyclic_rounds(4, 8)
    assert len(rounds) == 9
    assert all(len(t) == 4 for tables in rounds for t in tables)
    met = meetings(rounds, 32)
    assert max(met.values()) == 1
    assert len(met) == 9 * 8 * 6  # 9 rounds x 8 tables x 6 pairs, all distinct


@pytest.mark.parametrize(("q", "rounds"), [(3, 4), (4, 5), (5, 6), (7, 8)])
def test_affine_planes_seat_every_pair_exactly_once(q, rounds):
    planes = affine_plane(q)
    assert len(planes) == rounds
    met = meetings(planes, q * q)
    assert len(met) == q * q * (q * q - 1) // 2
    assert set(met.values()) == {1}


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("m", [6, 10, 12, 14, 15, 18, 21, 50])
def test_cyclic_over_the_integers_is_repeat_free_up_to_its_capacity(k, m):
    if k > m:
        pytest.skip("fewer tables than seats")
    rounds = cyclic_rounds(k, m)
    assert len(rounds) == cyclic_capacity(k, m)
    assert len(rounds) >= (m - 1) // (k - 1) + 1  # (k-1)(r-1) < m
    met = meetings(rounds, k * m)
    assert max(met.values()) == 1


def test_prime_powers():
    assert [q for q in range(2, 33) if prime_power(q)] == [
        2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32,
    ]  # fmt: skip


@pytest.mark.parametrize("n", [8, 12, 16, 20, 24])
def test_whist_partners_once_and_opponents_twice(n):
    rounds = whist_rounds(n)
    assert len(rounds) == n - 1
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    meetings(rounds, n)
    for tables in rounds:
        for a, b, c, d in tables:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset(p) for p in ((a, b), (a, d), (c, b), (c, d)))
    every_pair = {frozenset(p) for p in combinations(range(n), 2)}
    assert set(partners) == every_pair and set(partners.values()) == {1}
    assert set(opponents) == every_pair and set(opponents.values()) == {2}


def test_no_whist_tournament_is_promised_where_none_is_stored():
    known = {8, 9, 12, 13, 16, 17, 20, 21, 24, 29, 37, 41, 45, 48, 52, 53, 56, 61, 64}
    assert known <= set(constructions.whist_sizes())
    assert all(n % 4 in (0, 1) for n in constructions.whist_sizes())
    with pytest.raises(ValueError):
        constructions.whist_round(6, 0)
