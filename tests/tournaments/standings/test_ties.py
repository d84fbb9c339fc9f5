"""Head to head breaks a tie only between exactly two entrants who met."""

from __future__ import annotations

from tests.tournaments.standings.event import table
from tournaments.standings.core import (
    ByeMethod,
    ByeRule,
    Entrant,
    EventResults,
    Metric,
    RoundResults,
    SeatResult,
    StandingsRules,
    TableResult,
    compute_standings,
)

RULES = StandingsRules(metrics=(Metric.PLACEMENT_POINTS, Metric.HEAD_TO_HEAD))


def ranks(event: EventResults) -> list[tuple[int, int, float | None]]:
    return [
        (row.rank, row.entrant, row.values[Metric.HEAD_TO_HEAD])
        for row in compute_standings(event, RULES).rows
    ]


def entrants(count: int) -> tuple[Entrant, ...]:
    return tuple(Entrant(id=i, name=f"P{i}") for i in range(1, count + 1))


def test_two_tied_who_never_met_stay_tied():
    # 1 beats 2, 3 beats 4 at tables of two: 7 and 1 point each.
    event = EventResults(
        entrants=entrants(4),
        rounds=(RoundResults(1, (table(1, (1, 9, 1), (2, 3, 2)), table(2, (3, 9, 1), (4, 3, 2)))),),
    )
    assert ranks(event) == [(1, 1, None), (1, 3, None), (3, 2, None), (3, 4, None)]


def test_a_three_way_tie_is_not_broken_by_head_to_head():
    # 1 beats 2, 2 beats 3, 3 beats 1, each sitting out once at 4 (own average of 7 and 1).
    event = EventResults(
        entrants=entrants(3),
        rounds=(
            RoundResults(1, (table(1, (1, 9, 1), (2, 3, 2)),), byes=(3,)),
            RoundResults(2, (table(1, (2, 9, 1), (3, 3, 2)),), byes=(1,)),
            RoundResults(3, (table(1, (3, 9, 1), (1, 3, 2)),), byes=(2,)),
        ),
    )
    assert ranks(event) == [(1, 1, None), (1, 2, None), (1, 3, None)]


def test_partners_are_not_opponents():
    # 1 and 2 won together against 3 and 4: a table of two sides, 7 and 1 points.
    teams = TableResult(
        number=1,
        seats=tuple(
            SeatResult(entrant=e, points=p, place=pl, side=side)
            for e, p, pl, side in (
                (1, 50, 1, "A"),
                (3, 10, 2, "B"),
                (2, 50, 1, "A"),
                (4, 10, 2, "B"),
            )
        ),
    )
    event = EventResults(entrants=entrants(4), rounds=(RoundResults(1, (teams,)),))
    # 1 and 2 tie on 7 points but met only as partners: no head to head.
    assert ranks(event) == [(1, 1, None), (1, 2, None), (3, 3, None), (3, 4, None)]


def test_an_even_record_between_the_two_stays_tied():
    event = EventResults(
        entrants=entrants(2),
        rounds=(
            RoundResults(1, (table(1, (1, 9, 1), (2, 3, 2)),)),
            RoundResults(2, (table(1, (1, 3, 2), (2, 9, 1)),)),
        ),
    )
    assert ranks(event) == [(1, 1, None), (1, 2, None)]


def test_the_one_who_finished_ahead_when_they_met_ranks_higher():
    # Game points: 3 has 0 + 100; 1 has 60 + a bye worth 0; 2 has 40 + 20. 1 and 2 tie on 60
    # and met in round 1, where 1 finished ahead.
    event = EventResults(
        entrants=entrants(3),
        rounds=(
            RoundResults(1, (table(1, (1, 60, 1), (2, 40, 2), (3, 0, 3)),)),
            RoundResults(2, (table(1, (2, 20, 2), (3, 100, 1)),), byes=(1,)),
        ),
    )
    rules = StandingsRules(
        metrics=(Metric.GAME_POINTS, Metric.HEAD_TO_HEAD),
        byes=ByeRule(method=ByeMethod.FIXED, fixed={Metric.GAME_POINTS: 0}),
    )
    rows = compute_standings(event, rules).rows
    assert [(r.rank, r.entrant, r.values[Metric.HEAD_TO_HEAD]) for r in rows] == [
        (1, 3, None),
        (2, 1, 1),
        (3, 2, 0),
    ]
