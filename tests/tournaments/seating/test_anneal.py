"""Searching harder: annealing a whole schedule never makes it worse, and the planner follows it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating.core import TablePolicy, plan_schedule
from tournaments.seating.core.anneal import anneal_schedule, repeated_pairs

SIXES = TablePolicy((6,), 6)


@st.composite
def schedules(draw: st.DrawFn) -> tuple[int, list[list[tuple[int, ...]]]]:
    size = draw(st.integers(2, 4))
    tables = draw(st.integers(2, 4))
    byes = draw(st.integers(0, 2))
    players = size * tables + byes
    rng = random.Random(draw(st.integers(0, 10**6)))
    rounds = []
    for _ in range(draw(st.integers(1, 5))):
        order = list(range(players))
        rng.shuffle(order)
        rounds.append([tuple(order[t * size : (t + 1) * size]) for t in range(tables)])
    return players, rounds


@settings(max_examples=40, deadline=None)
@given(schedules(), st.integers(0, 5000))
def test_annealing_never_worsens_a_schedule_and_keeps_every_round_legal(case, steps):
    players, rounds = case
    best = anneal_schedule(rounds, players, seconds=30, seed=1, steps=steps)
    assert repeated_pairs(best, players) <= repeated_pairs(rounds, players)
    for before, after in zip(rounds, best, strict=True):
        assert sorted(map(len, before)) == sorted(map(len, after))
        assert sorted(p for t in before for p in t) == sorted(p for t in after for p in t)


def test_the_same_steps_give_the_same_schedule():
    rounds = [[(0, 1, 2), (3, 4, 5)], [(0, 1, 3), (2, 4, 5)], [(0, 2, 4), (1, 3, 5)]]
    first = anneal_schedule(rounds, 6, seconds=30, seed=3, steps=2000)
    assert first == anneal_schedule(rounds, 6, seconds=30, seed=3, steps=2000)


def test_a_planned_event_searched_harder_reaches_its_bound_and_is_followed_to_its_end():
    # 18 at tables of 6 for 3 rounds: each old table leaves at least 3 pairs together.
    players = list(range(18))
    plain = plan_schedule(players, SIXES, 3, seed=2)
    searched = plan_schedule(players, SIXES, 3, seed=2, search_steps=100_000)
    assert searched.report.repeated_pairs < plain.report.repeated_pairs
    assert searched.report.repeated_pairs == searched.report.lower_bound == 18
    assert {plan.report.method for plan in searched.rounds} == {"annealed"}


def test_searching_harder_is_asked_for_and_never_used_without_a_known_length():
    players = list(range(18))
    plain = plan_schedule(players, SIXES, 3, seed=2)
    assert "annealed" not in {plan.report.method for plan in plain.rounds}
