"""Exact standings of a small event, every figure worked out by hand below.

Placement points by round (4 players: 7-5-3-1, 3 players: 7-4-1; Ben and Dan
share 2nd in round 1: (5 + 3) / 2 = 4; round 3's table of three is unconfirmed):

    Ann 7 + 1 + 1 = 9      Eve 7 + 7 = 14
    Ben 4 + 3     = 7      Fay 1 + bye + 7, bye = own average (1 + 7) / 2 = 4: 12
    Cat 4 + 7     = 11     Gus 1 + 1 + bye, bye = (1 + 1) / 2 = 1: 3
    Dan 4 + 4 + 3 = 11     Hal bye + 5 + 5, bye = 5: 15

Cat and Dan tie on 11; they met in round 2 where Cat finished ahead, so head to
head puts Cat first although Dan has more game points (140 against 90).
"""

from __future__ import annotations

import pytest

from tests.tournaments.standings.event import (
    ANN,
    BEN,
    CAT,
    DAN,
    EVE,
    FAY,
    GUS,
    HAL,
    SMALL_EVENT,
    table,
)
from tournaments.standings.core import (
    ByeMethod,
    ByeOpponents,
    ByeRule,
    Entrant,
    EventResults,
    Metric,
    RoundResults,
    StandingsRules,
    compute_standings,
)

PP, GP, SHARE, WINS, FIRSTS = (
    Metric.PLACEMENT_POINTS,
    Metric.GAME_POINTS,
    Metric.SHARE,
    Metric.WINS,
    Metric.FIRSTS,
)
OS, BH, MBH, H2H = (
    Metric.OPPONENTS_STRENGTH,
    Metric.BUCHHOLZ,
    Metric.MEDIAN_BUCHHOLZ,
    Metric.HEAD_TO_HEAD,
)
PLACEMENT = {ANN: 9, BEN: 7, CAT: 11, DAN: 11, EVE: 14, FAY: 12, GUS: 3, HAL: 15}


def standings(*metrics: Metric, byes: ByeRule | None = None):
    rules = StandingsRules(metrics=metrics, byes=byes or ByeRule())
    return compute_standings(SMALL_EVENT, rules)


def by_entrant(result):
    return {row.entrant: row for row in result.rows}


def test_order_and_ranks_with_head_to_head():
    result = standings(PP, H2H, GP)
    order = [(row.rank, row.entrant) for row in result.rows]
    assert order == [
        (1, HAL),
        (2, EVE),
        (3, FAY),
        (4, CAT),
        (5, DAN),
        (6, ANN),
        (7, BEN),
        (8, GUS),
    ]
    rows = by_entrant(result)
    assert rows[CAT].values[H2H] == 1
    assert rows[DAN].values[H2H] == 0
    assert all(rows[e].values[H2H] is None for e in (HAL, EVE, FAY, ANN, BEN, GUS))


def test_without_head_to_head_game_points_decide_the_other_way():
    rows = standings(PP, GP).rows
    assert [row.entrant for row in rows[3:5]] == [DAN, CAT]


def test_without_a_tiebreak_the_tied_pair_shares_a_rank_listed_by_name():
    rows = standings(PP).rows
    assert [(row.rank, row.entrant) for row in rows[3:6]] == [(4, CAT), (4, DAN), (6, ANN)]


def test_placement_points_with_own_average_byes():
    rows = by_entrant(standings(PP))
    assert {e: row.values[PP] for e, row in rows.items()} == PLACEMENT


def test_played_and_byes_count_only_confirmed_tables():
    rows = by_entrant(standings(PP))
    assert {e: (r.played, r.byes) for e, r in rows.items()} == {
        ANN: (3, 0),
        BEN: (2, 0),  # round 3 unconfirmed
        CAT: (2, 0),
        DAN: (3, 0),
        EVE: (2, 0),
        FAY: (2, 1),
        GUS: (2, 1),
        HAL: (2, 1),
    }


def test_game_points_wins_and_firsts():
    rows = by_entrant(standings(GP, WINS, FIRSTS))
    got = {e: (r.values[GP], r.values[WINS], r.values[FIRSTS]) for e, r in rows.items()}
    assert got == {
        ANN: (120 + 20 - 30, 1, 1),
        BEN: (80 + 40, 0, 0),
        CAT: (30 + 60, 1, 1),
        DAN: (80 + 50 + 10, 0, 0),
        EVE: (50 + 100, 2, 2),
        FAY: (10 + 90 + (10 + 90) / 2, 1 + 0.5, 1 + 0.5),  # bye: own average
        GUS: (-20 + 0 + (-20 + 0) / 2, 0, 0),
        HAL: ((70 + 40) / 2 + 70 + 40, 0, 0),
    }


def test_share_of_table_points_raises_negative_tables_to_zero():
    # Round 1 table 1: 120, 80, 80, -20 -> floor -20: 140, 100, 100, 0 of 340, times 4 seats.
    # Round 1 table 2: 50, 30, 10 of 90, times 3. Round 2: 100, 70, 40, 0 of 210 times 4;
    # 60, 50, 20 of 130 times 3. Round 3: 90, 40, 10, -30 -> 120, 70, 40, 0 of 230 times 4.
    expected = {
        ANN: 4 * 140 / 340 + 3 * 20 / 130 + 0,
        BEN: 4 * 100 / 340 + 4 * 40 / 210,
        CAT: 3 * 30 / 90 + 3 * 60 / 130,
        DAN: 4 * 100 / 340 + 3 * 50 / 130 + 4 * 40 / 230,
        EVE: 3 * 50 / 90 + 4 * 100 / 210,
        FAY: 3 * 10 / 90 + 4 * 120 / 230,
        GUS: 0 + 0,
        HAL: 4 * 70 / 210 + 4 * 70 / 230,
    }
    expected[FAY] += expected[FAY] / 2  # a bye worth the average of her two tables
    expected[HAL] += expected[HAL] / 2
    rows = by_entrant(standings(SHARE))
    for entrant, share in expected.items():
        assert rows[entrant].values[SHARE] == pytest.approx(share, abs=1e-9), entrant


