"""Table elimination: tables of k, the top m go on, down to a final table."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.brackets.play import play_out
from tournaments.brackets.core import (
    BracketUserError,
    DrawRule,
    Override,
    Result,
    Status,
    TableRules,
    bracket_layout,
    override_advancement,
    report_result,
    report_results,
    round_plan,
    table_elimination,
)

UP_TO_EIGHT = tuple(range(2, 9))
SIX_TOP_THREE = TableRules(table_size=6, advance=3, legal_sizes=UP_TO_EIGHT)
SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def players(count: int) -> list[str]:
    return [f"p{index:03}" for index in range(1, count + 1)]


@st.composite
def rules(draw: st.DrawFn, *, keep_under_half: bool = True) -> TableRules:
    size = draw(st.integers(min_value=3, max_value=8))
    top = (size - 1) // 2 if keep_under_half else size - 1
    advance = draw(st.integers(min_value=1, max_value=top))
    return TableRules(table_size=size, advance=advance, legal_sizes=UP_TO_EIGHT)


def by_seed_order(bracket, state):
    """Every table finishes in seed order (the better seed first)."""
    rank = {name: index for index, name in enumerate(bracket.seeds)}
    return [
        Result.ranked(view.id, *sorted(view.entrants, key=rank.__getitem__)) for view in state.ready
    ]


# --------------------------------------------------------------------------- exact cases


def test_twenty_four_players_at_tables_of_six_reach_a_final_table_of_six():
    assert round_plan(24, SIX_TOP_THREE) == ((6, 6, 6, 6), (6, 6), (6,))
    bracket = table_elimination(players(24), SIX_TOP_THREE)
    state = bracket.state()
    first = [view.seats for view in state.matches if view.round == 1]
    assert [tuple(int(name[1:]) for name in seats) for seats in first] == [
        (1, 8, 9, 16, 17, 24),
        (2, 7, 10, 15, 18, 23),
        (3, 6, 11, 14, 19, 22),
        (4, 5, 12, 13, 20, 21),
    ]
    assert [view.status for view in state.matches if view.round > 1] == [Status.WAITING] * 3
    rounds = 0
    while not state.complete:
        bracket = report_results(bracket, by_seed_order(bracket, state))
        state = bracket.state()
        rounds += 1
    assert rounds == 3
    final = [view for view in state.matches if view.round == 3]
    assert len(final) == 1 and final[0].advance == 0
    assert sorted(final[0].seats) == players(6)
    places = {p.entrant: (p.first, p.last) for p in state.placements}
    assert places["p001"] == (1, 1) and places["p006"] == (6, 6)
    assert {places[name] for name in players(12)[6:]} == {(7, 12)}
    assert {places[name] for name in players(24)[12:]} == {(13, 24)}


def test_round_two_seats_first_places_before_second_places_and_feeds_from_round_one():
    bracket = table_elimination(players(24), SIX_TOP_THREE)
    bracket = report_results(bracket, by_seed_order(bracket, bracket.state()))
    second = [view for view in bracket.state().matches if view.round == 2]
    assert [view.status for view in second] == [Status.READY, Status.READY]
    going_on = sorted(name for view in second for name in view.seats)
    assert going_on == players(12)
    for view in second:
        assert {feed.place for feed in view.feeds} <= {1, 2, 3}
        assert set(view.feeding_matches) <= {f"R1-T{n}" for n in range(1, 5)}
        assert [feed.place for feed in view.feeds].count(1) == 2  # winners spread evenly


def test_round_two_splits_round_one_table_mates_as_far_as_they_can_be():
    bracket = table_elimination(players(24), SIX_TOP_THREE)
    bracket = report_results(bracket, by_seed_order(bracket, bracket.state()))
    state = bracket.state()
    table_of = {n: view.id for view in state.matches if view.round == 1 for n in view.seats}
    repeats = sum(
        1
        for view in state.matches
        if view.round == 2
        for a, b in combinations(view.seats, 2)
        if table_of[a] == table_of[b]
    )
    # Three from each of four tables go into two tables: one pair per table must meet again.
    assert repeats == 4


def test_history_keeps_players_who_met_in_qualifying_apart():
    field = players(12)
    plain = table_elimination(field, SIX_TOP_THREE).state()
    together = next(v.seats for v in plain.matches if "p001" in v.seats)
    assert "p004" in together
    kept = table_elimination(field, SIX_TOP_THREE, history=[("p001", "p004")]).state()
    seats = next(v.seats for v in kept.matches if "p001" in v.seats)
    assert "p004" not in seats
    assert sorted(len(v.seats) for v in kept.matches if v.round == 1) == [6, 6]


def test_placement_tables_decide_every_place_of_twenty_four():
    bracket = table_elimination(players(24), SIX_TOP_THREE, placement_tables=True)
    bracket, state = play_out(bracket, random.Random(5))
    sections = Counter(view.section for view in state.matches)
    assert sections == {"main": 7, "places 7-12": 1, "places 13-24": 3, "places 19-24": 1}
    assert sorted((p.first, p.last) for p in state.placements) == [(i, i) for i in range(1, 25)]
    second_round = {view.section for view in state.matches if view.round == 2}
    assert second_round == {"main", "places 13-24"}  # played in parallel
    layout = bracket_layout(state, bracket.seeds)
    assert [s.title for s in layout.sections] == [
        "Bracket",
        "Places 7-12",
        "Places 13-24",
        "Places 19-24",
    ]
    assert layout.sections[0].columns[-1].title == "Final table"


def test_a_tie_across_the_cut_is_settled_by_the_director_s_tiebreak():
    field = players(12)
    bracket = table_elimination(field, SIX_TOP_THREE, draw_rule=DrawRule.HIGHER_SEED)
    view = bracket.state().match("R1-T1")
    seats = sorted(view.seats)
    finish = ((seats[5],), (seats[4],), (seats[0], seats[3]), (seats[1],), (seats[2],))
    bracket = report_result(bracket, Result("R1-T1", finish))
    assert bracket.state().match("R1-T1").finish[:3] == (seats[5], seats[4], seats[0])
    replaying = table_elimination(field, SIX_TOP_THREE, draw_rule=DrawRule.REPLAY)
    with pytest.raises(BracketUserError, match="replay"):
        report_result(replaying, Result("R1-T1", finish))
    below_cut = ((seats[5],), (seats[4],), (seats[3],), (seats[0], seats[1]), (seats[2],))
    assert report_result(replaying, Result("R1-T1", below_cut)).state().match("R1-T1").finish


def test_an_override_at_a_table_changes_who_goes_on():
    bracket = table_elimination(players(12), SIX_TOP_THREE)
    seats = bracket.state().match("R1-T1").seats
    bracket = report_result(bracket, Result.ranked("R1-T1", *seats))
    flipped = tuple(reversed(seats))
    bracket = override_advancement(
        bracket, Override("R1-T1", flipped, reason="scores entered upside down")
    )
    assert bracket.state().match("R1-T1").finish == flipped
    bracket = report_result(bracket, Result.ranked("R1-T2", *bracket.state().match("R1-T2").seats))
    final = bracket.state().match("R2-T1")
    assert set(flipped[:3]) <= set(final.seats)


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: table_elimination(players(1), SIX_TOP_THREE), "seeds"),
        (lambda: table_elimination(players(12), TableRules(6, 6, UP_TO_EIGHT)), "advance"),
        (lambda: table_elimination(players(12), TableRules(9, 3, UP_TO_EIGHT)), "table_size"),
        (lambda: table_elimination(players(12), TableRules(6, 3, (1, 6))), "legal_sizes"),
        (lambda: table_elimination(players(9), TableRules(8, 4, UP_TO_EIGHT)), "advance"),
        (
            lambda: table_elimination(players(12), TableRules(6, 3, UP_TO_EIGHT, 9)),
            "final_table_size",
        ),
    ],
)
def test_fields_and_rules_that_cannot_be_seated_are_user_errors(build, field):
    with pytest.raises(BracketUserError) as caught:
        build()
    assert caught.value.field == field


def test_a_table_not_yet_drawn_takes_no_result():
    bracket = table_elimination(players(24), SIX_TOP_THREE)
    with pytest.raises(BracketUserError, match="waiting"):
        report_result(bracket, Result.ranked("R2-T1", *players(6)))


# --------------------------------------------------------------------------- properties


@SOME
@given(count=st.integers(min_value=2, max_value=128), rules=rules(keep_under_half=False))
def test_every_plan_uses_legal_tables_and_ends_at_one_final_table(count, rules):
    try:
        plan = round_plan(count, rules)
    except BracketUserError as error:
        assert error.field == "advance"
        return
    assert plan[-1] == (plan[-1][0],)
    assert all(len(sizes) > 1 for sizes in plan[:-1])
    seated = count
    for sizes in plan:
        assert all(size in rules.legal_sizes for size in sizes)
        assert sum(sizes) == seated
        if len(sizes) > 1:
            assert all(size > rules.advance for size in sizes)
        seated = len(sizes) * rules.advance


@SOME
@given(count=st.integers(min_value=2, max_value=128), rules=rules())
def test_with_fewer_than_half_going_on_every_field_can_be_seated(count, rules):
    assert round_plan(count, rules)


@SOME
@given(
    count=st.integers(min_value=2, max_value=128),
    rules=rules(),
    placement=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_playing_to_the_end_places_everyone_once_on_legal_tables(count, rules, placement, seed):
    bracket = table_elimination(players(count), rules, placement_tables=placement, seed=seed)
    first_round = [view for view in bracket.state().matches if view.round == 1]
    # Snake order: the top seeds head the tables in order.
    assert [view.seats[0] for view in first_round] == players(len(first_round))
    _, state = play_out(bracket, random.Random(seed), ties=True)
    assert state.complete
    for view in state.matches:
        assert len(view.seats) in rules.legal_sizes
        assert len(set(view.seats)) == len(view.seats)
    finals = [v for v in state.matches if v.section == "main" and v.advance == 0]
    assert len(finals) == 1
    assert max(v.round for v in state.matches if v.section == "main") == finals[0].round
    assert sorted(p.entrant for p in state.placements) == players(count)
    ranges = Counter((p.first, p.last) for p in state.placements)
    assert all(last - first + 1 == shared for (first, last), shared in ranges.items())
    assert sum(ranges.values()) == count
    if placement:
        assert sorted(p.first for p in state.placements) == list(range(1, count + 1))
        assert all(p.first == p.last for p in state.placements)


@SOME
@given(count=st.integers(min_value=7, max_value=64), seed=st.integers(0, 10**6))
def test_players_go_on_only_from_the_top_of_their_table(count, seed):
    bracket = table_elimination(players(count), SIX_TOP_THREE, placement_tables=False)
    _, state = play_out(bracket, random.Random(seed))
    finished = {view.id: view.finish for view in state.matches}
    for view in state.matches:
        for name, feed in zip(view.seats, view.feeds, strict=True):
            if feed is not None and view.section == "main":
                assert finished[feed.match][feed.place - 1] == name
                assert feed.place <= SIX_TOP_THREE.advance
