"""Properties of every format and game, for 2 to 300 entrants over 1 to 15 rounds."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.registry import ENGINES
from tournaments.seating.adapter import table_policy
from tournaments.seating.core import (
    FORMATS,
    Constraints,
    PlayedRound,
    RoundRequest,
    TablePolicy,
    fewest_byes,
    plan_round,
    plan_schedule,
)

GAMES = sorted(ENGINES)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def events(draw, formats=FORMATS):
    game = draw(st.sampled_from(GAMES))
    policy = table_policy(game)
    size = draw(st.none() | st.sampled_from(policy.legal_sizes))
    if size is not None:
        policy = policy.only(size)
    fmt = draw(st.sampled_from(formats))
    if fmt == "round_robin" and policy.preferred % 2:
        fmt = "mixer"
    players = draw(st.integers(2, 300))
    rounds = draw(st.integers(1, 15 if players <= 60 else 4))
    seed = draw(st.integers(0, 2**16))
    return game, policy, fmt, players, rounds, seed


def check_round(plan, entrants, policy: TablePolicy, fmt: str) -> None:
    seated = [e for t in plan.tables for e in t]
    assert sorted(seated + list(plan.byes)) == sorted(entrants), "seated once or on a bye"
    for table in plan.tables:
        assert len(table) in policy.legal_sizes, f"table of {len(table)} is not legal"
    if fmt != "round_robin":
        assert len(plan.byes) == fewest_byes(len(entrants), policy)


@SETTINGS
@given(events())
def test_every_round_is_legal_with_fewest_byes_spread_within_one(event):
    _, policy, fmt, players, rounds, seed = event
    entrants = list(range(players))
    schedule = plan_schedule(entrants, policy, rounds, format=fmt, seed=seed, effort=0)
    byes: Counter[int] = Counter()
    for plan in schedule.rounds:
        check_round(plan, entrants, policy, fmt)
        if fmt != "round_robin":
            resting = set(plan.byes)
            playing = [e for e in entrants if e not in resting]
            if resting and playing:
                assert max(byes[e] for e in resting) <= min(byes[e] for e in playing), (
                    "byes go to those with the fewest: no second before everyone had one"
                )
            byes.update(resting)
            spread = max(byes[e] for e in entrants) - min(byes[e] for e in entrants)
            assert spread <= 1
            assert plan.report.bye_spread == spread


@settings(max_examples=15, deadline=None)
@given(events())
def test_same_seed_same_schedule(event):
    _, policy, fmt, players, rounds, seed = event
    rounds = min(rounds, 4)
    first = plan_schedule(list(range(players)), policy, rounds, format=fmt, seed=seed)
    again = plan_schedule(list(range(players)), policy, rounds, format=fmt, seed=seed)
    assert [(p.tables, p.byes) for p in first.rounds] == [(p.tables, p.byes) for p in again.rounds]


@SETTINGS
@given(events(formats=("mixer", "swiss")), st.data())
def test_keep_apart_and_fixed_tables_are_respected(event, data):
    _, policy, fmt, players, rounds, seed = event
    rounds = min(rounds, 5)
    tables = (players - fewest_byes(players, policy)) // max(policy.legal_sizes)
    entrants = list(range(players))
    shuffled = data.draw(st.permutations(entrants))
    apart = (
        tuple((shuffled[2 * i], shuffled[2 * i + 1]) for i in range(min(3, players // 2)))
        if tables >= 3
        else ()
    )
    access = {shuffled[-1]: 0}
    constraints = Constraints(keep_apart=apart, fixed_table=access)
    schedule = plan_schedule(
        entrants, policy, rounds, format=fmt, seed=seed, constraints=constraints
    )
    for plan in schedule.rounds:
        check_round(plan, entrants, policy, fmt)
        where = {e: i for i, t in enumerate(plan.tables) for e in t}
        for a, b in apart:
            assert a not in where or where[a] != where.get(b), f"{a} and {b} kept apart"
        for entrant, table in access.items():
            if entrant in where and table < len(plan.tables):
                assert where[entrant] == table
        assert plan.report.keep_apart_broken == 0


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 60), st.integers(0, 2**16), st.data())
def test_fixed_teams_sit_as_one_side(players, seed, data):
    policy = table_policy("roller_derby")
    entrants = list(range(players))
    shuffled = data.draw(st.permutations(entrants))
    teams = tuple((shuffled[2 * i], shuffled[2 * i + 1]) for i in range(min(3, players // 4)))
    schedule = plan_schedule(
        entrants, policy, 3, seed=seed, constraints=Constraints(fixed_teams=teams)
    )
    for plan in schedule.rounds:
        check_round(plan, entrants, policy, "mixer")
        seat = {e: (i, s) for i, t in enumerate(plan.tables) for s, e in enumerate(t)}
        for a, b in teams:
            if a in seat and b in seat:
                assert seat[a][0] == seat[b][0], "a fixed team shares a table"
                assert seat[a][1] % 2 == seat[b][1] % 2, "and one side of it"


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(GAMES), st.integers(2, 120), st.integers(0, 2**16), st.data())
def test_drops_and_late_entries_between_rounds(game, players, seed, data):
    policy = table_policy(game)
    entrants = list(range(players))
    history: list[PlayedRound] = []
    for _ in range(4):
        plan = plan_round(
            RoundRequest(entrants=tuple(entrants), policy=policy, history=tuple(history), seed=seed)
        )
        check_round(plan, entrants, policy, "mixer")
        history.append(plan.as_played())
        drops = data.draw(st.lists(st.sampled_from(entrants), max_size=3, unique=True))
        late = data.draw(st.integers(0, 3))
        entrants = [e for e in entrants if e not in drops]
        entrants += list(range(1000 + len(history) * 10, 1000 + len(history) * 10 + late))
        if not entrants:
            break


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAMES), st.integers(2, 300))
def test_exact_constructions_never_repeat_a_pair(game, players):
    policy = table_policy(game)
    schedule = plan_schedule(list(range(players)), policy, 3, seed=1)
    for plan in schedule.rounds:
        if plan.report.method.startswith(("cyclic", "affine")):
            assert plan.report.repeated_pairs == 0
        assert plan.report.repeated_pairs >= 0
        assert plan.report.lower_bound <= plan.report.repeated_pairs or (
            plan.report.method.startswith("greedy")
        )
