"""Properties of standings over random events of mixed table sizes (Hypothesis)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.standings.strategies import events, rules
from tournaments.standings.core import (
    ROUND_METRICS,
    ByeMethod,
    ByeOpponents,
    ByeRule,
    EventResults,
    Metric,
    RoundResults,
    StandingsRules,
    compute_standings,
)

PP, GP = Metric.PLACEMENT_POINTS, Metric.GAME_POINTS


def relabel(event: EventResults, new_id: dict[int, int], rng: random.Random) -> EventResults:
    entrants = [dataclasses.replace(e, id=new_id[e.id]) for e in event.entrants]
    rng.shuffle(entrants)
    rounds = tuple(
        RoundResults(
            number=r.number,
            tables=tuple(
                dataclasses.replace(
                    t,
                    seats=tuple(dataclasses.replace(s, entrant=new_id[s.entrant]) for s in t.seats),
                )
                for t in r.tables
            ),
            byes=tuple(new_id[b] for b in r.byes),
        )
        for r in event.rounds
    )
    return EventResults(entrants=tuple(entrants), rounds=rounds)


def summary(standings) -> dict[int, tuple]:
    return {
        row.entrant: (row.rank, dict(row.values), row.played, row.byes, row.name)
        for row in standings.rows
    }


@given(events(), rules(), st.randoms(use_true_random=False))
def test_permuting_entrants_permutes_the_standings(event, chosen, rng):
    ids = [e.id for e in event.entrants]
    targets = [i + 100 for i in ids]
    rng.shuffle(targets)
    new_id = dict(zip(ids, targets, strict=True))
    before = summary(compute_standings(event, chosen))
    after = summary(compute_standings(relabel(event, new_id, rng), chosen))
    assert after == {new_id[e]: line for e, line in before.items()}


@given(events(), rules(), st.randoms(use_true_random=False))
def test_the_order_entrants_are_given_in_changes_nothing(event, chosen, rng):
    entrants = list(event.entrants)
    rng.shuffle(entrants)
    shuffled = dataclasses.replace(event, entrants=tuple(entrants))
    assert compute_standings(shuffled, chosen) == compute_standings(event, chosen)


def merged(one: EventResults, other: EventResults) -> EventResults:
    numbers = sorted({r.number for r in one.rounds} | {r.number for r in other.rounds})
    rounds = []
    for number in numbers:
        parts = [r for r in (*one.rounds, *other.rounds) if r.number == number]
        rounds.append(
            RoundResults(
                number=number,
                tables=tuple(t for r in parts for t in r.tables),
                byes=tuple(b for r in parts for b in r.byes),
            )
        )
    return EventResults(entrants=one.entrants + other.entrants, rounds=tuple(rounds))


@given(events(first_id=1), events(first_id=100), rules(), st.integers(0, 7))
def test_results_of_other_entrants_never_change_an_entrants_values(one, other, chosen, bye):
    # Fixed byes: a table-average bye is, by definition, about every table of the round.
    chosen = dataclasses.replace(chosen, byes=ByeRule(method=ByeMethod.FIXED, fixed={PP: bye}))
    alone = compute_standings(one, chosen)
    compute_standings(other, chosen)  # another event computed in between
    assert compute_standings(one, chosen) == alone
    together = {row.entrant: row for row in compute_standings(merged(one, other), chosen).rows}
    for row in alone.rows:
        values = {m: v for m, v in row.values.items() if m != Metric.HEAD_TO_HEAD}
        joined = together[row.entrant]
        assert {m: v for m, v in joined.values.items() if m != Metric.HEAD_TO_HEAD} == values
        assert (joined.played, joined.byes) == (row.played, row.byes)


@given(events(), rules())
def test_unconfirmed_tables_never_count(event, chosen):
    confirmed_only = dataclasses.replace(
        event,
        rounds=tuple(
            dataclasses.replace(r, tables=tuple(t for t in r.tables if t.confirmed))
            for r in event.rounds
        ),
    )
    assert compute_standings(confirmed_only, chosen) == compute_standings(event, chosen)


def table_average(rnd: RoundResults) -> dict[Metric, float]:
    """A round's bye value at the table average, from the tables themselves."""
    counted = [t for t in rnd.tables if t.confirmed]
    if not counted:
        return {PP: 0.0, GP: 0.0}
    points = [sum(s.points for s in t.seats) / len(t.seats) for t in counted]
    # Ties share the places they span, so every table hands out the scale's mean of 4.
    return {PP: 4.0, GP: sum(points) / len(points)}


