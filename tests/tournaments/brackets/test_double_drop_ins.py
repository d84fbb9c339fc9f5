"""Double elimination: losers drop in crossed, so nobody meets again at once in L2."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.brackets.play import play_out
from tournaments.brackets.core import (
    Bracket,
    Result,
    Status,
    double_elimination,
    report_result,
)
from tournaments.brackets.core.two_team import drop_in_match

SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def names(count: int) -> list[str]:
    return [f"s{index}" for index in range(1, count + 1)]


def played_pairs_before(state, match_id: str) -> set[frozenset[str]]:
    """Every pair that met in a match played before ``match_id`` (by its round)."""
    target = state.match(match_id)
    pairs = set()
    for view in state.matches:
        if view.status is not Status.DONE or view.id == match_id:
            continue
        earlier = view.section == "winners" and view.round <= target.round // 2 + 1
        earlier = earlier or (view.section == "losers" and view.round < target.round)
        if earlier:
            pairs.add(frozenset(view.entrants))
    return pairs


def l2_rematches(state) -> list[str]:
    return [
        view.id
        for view in state.matches
        if view.section == "losers"
        and view.round == 2
        and view.status is Status.DONE
        and frozenset(view.entrants) in played_pairs_before(state, view.id)
    ]


def every_start(bracket: Bracket):
    """Every way the matches up to losers' round 2 can go (each result branched)."""
    state = bracket.state()
    open_early = [
        v
        for v in state.ready
        if (v.section == "winners" and v.round <= 2) or (v.section == "losers" and v.round <= 2)
    ]
    if not open_early:
        yield state
        return
    view = open_early[0]
    first, second = view.entrants
    for order in ((first, second), (second, first)):
        yield from every_start(report_result(bracket, Result.ranked(view.id, *order)))


@pytest.mark.parametrize("count", [5, 6, 7, 8])
def test_no_result_whatever_gives_a_rematch_in_losers_round_two(count):
    states = list(every_start(double_elimination(names(count))))
    assert len(states) >= 2 ** (count - 2)
    for state in states:
        assert l2_rematches(state) == []


@pytest.mark.parametrize("count", [6, 8, 16])
def test_favourites_winning_meet_nobody_again_in_losers_round_two(count):
    bracket = double_elimination(names(count))
    state = bracket.state()
    while not state.complete:
        for view in state.ready:
            ranked = sorted(view.entrants, key=lambda name: int(name[1:]))
            bracket = report_result(bracket, Result.ranked(view.id, *ranked))
        state = bracket.state()
    assert l2_rematches(state) == []


@SOME
@given(count=st.integers(min_value=5, max_value=128), seed=st.integers(0, 10**6))
def test_random_results_never_meet_again_in_losers_round_two(count, seed):
    _bracket, state = play_out(double_elimination(names(count)), random.Random(seed))
    assert l2_rematches(state) == []


@SOME
@given(count=st.integers(min_value=2, max_value=128), seed=st.integers(0, 10**6))
def test_a_double_elimination_plays_two_n_less_two_games_or_one_more_with_a_reset(count, seed):
    _bracket, state = play_out(double_elimination(names(count)), random.Random(seed))
    played = [view for view in state.matches if view.status is Status.DONE]
    reset = state.match("GF2").status is Status.DONE
    assert len(played) == 2 * count - 2 + (1 if reset else 0)


@pytest.mark.parametrize("count", [1, 2, 4, 8, 16, 32])
@pytest.mark.parametrize("winners_round", [2, 3, 4, 5, 6])
def test_each_drop_in_order_sends_every_loser_to_one_match(count, winners_round):
    sent = [drop_in_match(winners_round, number, count) for number in range(1, count + 1)]
    assert sorted(sent) == list(range(1, count + 1))