def test_opponent_strength_counts_every_table_mate():
    p = PLACEMENT
    rows = by_entrant(standings(OS, BH, MBH))
    ann = rows[ANN].values
    ann_rounds = [
        (p[BEN] + p[DAN] + p[GUS]) / 3,
        (p[CAT] + p[DAN]) / 2,
        (p[FAY] + p[HAL] + p[DAN]) / 3,
    ]
    assert ann[OS] == (7 + 11 + 3) + (11 + 11) + (12 + 15 + 11)
    assert ann[BH] == pytest.approx(sum(ann_rounds), abs=1e-9)
    assert ann[MBH] == pytest.approx(11, abs=1e-9)  # 7, 11 and 12.67 without the extremes
    hal = rows[HAL].values
    assert hal[OS] == (14 + 7 + 3) + (12 + 11 + 9)  # the bye adds nothing
    assert hal[BH] == pytest.approx((14 + 7 + 3) / 3 + (12 + 11 + 9) / 3, abs=1e-9)
    assert hal[MBH] == hal[BH]  # two rounds: nothing is dropped


def test_byes_at_a_fixed_value():
    rule = ByeRule(method=ByeMethod.FIXED, fixed={PP: 2, GP: 10})
    rows = by_entrant(standings(PP, GP, WINS, byes=rule))
    assert rows[HAL].values == {PP: 2 + 5 + 5, GP: 10 + 70 + 40, WINS: 0}
    assert rows[FAY].values == {PP: 1 + 2 + 7, GP: 10 + 10 + 90, WINS: 1}
    assert rows[GUS].values == {PP: 1 + 1 + 2, GP: -20 + 0 + 10, WINS: 0}


def test_fixed_byes_default_to_an_average_placement_and_nothing_else():
    rows = by_entrant(standings(PP, GP, byes=ByeRule(method=ByeMethod.FIXED)))
    assert rows[HAL].values == {PP: 4 + 5 + 5, GP: 0 + 70 + 40}


def test_byes_at_the_table_average():
    # Placement points: every table hands out 4 per player on average.
    # Game points: round 1 tables average 260 / 4 = 65 and 90 / 3 = 30;
    # round 2: 210 / 4 and 130 / 3; round 3 counts only its first table: 110 / 4.
    rows = by_entrant(standings(PP, GP, byes=ByeRule(method=ByeMethod.TABLE_AVERAGE)))
    assert rows[HAL].values[PP] == 4 + 5 + 5
    assert rows[FAY].values[PP] == 1 + 4 + 7
    assert rows[GUS].values[PP] == 1 + 1 + 4
    assert rows[HAL].values[GP] == pytest.approx((65 + 30) / 2 + 70 + 40)
    assert rows[FAY].values[GP] == pytest.approx(10 + (210 / 4 + 130 / 3) / 2 + 90)
    assert rows[GUS].values[GP] == pytest.approx(-20 + 0 + 110 / 4)


def test_values_follow_the_chosen_metric_order():
    result = standings(GP, PP, FIRSTS)
    assert result.metrics == (GP, PP, FIRSTS)
    assert all(list(row.values) == [GP, PP, FIRSTS] for row in result.rows)
    assert [row.entrant for row in result.rows][:2] == [
        HAL,
        EVE,
    ]  # Hal 165; Eve and Fay 150, Eve 14 pp to 12


def test_buchholz_counts_a_virtual_opponent_for_each_bye_when_chosen():
    plain = by_entrant(standings(PP, BH, MBH))
    virtual = by_entrant(
        standings(PP, BH, MBH, byes=ByeRule(opponents=ByeOpponents.VIRTUAL_OPPONENT))
    )
    for entrant, row in plain.items():
        own = row.values[PP]
        # One virtual round, as strong as the entrant, for each bye.
        assert virtual[entrant].values[BH] == pytest.approx(row.values[BH] + row.byes * own)
        assert virtual[entrant].values[PP] == own
    assert any(row.byes for row in plain.values())
    # Hal played round 1 as a bye: without the virtual opponent he has one round less.
    assert virtual[HAL].values[BH] > plain[HAL].values[BH]


def test_the_virtual_opponent_changes_nothing_without_byes():
    event = EventResults(
        entrants=(Entrant(id=1, name="A"), Entrant(id=2, name="B"), Entrant(id=3, name="C")),
        rounds=(RoundResults(number=1, tables=(table(1, (1, 10, 1), (2, 5, 2), (3, 0, 3)),)),),
    )
    plain = compute_standings(event, StandingsRules(metrics=(PP, BH)))
    virtual = compute_standings(
        event,
        StandingsRules(metrics=(PP, BH), byes=ByeRule(opponents=ByeOpponents.VIRTUAL_OPPONENT)),
    )
    assert plain == virtual