@given(events(), st.sampled_from(list(ByeMethod)), st.integers(0, 7), st.integers(-20, 90))
@settings(max_examples=150)
def test_byes_are_scored_as_configured(event, method, fixed_pp, fixed_gp):
    fixed = {PP: fixed_pp, GP: fixed_gp} if method == ByeMethod.FIXED else {}
    chosen = StandingsRules(metrics=ROUND_METRICS, byes=ByeRule(method=method, fixed=fixed))
    without = dataclasses.replace(
        event, rounds=tuple(dataclasses.replace(r, byes=()) for r in event.rounds)
    )
    base = {row.entrant: row for row in compute_standings(without, chosen).rows}
    result = compute_standings(event, chosen)
    for row in result.rows:
        bye_rounds = [r for r in event.rounds if row.entrant in r.byes]
        assert row.byes == len(bye_rounds)
        played = base[row.entrant]
        for metric in (PP, GP, Metric.WINS):
            if method == ByeMethod.FIXED:
                added = len(bye_rounds) * fixed.get(metric, 0)
            elif method == ByeMethod.OWN_AVERAGE and played.played:
                added = len(bye_rounds) * played.values[metric] / played.played
            elif metric == Metric.WINS:
                continue  # a round's average wins: not worked out here
            else:
                added = sum(table_average(r)[metric] for r in bye_rounds)
            assert row.values[metric] == pytest.approx(played.values[metric] + added, abs=1e-6)


def order_key(row, metrics) -> tuple[float, ...]:
    # Head to head is 1 for the winner of a decided pair, 0 for the loser, none otherwise.
    return tuple(0.5 if row.values[m] is None else row.values[m] for m in metrics)


@given(events(), rules())
def test_ranks_follow_the_metrics_in_order(event, chosen):
    rows = compute_standings(event, chosen).rows
    assert sorted(row.entrant for row in rows) == sorted(e.id for e in event.entrants)
    keys = [order_key(row, chosen.metrics) for row in rows]
    for i, (row, key) in enumerate(zip(rows, keys, strict=True)):
        assert row.rank == 1 + sum(other > key for other in keys)
        if i:
            assert keys[i - 1] >= key
            assert (rows[i - 1].rank == row.rank) == (keys[i - 1] == key)
            if keys[i - 1] == key:
                assert (rows[i - 1].name, rows[i - 1].entrant) < (row.name, row.entrant)


@given(events(), rules())
def test_head_to_head_decides_only_pairs(event, chosen):
    rows = compute_standings(event, chosen).rows
    if Metric.HEAD_TO_HEAD not in chosen.metrics:
        return
    decided = [row for row in rows if row.values[Metric.HEAD_TO_HEAD] is not None]
    assert sum(row.values[Metric.HEAD_TO_HEAD] for row in decided) * 2 == len(decided)
    by_rank = {row.rank: row for row in decided}
    for row in decided:
        if row.values[Metric.HEAD_TO_HEAD] == 1:
            loser = by_rank[row.rank + 1]
            assert loser.values[Metric.HEAD_TO_HEAD] == 0


@given(events(), st.sampled_from(list(ByeMethod)), st.sampled_from(list(ROUND_METRICS)))
@settings(max_examples=100)
def test_a_virtual_opponent_adds_the_entrants_own_strength_for_each_bye(event, method, strength):
    metrics = (Metric.BUCHHOLZ, Metric.OPPONENTS_STRENGTH, strength)
    plain = StandingsRules(metrics=metrics, byes=ByeRule(method=method), strength_of=strength)
    virtual = dataclasses.replace(
        plain, byes=ByeRule(method=method, opponents=ByeOpponents.VIRTUAL_OPPONENT)
    )
    before = {row.entrant: row for row in compute_standings(event, plain).rows}
    for row in compute_standings(event, virtual).rows:
        old = before[row.entrant]
        own = old.values[strength]
        added = row.byes * (own or 0.0)
        buchholz = old.values[Metric.BUCHHOLZ] or 0.0
        assert row.values[Metric.BUCHHOLZ] == pytest.approx(buchholz + added, abs=1e-6)
        assert row.values[Metric.OPPONENTS_STRENGTH] == old.values[Metric.OPPONENTS_STRENGTH]
        assert row.values[strength] == own
