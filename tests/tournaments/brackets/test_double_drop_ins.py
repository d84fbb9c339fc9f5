"""Double elimination: losers drop in with neighbours swapped, so a dropped player's first
losers' match is never against someone met in the winners' bracket (until the losers' final)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.brackets.play import play_out
from tournaments.brackets.core import (
    Bracket,
    EliminationBracket,
    GrandFinal,
    Result,
    Status,
    double_elimination,
    report_result,
)
from tournaments.brackets.core.two_team import double_specs, drop_in_match

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
    if count > 1:
        assert all(sent[number - 1] != number for number in range(1, count + 1))


def first_drop_in_rematches(state) -> list[str]:
    """Losers' matches before the losers' final where a player dropped from the winners'
    bracket (round 2 on) meets, in that first losers' match, someone met there already."""
    winners_pairs = {
        frozenset(view.entrants)
        for view in state.matches
        if view.section == "winners" and view.status is Status.DONE
    }
    losers = [view for view in state.matches if view.section == "losers"]
    final_round = max((view.round for view in losers), default=0)
    found = []
    for view in losers:
        if view.round == final_round or view.status is not Status.DONE:
            continue
        dropped = any(
            feed is not None and feed.match.startswith("W") and feed.place == 2
            for feed in view.feeds
        )
        if dropped and frozenset(view.entrants) in winners_pairs:
            found.append(view.id)
    return found


@SOME
@given(count=st.sampled_from([8, 16, 32]), seed=st.integers(0, 10**6))
def test_random_results_at_powers_of_two_drop_nobody_into_a_rematch(count, seed):
    _bracket, state = play_out(double_elimination(names(count)), random.Random(seed))
    assert first_drop_in_rematches(state) == []


@SOME
@given(count=st.integers(min_value=3, max_value=70), seed=st.integers(0, 10**6))
def test_random_results_with_byes_drop_nobody_into_a_rematch(count, seed):
    _bracket, state = play_out(double_elimination(names(count)), random.Random(seed))
    assert first_drop_in_rematches(state) == []


def test_the_check_finds_a_rematch_where_an_order_allows_one():
    """The same check, on the drop-in order that keeps every loser in its own part of the
    draw, finds rematches: with the favourites winning, seed 4 (W2-1's loser) meets
    seed 5, whom it beat in W1-2, and seed 3 meets seed 6, whom it beat in W1-4."""

    @dataclass(frozen=True)
    class Natural(EliminationBracket):
        def specs(self):
            return double_specs(
                len(self.seeds),
                grand_final=GrandFinal.RESET,
                drop_in=lambda _round, number, _count: number,
            )

    bracket = Natural(format=double_elimination(names(8)).format, seeds=tuple(names(8)))
    state = bracket.state()
    while not state.complete:
        for view in state.ready:
            ranked = sorted(view.entrants, key=lambda name: int(name[1:]))
            bracket = report_result(bracket, Result.ranked(view.id, *ranked))
        state = bracket.state()
    assert first_drop_in_rematches(state) == ["L2-1", "L2-2"]
