"""Swiss by the standings' points: never looser than sorting by points and cutting, and
rid of the repeats a swap can remove without widening a table's spread."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating.core import (
    PlayedRound,
    RoundRequest,
    SchedulingError,
    TablePolicy,
    plan_round,
)

FOURS = TablePolicy((4,), 4)
PLACES = (7.0, 5.0, 3.0, 1.0)  # the default placement points at a table of 4


def spread(tables, points) -> float:
    return sum(max(points[e] for e in t) - min(points[e] for e in t) for t in tables)


def repeats(tables, history) -> int:
    met = {frozenset(p) for played in history for t in played.tables for p in combinations(t, 2)}
    return sum(1 for t in tables for p in combinations(t, 2) if frozenset(p) in met)


def second_round(players: int, seed: int, *, ties: bool = False):
    """Round 1 seated at random, finishes drawn, placement points given; round 2 seated
    by swiss and by sorting the standings and cutting every 4."""
    rng = random.Random(seed)
    order = list(range(players))
    rng.shuffle(order)
    first = tuple(tuple(order[i : i + 4]) for i in range(0, players, 4))
    points: dict[int, float] = {}
    for table in first:
        finish = list(table)
        rng.shuffle(finish)
        for place, entrant in enumerate(finish):
            points[entrant] = PLACES[place]
        if ties and rng.random() < 0.5:  # the top two tie: they share 6 points
            points[finish[0]] = points[finish[1]] = 6.0
    tie_break = {e: rng.random() for e in range(players)}
    standings = sorted(range(players), key=lambda e: (-points[e], tie_break[e]))
    history = (PlayedRound(tables=first),)
    plan = plan_round(
        RoundRequest(
            entrants=tuple(range(players)),
            policy=FOURS,
            format="swiss",
            history=history,
            standings=tuple(standings),
            scores=points,
            seed=seed,
        )
    )
    cut = [tuple(standings[i : i + 4]) for i in range(0, players, 4)]
    return plan, cut, points, history


@settings(max_examples=40, deadline=None)
@given(tables=st.integers(2, 16), seed=st.integers(0, 10**6), ties=st.booleans())
def test_swiss_is_never_looser_than_sort_and_cut_nor_repeats_more(tables, seed, ties):
    plan, cut, points, history = second_round(4 * tables, seed, ties=ties)
    assert sorted(e for t in plan.tables for e in t) == list(range(4 * tables))
    assert spread(plan.tables, points) <= spread(cut, points) + 1e-9
    assert repeats(plan.tables, history) <= repeats(cut, history)
    assert plan.report.repeated_pairs == repeats(plan.tables, history)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_forty_players_in_round_two_are_as_tight_as_sort_and_cut_with_no_repeat(seed):
    # Each score group holds one player of every first-round table, so a mixed table's
    # repeat can always be swapped away inside a group.
    plan, cut, points, history = second_round(40, seed)
    assert repeats(plan.tables, history) == 0
    assert spread(plan.tables, points) == spread(cut, points)


def test_a_seven_point_player_never_sits_with_a_one_point_player_in_round_two():
    for seed in range(10):
        plan, _cut, points, _history = second_round(40, seed)
        for table in plan.tables:
            assert max(points[e] for e in table) - min(points[e] for e in table) <= 2


def test_points_that_are_no_number_are_refused_by_field():
    request = RoundRequest(
        entrants=tuple(range(8)),
        policy=FOURS,
        format="swiss",
        scores={0: float("nan")},
    )
    with pytest.raises(SchedulingError) as caught:
        plan_round(request)
    assert caught.value.field == "scores"
    assert "entrant 0" in str(caught.value)
