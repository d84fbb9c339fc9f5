"""Turning a scored game into a table result, and every mistake in results named."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES
from tests.tournaments.standings.event import SMALL_EVENT, table
from tournaments.standings.core import (
    ByeRule,
    Entrant,
    EventResults,
    InvalidResults,
    Metric,
    RoundResults,
    SeatResult,
    StandingsRules,
    TableResult,
    compute_standings,
    default_rules,
    places_from_totals,
    table_from_game,
)


@pytest.mark.parametrize(
    ("totals", "winners", "teams", "places"),
    [
        ([50, 30, 10], [], None, [1, 2, 3]),
        ([30, 50, 50, -10], [], None, [3, 1, 1, 4]),
        ([30, 50, 10], [0], None, [1, 2, 3]),  # the engine's winner comes first
        ([30, 30, 10], [0, 1], None, [1, 1, 3]),
        ([200, 150, 200, 150], [0, 2], {"A": [0, 2], "B": [1, 3]}, [1, 2, 1, 2]),
        ([-40, 90, -40, 90], [1, 3], {"A": [0, 2], "B": [1, 3]}, [2, 1, 2, 1]),
        ([80, 80, 80, 80, 80, 80], [], {"A": [0, 2, 4], "B": [1, 3, 5]}, [1] * 6),
    ],
)
def test_places_from_an_engines_totals_and_winners(totals, winners, teams, places):
    assert places_from_totals(totals, winners, teams) == places


def test_a_two_team_table_is_a_table_of_two_sides():
    result = table_from_game(
        number=1,
        entrants=[1, 2, 3, 4, 5, 6],
        totals=[310, -50, 310, -50, 310, -50],
        winners=[0, 2, 4],
        teams={"A": [0, 2, 4], "B": [1, 3, 5]},
    )
    event = EventResults(
        entrants=tuple(Entrant(id=i, name=str(i)) for i in range(1, 7)),
        rounds=(RoundResults(number=1, tables=(result,)),),
    )
    rules = StandingsRules(metrics=(Metric.PLACEMENT_POINTS, Metric.SHARE, Metric.WINS))
    rows = {r.entrant: r.values for r in compute_standings(event, rules).rows}
    # Two sides: 7 and 1 point; shares 2 x 360 / 360 = 2 and 0 after raising -50 to 0.
    assert {e: tuple(v.values()) for e, v in rows.items()} == {
        1: (7, 2, 1),
        3: (7, 2, 1),
        5: (7, 2, 1),
        2: (1, 0, 0),
        4: (1, 0, 0),
        6: (1, 0, 0),
    }


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_engines_finished_game_becomes_a_table_result(game):
    sample = importlib.import_module(f"scoring.engines.samples.{game}").sample_record
    scored = ENGINES[game].score(parse_record(sample(rounds=12, seed=3), ENGINES))
    seats = len(scored.players)
    result = table_from_game(
        number=1,
        entrants=list(range(1, seats + 1)),
        totals=scored.totals,
        winners=scored.winners,
        teams=scored.teams,
    )
    for seat, entry in enumerate(result.seats):
        ahead = {
            s.side or f"seat {i}"
            for i, s in enumerate(result.seats)
            if (i in scored.winners, scored.totals[i])
            > (seat in scored.winners, scored.totals[seat])
        }
        assert entry.place == 1 + len(ahead)
    event = EventResults(
        entrants=tuple(Entrant(id=i, name=str(i)) for i in range(1, seats + 1)),
        rounds=(RoundResults(number=1, tables=(result,)),),
    )
    rows = compute_standings(event, default_rules(game)).rows
    assert sorted(row.entrant for row in rows) == list(range(1, seats + 1))


def _event(*tables: TableResult, byes: tuple[int, ...] = (), entrants: int = 8) -> EventResults:
    return EventResults(
        entrants=tuple(Entrant(id=i, name=f"P{i}") for i in range(1, entrants + 1)),
        rounds=(RoundResults(number=2, tables=tables, byes=byes),),
    )


BAD = [
    (
        _event(table(4, (1, 10, 1), (9, 5, 2))),
        "round 2: table 4: entrant 9 is not registered",
    ),
    (
        _event(table(1, (1, 10, 1), (2, 5, 2)), table(2, (1, 3, 1), (3, 1, 2))),
        "round 2: entrant 1 is placed 2 times in the round",
    ),
    (
        _event(table(1, (1, 10, 1), (2, 5, 2)), byes=(2,)),
        "round 2: entrant 2 is placed 2 times in the round",
    ),
    (
        _event(table(1, (1, 10, 1), (2, 5, 2)), byes=(12,)),
        "round 2: bye for entrant 12, who is not registered",
    ),
    (
        _event(table(3, (1, 10, 1), (2, 5, 3))),
        "round 2: table 3: place 3 does not follow the places ahead of it (expected 2)",
    ),
    (
        _event(table(3, (1, 10, 1))),
        "round 2: table 3: a table needs at least two sides",
    ),
    (
        _event(
            TableResult(
                number=5,
                seats=(
                    SeatResult(entrant=1, points=10, place=1, side="A"),
                    SeatResult(entrant=2, points=5, place=2, side="B"),
                    SeatResult(entrant=3, points=9, place=1, side="A"),
                    SeatResult(entrant=4, points=5, place=2, side="B"),
                ),
            )
        ),
        "round 2: table 5: team A has seats with different results",
    ),
    (
        _event(table(6, *((i, i, 12 - i) for i in range(1, 12))), entrants=11),
        "round 2: table 6: no placement scale for 11 sides",
    ),
]


@pytest.mark.parametrize(("event", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_results_are_named_by_round_and_table(event, message):
    rules = StandingsRules(metrics=(Metric.PLACEMENT_POINTS,))
    with pytest.raises(InvalidResults) as raised:
        compute_standings(event, rules)
    assert [str(p) for p in raised.value.problems] == [message]


BAD_RULES = [
    (StandingsRules(metrics=()), "choose at least one metric", "metrics"),
    (
        StandingsRules(metrics=(Metric.WINS, Metric.WINS)),
        "metric wins is chosen twice",
        "metrics",
    ),
    (
        StandingsRules(metrics=(Metric.WINS,), strength_of=Metric.BUCHHOLZ),
        "strength must be one of placement_points, game_points, share, wins, firsts",
        "strength_of",
    ),
    (
        StandingsRules(metrics=(Metric.WINS,), byes=ByeRule(fixed={Metric.BUCHHOLZ: 3})),
        "a bye cannot give a value for buchholz",
        "byes",
    ),
    (
        StandingsRules(metrics=(Metric.WINS,), scales={3: (3, 2)}),
        "placement scale for 3: needs 3 values, one per place, not 2",
        "scales",
    ),
]


@pytest.mark.parametrize(("rules", "message", "field"), BAD_RULES, ids=[m for _, m, _ in BAD_RULES])
def test_bad_rules_are_named_by_field(rules, message, field):
    with pytest.raises(InvalidResults) as raised:
        compute_standings(SMALL_EVENT, rules)
    assert [(p.message, p.field) for p in raised.value.problems] == [(message, field)]


def test_a_directors_own_scale_replaces_the_default_for_its_size():
    rules = StandingsRules(metrics=(Metric.PLACEMENT_POINTS,), scales={3: (4, 2, 1)})
    rows = {
        r.entrant: r.values[Metric.PLACEMENT_POINTS]
        for r in compute_standings(SMALL_EVENT, rules).rows
    }
    # Cat: 2nd of 3 in round 1 (2), 1st of 3 in round 2 (4); tables of 4 keep 7-5-3-1.
    assert rows[3] == 2 + 4
    assert rows[1] == 7 + 1 + 1  # Ann: 1st of 4, 3rd of 3, 4th of 4


def test_a_shared_first_place_is_a_first_for_each_and_a_split_win():
    shared = table_from_game(number=1, entrants=[1, 2, 3], totals=[70, 70, 20])
    event = EventResults(
        entrants=tuple(Entrant(id=i, name=str(i)) for i in range(1, 4)),
        rounds=(RoundResults(number=1, tables=(shared,)),),
    )
    rules = StandingsRules(metrics=(Metric.PLACEMENT_POINTS, Metric.WINS, Metric.FIRSTS))
    rows = {r.entrant: tuple(r.values.values()) for r in compute_standings(event, rules).rows}
    assert rows == {1: ((7 + 4) / 2, 0.5, 1), 2: ((7 + 4) / 2, 0.5, 1), 3: (1, 0, 0)}


@st.composite
def scored_tables(draw):
    """Any engine-like result: totals (teams' seats level, or not), winners, teams."""
    size = draw(st.integers(1, 8))
    totals = draw(st.lists(st.integers(-300, 300), min_size=size, max_size=size))
    seats = list(range(size))
    teams: dict[str, list[int]] | None = None
    if size >= 2 and draw(st.booleans()):
        labels = draw(st.lists(st.sampled_from("ABCD"), min_size=size, max_size=size))
        teams = {}
        for seat, label in zip(seats, labels, strict=True):
            teams.setdefault(label, []).append(seat)
        if draw(st.booleans()):  # most engines give every seat of a team its team's total
            for members in teams.values():
                for seat in members:
                    totals[seat] = totals[members[0]]
    winners = draw(st.lists(st.sampled_from(seats), max_size=size, unique=True))
    return totals, winners, teams


@given(scored_tables())
def test_a_table_from_a_game_knows_its_sides_and_soundness_as_a_fresh_look_would(scored):
    """What a table from a game keeps (its sides, its own problems) is what working them
    out again from its seats gives, so validation and scoring may take it as it is."""
    totals, winners, teams = scored
    made = table_from_game(
        number=3,
        entrants=list(range(10, 10 + len(totals))),
        totals=totals,
        winners=winners,
        teams=teams,
    )
    fresh = TableResult(number=made.number, seats=made.seats, confirmed=made.confirmed)
    assert made.sides() == fresh.sides()
    assert made._shape_problems == fresh._shape_problems
