"""Exact cases of each format, of table sizes, byes, bounds and user mistakes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.seating.adapter import table_policy
from tournaments.seating.core import (
    Constraints,
    PlayedRound,
    RoundRequest,
    SchedulingError,
    TablePolicy,
    plan_round,
    plan_schedule,
    table_sizes,
)
from tournaments.seating.core.report import spread_pairs

ROOLZ = table_policy("roolz")
DERBY = table_policy("roller_derby")
SLUFF = table_policy("rook_sluff")
RUMMOLI = table_policy("rummoli")

SIZES = [
    # (policy, players, tables, byes)
    (ROOLZ, 21, [5, 4, 4, 4, 4], 0),
    (ROOLZ, 4, [4], 0),
    (ROOLZ, 7, [4, 3], 0),
    (ROOLZ, 2, [2], 0),
    (ROOLZ, 1, [], 1),
    (RUMMOLI, 27, [6, 6, 5, 5, 5], 0),
    (RUMMOLI, 13, [7, 6], 0),
    (DERBY, 10, [4, 4], 2),
    (DERBY, 3, [], 3),
    (SLUFF, 40, [8, 8, 8, 8, 8], 0),
    (SLUFF, 41, [8, 8, 8, 8, 8], 1),
    (SLUFF, 22, [8, 8, 6], 0),
    (SLUFF, 5, [], 5),
    (SLUFF.only(10), 40, [10, 10, 10, 10], 0),
    (SLUFF.only(10), 45, [10, 10, 10, 10], 5),
]


@pytest.mark.parametrize(("policy", "players", "tables", "byes"), SIZES)
def test_table_sizes_take_the_fewest_byes_and_stay_near_the_preferred_size(
    policy, players, tables, byes
):
    assert table_sizes(players, policy) == (tables, byes)


def test_game_facts_come_from_the_engines():
    assert DERBY.legal_sizes == (4,) and DERBY.sides_at(4) == ((0, 2), (1, 3))
    assert SLUFF.legal_sizes == (6, 8, 10)
    assert SLUFF.sides_at(6) == ((0, 2, 4), (1, 3, 5))
    assert ROOLZ.legal_sizes == (2, 3, 4, 5, 6) and ROOLZ.sides_at(5) == ()
    assert RUMMOLI.sides == {}


@pytest.mark.parametrize(("players", "tables", "pairs"), [(4, 4, 0), (10, 4, 8), (8, 5, 3)])
def test_players_of_one_table_shared_among_tables(players, tables, pairs):
    assert spread_pairs(players, tables) == pairs


@pytest.mark.parametrize(("size", "bound"), [(10, 32), (8, 15)])
def test_rook_sluff_second_round_reaches_its_lower_bound(size, bound):
    schedule = plan_schedule(list(range(40)), SLUFF.only(size), 2, seed=3)
    second = schedule.rounds[1].report
    assert second.lower_bound == bound
    assert second.repeated_pairs == bound


def test_a_repeat_free_second_round_needs_k_squared_players():
    for players in (8, 12):
        schedule = plan_schedule(list(range(players)), TablePolicy((4,), 4), 2, seed=0)
        assert schedule.rounds[1].report.lower_bound > 0
        assert schedule.rounds[1].report.repeated_pairs >= schedule.rounds[1].report.lower_bound
    schedule = plan_schedule(list(range(16)), TablePolicy((4,), 4), 2, seed=0)
    assert schedule.rounds[1].report.lower_bound == 0
    assert schedule.rounds[1].report.repeated_pairs == 0


@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (32, 9), (9, 4), (25, 6), (200, 10)])
def test_mixer_reaches_zero_repeats_where_a_construction_exists(players, rounds):
    size = {9: 3, 25: 5}.get(players, 4)
    schedule = plan_schedule(list(range(players)), TablePolicy((size,), size), rounds, seed=5)
    assert schedule.report.repeated_pairs == 0
    assert schedule.report.most_met == 1


@pytest.mark.parametrize("players", [8, 12, 16, 20, 24, 48, 52, 56, 60, 64])
def test_roller_derby_mixer_rotates_partners_as_a_whist_tournament(players):
    schedule = plan_schedule(list(range(players)), DERBY, players - 1, seed=2)
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for plan in schedule.rounds:
        for a, b, c, d in plan.tables:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset(p) for p in ((a, b), (b, c), (c, d), (d, a)))
    every_pair = {frozenset(p) for p in combinations(range(players), 2)}
    assert set(partners) == every_pair and set(partners.values()) == {1}
    assert set(opponents) == every_pair and set(opponents.values()) == {2}
    assert schedule.report.repeated_partners == 0


def test_mixer_avoids_repeated_partners_without_a_whist_tournament():
    schedule = plan_schedule(list(range(28)), DERBY, 6, seed=4)
    assert schedule.report.repeated_partners == 0


def test_seats_and_first_dealer_rotate():
    schedule = plan_schedule(list(range(16)), TablePolicy((4,), 4), 5, seed=1)
    first = Counter(plan_table[0] for plan in schedule.rounds for plan_table in plan.tables)
    assert max(first.values()) <= 2, "nobody deals first three times in five rounds of 16"


def test_round_robin_every_team_meets_every_other_once():
    teams = tuple((2 * i, 2 * i + 1) for i in range(8))
    constraints = Constraints(fixed_teams=teams)
    met: Counter[frozenset[int]] = Counter()
    history: list[PlayedRound] = []
    for _ in range(7):
        plan = plan_round(
            RoundRequest(
                entrants=tuple(range(16)),
                policy=DERBY,
                format="round_robin",
                history=tuple(history),
                constraints=constraints,
            )
        )
        history.append(plan.as_played())
        assert plan.byes == ()
        for a, b, c, d in plan.tables:
            assert {a, c} in [set(t) for t in teams] and {b, d} in [set(t) for t in teams]
            met[frozenset((a // 2, b // 2))] += 1
        assert plan.report.repeated_partners == 0
    assert set(met.values()) == {1} and len(met) == 28


def test_round_robin_with_an_odd_number_of_teams_rests_each_team_once():
    schedule = plan_schedule(list(range(10)), DERBY, 5, format="round_robin")
    rested: Counter[int] = Counter()
    for plan in schedule.rounds:
        assert len(plan.tables) == 2 and len(plan.byes) == 2
        rested.update(e // 2 for e in plan.byes[::2])
    assert rested == Counter({team: 1 for team in range(5)})


def test_progressive_winners_move_up_and_partners_split():
    last = PlayedRound(
        tables=((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)),
        winners=frozenset({0, 2, 5, 7, 8, 10}),
    )
    plan = plan_round(
        RoundRequest(entrants=tuple(range(12)), policy=DERBY, format="progressive", history=(last,))
    )
    tables = [set(t) for t in plan.tables]
    assert tables[0] == {0, 2, 5, 7}  # head table winners stay, table 2 winners come up
    assert tables[1] == {1, 3, 8, 10}  # head table losers come down, table 3 winners up
    assert tables[2] == {4, 6, 9, 11}  # table 2 losers come down, bottom losers stay
    for a, b, c, d in plan.tables:
        for side in ({a, c}, {b, d}):
            assert side not in ({0, 2}, {5, 7}, {1, 3}, {8, 10}, {4, 6}, {9, 11})


def test_swiss_fills_from_the_top_and_gives_the_bye_to_the_lowest():
    standings = tuple(reversed(range(9)))  # 8 leads, 0 is last
    plan = plan_round(
        RoundRequest(entrants=tuple(range(9)), policy=DERBY, format="swiss", standings=standings)
    )
    assert plan.byes == (0,)
    assert set(plan.tables[0]) == {8, 7, 6, 5}
    assert set(plan.tables[1]) == {4, 3, 2, 1}


def test_swiss_avoids_a_repeat_at_a_small_cost_in_standings():
    first = PlayedRound(tables=((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)))
    plan = plan_round(
        RoundRequest(
            entrants=tuple(range(16)),
            policy=TablePolicy((4,), 4),
            format="swiss",
            standings=tuple(range(16)),
            history=(first,),
        )
    )
    assert plan.report.repeated_pairs == plan.report.lower_bound == 0


def test_swiss_parts_a_pair_kept_apart_that_fills_a_score_group_of_one_table():
    # 0-3 each won a table, so they are the top score group, exactly one table's worth:
    # swaps inside the group alone could never part 0 and 1.
    first = PlayedRound(tables=((0, 4, 1, 5), (2, 6, 3, 7)), winners=frozenset({0, 1, 2, 3}))
    plan = plan_round(
        RoundRequest(
            entrants=tuple(range(8)),
            policy=DERBY,
            format="swiss",
            standings=tuple(range(8)),
            history=(first,),
            constraints=Constraints(keep_apart=((0, 1),)),
        )
    )
    table_of = {e: i for i, table in enumerate(plan.tables) for e in table}
    assert table_of[0] != table_of[1]
    assert plan.report.keep_apart_broken == 0
    # One player of the top group changed places with one of the next group, no more.
    assert sorted(len(set(table) & {0, 1, 2, 3}) for table in plan.tables) == [1, 3]


def test_keep_apart_wins_over_a_construction():
    constraints = Constraints(keep_apart=((0, 1), (2, 3), (4, 5)))
    schedule = plan_schedule(list(range(16)), TablePolicy((4,), 4), 5, constraints=constraints)
    assert schedule.report.keep_apart_broken == 0


def test_an_impossible_keep_apart_is_reported_not_refused():
    constraints = Constraints(keep_apart=((0, 1), (0, 2), (1, 2)))
    plan = plan_round(RoundRequest(entrants=(0, 1, 2, 3), policy=DERBY, constraints=constraints))
    assert sorted(plan.tables[0]) == [0, 1, 2, 3]
    assert plan.report.keep_apart_broken == 3


def test_mistakes_name_their_field():
    with pytest.raises(SchedulingError) as error:
        plan_round(RoundRequest(entrants=(1, 1, 2), policy=DERBY))
    assert error.value.field == "entrants"
    with pytest.raises(SchedulingError) as error:
        SLUFF.only(7)
    assert error.value.field == "table_size" and "6, 8, 10" in str(error.value)
    with pytest.raises(SchedulingError) as error:
        TablePolicy((4,), 5)
    assert error.value.field == "table_size"
    with pytest.raises(SchedulingError) as error:
        plan_schedule(list(range(8)), ROOLZ.only(5), 2, format="round_robin")
    assert error.value.field == "table_size"
