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
