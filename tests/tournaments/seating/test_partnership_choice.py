"""Partnership tables of 4: the construction follows the event's length."""

from __future__ import annotations

from itertools import combinations

import pytest

from tournaments.seating.adapter import table_policy
from tournaments.seating.core import plan_schedule


def pairs_met(schedule) -> dict[frozenset[int], int]:
    met: dict[frozenset[int], int] = {}
    for plan in schedule.rounds:
        for table in plan.tables:
            for pair in combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    return met


def partners(schedule) -> dict[frozenset[int], int]:
    together: dict[frozenset[int], int] = {}
    for plan in schedule.rounds:
        for table in plan.tables:
            for pair in (frozenset((table[0], table[2])), frozenset((table[1], table[3]))):
                together[pair] = together.get(pair, 0) + 1
    return together


@pytest.mark.parametrize("game", ["roolz", "roller_derby"])
def test_a_short_event_never_seats_two_players_together_twice(game):
    schedule = plan_schedule(list(range(16)), table_policy(game, table_size=4), 5, seed=3)
    assert max(pairs_met(schedule).values()) == 1
    assert max(partners(schedule).values()) == 1


@pytest.mark.parametrize("game", ["roolz", "roller_derby"])
def test_a_long_event_rotates_partners_so_everyone_partners_everyone_once(game):
    schedule = plan_schedule(list(range(16)), table_policy(game, table_size=4), 15, seed=3)
    together = partners(schedule)
    assert len(together) == 16 * 15 // 2
    assert set(together.values()) == {1}


@pytest.mark.parametrize("rounds", [3, 4, 5])
def test_twenty_four_at_partnership_tables_meet_nobody_twice_in_a_short_event(rounds):
    schedule = plan_schedule(list(range(24)), table_policy("roller_derby"), rounds, seed=1)
    assert max(pairs_met(schedule).values()) == 1
    assert max(partners(schedule).values()) == 1
    assert schedule.partnership is not None
    assert schedule.partnership.chosen == "mixer"


def test_the_report_shows_both_ways_of_seating_a_short_partnership_event():
    schedule = plan_schedule(list(range(24)), table_policy("roller_derby"), 4, seed=1)
    shown = schedule.as_dict()["partnership"]
    assert shown["chosen"] == "mixer"
    assert shown["mixer"] == {"repeated_pairs": 0, "repeated_partners": 0}
    # The whist rotation repeats table-mates on purpose: opponents meet twice.
    assert shown["whist"]["repeated_pairs"] > 0
    assert shown["whist"]["repeated_partners"] == 0


@pytest.mark.parametrize(("players", "rounds"), [(20, 6), (20, 7), (24, 6), (24, 7)])
def test_the_chosen_seating_repeats_no_more_than_the_other(players, rounds):
    schedule = plan_schedule(list(range(players)), table_policy("roller_derby"), rounds, seed=1)
    choice = schedule.partnership
    assert choice is not None
    assert choice.mixer_cost != choice.whist_cost or choice.chosen == "whist"
    chosen_pairs = min(choice.mixer_cost, choice.whist_cost)
    report = schedule.report
    assert report.repeated_pairs + choice.partner_weight * report.repeated_partners == chosen_pairs
