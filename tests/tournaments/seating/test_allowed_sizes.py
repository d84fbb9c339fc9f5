"""An event's allowed table sizes: the split keeps to them with the fewest byes, the
sizes as even as the allowed ones let them, and the report says why."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.seating.adapter import table_policy
from tournaments.seating.core import (
    RoundRequest,
    SchedulingError,
    TablePolicy,
    plan_round,
    table_sizes,
)
from tournaments.seating.core.sizes import split_words

ROOLZ = table_policy("roolz")
GAMES = {name: table_policy(name) for name in ("roolz", "rummoli", "rook_sluff", "roller_derby")}

CASES = [
    # (game, allowed, players, tables, byes)
    ("roolz", (4, 5), 14, [5, 5, 4], 0),
    ("roolz", (4, 5), 10, [5, 5], 0),
    ("roolz", (4, 5), 15, [5, 5, 5], 0),
    ("roolz", (4, 5), 13, [5, 4, 4], 0),
    ("roolz", (4, 5), 7, [5], 2),
    ("roolz", (4, 5), 3, [], 3),
    ("roolz", (4,), 14, [4, 4, 4], 2),
    ("roolz", (3, 5), 14, [5, 3, 3, 3], 0),
    ("roolz", (5, 6), 23, [6, 6, 6, 5], 0),
    ("rummoli", (4, 5, 6), 14, [5, 5, 4], 0),
    ("rook_sluff", (8, 10), 20, [10, 10], 0),
    # every size: a table of 2 is never used where a more even split exists
    ("rummoli", (2, 3, 4, 5, 6, 7, 8), 8, [8], 0),
    ("rummoli", (2, 3, 4, 5, 6, 7, 8), 9, [5, 4], 0),
]


@pytest.mark.parametrize(("game", "allowed", "players", "tables", "byes"), CASES)
def test_the_split_keeps_to_the_allowed_sizes(game, allowed, players, tables, byes):
    assert table_sizes(players, GAMES[game].within(allowed)) == (tables, byes)


@pytest.mark.parametrize("players", [10, 14, 15])
def test_every_size_allowed_is_todays_split(players):
    everything = ROOLZ.within(ROOLZ.legal_sizes)
    assert everything == ROOLZ
    assert table_sizes(players, everything) == table_sizes(players, ROOLZ)
    assert 3 in table_sizes(players, ROOLZ)[0]  # today: 10 -> 4, 3, 3; 14, 15 likewise


def test_the_preferred_size_stays_or_is_the_nearest_allowed():
    assert ROOLZ.within((4, 5)).preferred == 4
    assert ROOLZ.within((5, 6)).preferred == 5
    assert ROOLZ.within((3, 5)).preferred == 3  # as near: the smaller
    assert GAMES["rummoli"].within((2, 3)).preferred == 3


def test_partnerships_are_kept_at_the_allowed_sizes():
    policy = ROOLZ.within((4, 5))
    assert policy.sides_at(4) == ROOLZ.sides_at(4)
    assert set(policy.sides) <= {4, 5}


@pytest.mark.parametrize(
    ("allowed", "words"),
    [((), "allow at least one table size"), ((4, 7), "table size 7 is not legal")],
)
def test_sizes_the_game_does_not_allow_are_refused_by_field(allowed, words):
    with pytest.raises(SchedulingError) as error:
        ROOLZ.within(allowed)
    assert error.value.field == "table_sizes" and words in str(error.value)


def reachable(total: int, sizes: tuple[int, ...]) -> bool:
    can = [True] + [False] * total
    for t in range(1, total + 1):
        can[t] = any(s <= t and can[t - s] for s in sizes)
    return can[total]


@st.composite
def game_and_allowed(draw: st.DrawFn) -> tuple[TablePolicy, tuple[int, ...]]:
    policy = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    legal = policy.legal_sizes
    allowed = draw(st.lists(st.sampled_from(legal), min_size=1, max_size=len(legal), unique=True))
    return policy, tuple(sorted(allowed))


@given(chosen=game_and_allowed(), players=st.integers(0, 200))
def test_every_count_and_allowed_set_fewest_byes_within_the_sizes_and_even(chosen, players):
    game, allowed = chosen
    policy = game.within(allowed)
    sizes, byes = table_sizes(players, policy)
    assert sum(sizes) + byes == players
    assert all(size in allowed for size in sizes)
    # the fewest byes: no smaller number of byes leaves a count the allowed sizes fill
    assert not any(reachable(players - fewer, allowed) for fewer in range(byes))
    if reachable(players, allowed):
        assert byes == 0
    # as even as possible: no two tables can be brought closer with allowed sizes
    for small, large in combinations(sorted(sizes), 2):
        for nearer in allowed:
            other = small + large - nearer
            assert not (small < nearer <= other < large and other in allowed), (
                sizes,
                (small, large),
                (nearer, other),
            )


def test_a_round_at_four_or_five_only_seats_fourteen_at_five_five_four():
    policy = ROOLZ.within((4, 5))
    plan = plan_round(RoundRequest(entrants=list(range(14)), policy=policy, seed=3))
    assert sorted((len(t) for t in plan.tables), reverse=True) == [5, 5, 4]
    assert plan.byes == ()
    assert plan.report.sizes == "14 players: tables of 5, 5, 4 (sizes allowed: 4, 5)"
    assert plan.report.as_dict()["sizes"] == plan.report.sizes


def test_the_report_says_plainly_who_sits_out_and_why():
    policy = ROOLZ.within((4, 5))
    plan = plan_round(RoundRequest(entrants=list(range(7)), policy=policy, seed=3))
    assert [len(t) for t in plan.tables] == [5] and len(plan.byes) == 2
    assert plan.report.sizes == (
        "7 players: a table of 5 and 2 sitting out, "
        "as no split into the sizes allowed (4, 5) seats all 7"
    )


@pytest.mark.parametrize(
    ("players", "tables", "byes", "words"),
    [
        (10, [5, 5], 0, "10 players: tables of 5, 5 (sizes allowed: 4, 5)"),
        (5, [5], 0, "5 players: a table of 5 (sizes allowed: 4, 5)"),
        (9, [4, 4], 1, "9 players: tables of 4, 4 and 1 sitting out (sizes allowed: 4, 5)"),
        (3, [], 3, "3 players: no table and 3 sitting out, as no split into the sizes "
         "allowed (4, 5) seats all 3"),
    ],
)  # fmt: skip
def test_the_words_of_the_split(players, tables, byes, words):
    assert split_words(players, tables, byes, ROOLZ.within((4, 5))) == words


@given(players=st.integers(0, 10_000), chosen=game_and_allowed())
def test_the_words_stay_short_at_any_size(players, chosen):
    game, allowed = chosen
    policy = game.within(allowed)
    sizes, byes = table_sizes(players, policy)
    words = split_words(players, sizes, byes, policy)
    assert len(words) <= 200  # an exported report's text is at most 200 characters
    assert words.startswith(f"{players} player")


def test_many_tables_are_counted_by_size():
    policy = ROOLZ.within((4, 5))
    sizes, byes = table_sizes(10_001, policy)
    assert split_words(10_001, sizes, byes, policy) == (
        "10001 players: 1 table of 5 and 2499 tables of 4 (sizes allowed: 4, 5)"
    )
    assert (
        split_words(40, [4] * 10, 0, policy) == "40 players: 10 tables of 4 (sizes allowed: 4, 5)"
    )
    eight = split_words(32, [4] * 8, 0, policy)
    assert eight == "32 players: tables of 4, 4, 4, 4, 4, 4, 4, 4 (sizes allowed: 4, 5)"
