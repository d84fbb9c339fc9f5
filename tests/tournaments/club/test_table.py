"""The season table core: rules, a twelve-night season against a hand computation, ties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.club.core.table import (
    Counting,
    Night,
    SeasonRule,
    Tiebreak,
    season_table,
)

POINTS = (10, 8, 6, 5, 4, 3, 2, 1)

# Twelve nights, four regulars and a few who come and go. Each night lists places
# (1 for first); a player missing from a night was absent.
A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
NIGHTS = [
    {A: 1, B: 2, C: 3, D: 4},  # 1
    {A: 2, B: 1, C: 4, E: 3},  # 2  (D absent)
    {A: 3, B: 4, C: 1, D: 2},  # 3
    {B: 1, C: 2, D: 3, E: 4},  # 4  (A absent)
    {A: 1, C: 2, D: 4, F: 3},  # 5  (B absent)
    {A: 4, B: 3, C: 2, D: 1},  # 6
    {A: 1, B: 2, D: 3},  # 7  (C absent)
    {A: 2, B: 1, C: 3, D: 4, E: 5},  # 8
    {A: 5, B: 4, C: 1, D: 2, E: 3},  # 9
    {A: 1, B: 1, C: 3, D: 4},  # 10 (A and B tie for first)
    {B: 2, C: 1, D: 3},  # 11 (A absent)
    {A: 3, B: 4, C: 2, D: 1},  # 12
]


def nights() -> list[Night]:
    return [Night(number=i, places=p) for i, p in enumerate(NIGHTS, start=1)]


def test_best_8_of_12_with_absences_matches_a_hand_computation():
    rule = SeasonRule(counting=Counting.BEST, best=8, min_nights=6, place_points=POINTS)
    table = season_table(rule, nights())
    rows = {r.player: r for r in table.rows}
    # By hand: each player's night points (10-8-6-5-4-...), the best 8 of them summed.
    # A: nights 1,2,3,5,6,7,8,9,10,12 -> 10,8,6,10,5,10,8,4,10,6 ; best 8: 10*4+8*2+6*2 = 68
    # B: 1,2,3,4,6,7,8,9,10,11,12 -> 8,10,5,10,6,8,10,5,10,8,5 ; best 8: 10*4+8*3+6 = 70
    # C: 1,2,3,4,5,6,8,9,10,11,12 -> 6,5,10,8,8,8,6,10,6,10,8 ; best 8: 10*3+8*4+6 = 68
    # D: 1,3,4,5,6,7,8,9,10,11,12 -> 5,8,6,5,10,6,5,8,5,6,10 ; best 8: 10*2+8*2+6*3+5 = 59
    # E: 2,4,8,9 -> 6,5,4,6 = 21 (4 nights: below the minimum of 6, not ranked)
    # F: 5 -> 6 (not ranked)
    assert {p: rows[p].total for p in rows} == {A: 68, B: 70, C: 68, D: 59, E: 21, F: 6}
    assert [r.player for r in table.rows] == [B, A, C, D, E, F]
    assert rows[B].rank == 1 and rows[D].rank == 4
    assert rows[E].rank is None and rows[F].rank is None
    # A and C tie on 68; wins break it: A won nights 1, 5, 7, 10 (4), C nights 3, 9, 11 (3).
    assert rows[A].wins == 4 and rows[C].wins == 3
    assert (rows[A].rank, rows[C].rank) == (2, 3)
    # Exactly eight nights count for a regular; the counted ones are the best.
    assert sum(n.counted for n in rows[A].nights) == 8
    counted = sorted(n.points for n in rows[A].nights if n.counted)
    dropped = sorted(n.points for n in rows[A].nights if not n.counted)
    assert max(dropped) <= min(counted)
    assert table.nights_held == 12


def test_every_night_summed_and_the_worst_dropped():
    all_rule = SeasonRule(place_points=POINTS)
    drop_rule = SeasonRule(counting=Counting.DROP_WORST, drop=2, place_points=POINTS)
    summed = {r.player: r.total for r in season_table(all_rule, nights()).rows}
    dropped = {r.player: r.total for r in season_table(drop_rule, nights()).rows}
    assert summed[A] == 10 + 8 + 6 + 10 + 5 + 10 + 8 + 4 + 10 + 6
    # Twelve nights held, the worst two dropped: ten count, and A's two absences go first.
    assert dropped[A] == summed[A]
    # B missed one night: the absence and the worst night played (5) are dropped.
    assert dropped[B] == summed[B] - 5


def test_attendance_points_and_places_past_the_list():
    rule = SeasonRule(place_points=(3, 1), attendance=2)
    table = season_table(rule, [Night(1, {1: 1, 2: 2, 3: 3})])
    assert [(r.player, r.total) for r in table.rows] == [(1, 5), (2, 3), (3, 2)]


def test_players_level_on_everything_share_a_rank():
    rule = SeasonRule(place_points=POINTS, tiebreaks=(Tiebreak.WINS,))
    table = season_table(rule, [Night(1, {1: 1, 2: 2}), Night(2, {1: 2, 2: 1})])
    assert [r.rank for r in table.rows] == [1, 1]


def test_recent_tiebreak_prefers_the_better_latest_night():
    rule = SeasonRule(place_points=POINTS, tiebreaks=(Tiebreak.RECENT,))
    table = season_table(rule, [Night(1, {1: 1, 2: 2}), Night(2, {1: 2, 2: 1})])
    assert [(r.player, r.rank) for r in table.rows] == [(2, 1), (1, 2)]


def test_rule_problems_name_their_field():
    bad = SeasonRule(counting=Counting.BEST, best=0, place_points=(1, 5), min_nights=-1)
    fields = {p.field for p in bad.problems()}
    assert fields == {"best", "place_points", "min_nights"}
    assert SeasonRule().problems() == []


places = st.lists(
    st.dictionaries(st.integers(1, 8), st.integers(1, 8), max_size=8), min_size=1, max_size=12
)


@given(places, st.integers(1, 12))
def test_best_n_counts_exactly_the_n_best_nights(raw, best):
    rule = SeasonRule(counting=Counting.BEST, best=best, place_points=POINTS)
    table = season_table(rule, [Night(i, p) for i, p in enumerate(raw, start=1)])
    for row in table.rows:
        points = sorted((n.points for n in row.nights), reverse=True)
        assert row.total == sum(points[:best])
        assert sum(n.counted for n in row.nights) == min(best, len(points))
    ranks = [r.rank for r in table.rows if r.rank is not None]
    assert ranks == sorted(ranks)
    totals = [r.total for r in table.rows]
    assert totals == sorted(totals, reverse=True)


@given(places, st.integers(0, 5))
def test_a_player_below_the_minimum_is_never_ranked(raw, minimum):
    rule = SeasonRule(min_nights=minimum, place_points=POINTS)
    table = season_table(rule, [Night(i, p) for i, p in enumerate(raw, start=1)])
    for row in table.rows:
        assert (row.rank is None) == (row.played < minimum)


def test_names_fold_case_accents_and_letters_with_a_stroke():
    from common.folding import folded as fold_name

    assert fold_name("Łukasz") == fold_name("lukasz") == "lukasz"
    assert fold_name("  Søren   KIERKEGÅRD ") == "soren kierkegard"
    assert fold_name("Zoë") == fold_name("ZOE")
    assert fold_name("Straße") == "strasse"
    assert fold_name("Ann") != fold_name("Anne")
