"""Hypothesis strategies: whole events of mixed table sizes, byes and unconfirmed tables."""

from __future__ import annotations

from hypothesis import strategies as st

from tournaments.standings.core import (
    ByeMethod,
    ByeRule,
    Entrant,
    EventResults,
    Metric,
    RoundResults,
    StandingsRules,
    table_from_game,
)

NAMES = ("Ann", "Ben", "Cat", "Dan")  # few names, so that equal names happen


@st.composite
def events(draw, first_id: int = 1, max_entrants: int = 14, max_rounds: int = 4) -> EventResults:
    count = draw(st.integers(2, max_entrants))
    ids = list(range(first_id, first_id + count))
    entrants = tuple(Entrant(id=i, name=draw(st.sampled_from(NAMES))) for i in ids)
    rounds = []
    for number in range(1, draw(st.integers(1, max_rounds)) + 1):
        order = draw(st.permutations(ids))
        tables = []
        at = 0
        while len(order) - at >= 2:
            size = draw(st.integers(2, min(6, len(order) - at)))
            seated = order[at : at + size]
            at += size
            teams = None
            if size in (4, 6) and draw(st.booleans()):
                teams = {"A": list(range(0, size, 2)), "B": list(range(1, size, 2))}
            if teams:
                team_totals = draw(st.lists(st.integers(-60, 150), min_size=2, max_size=2))
                totals = [team_totals[seat % 2] for seat in range(size)]
            else:
                totals = draw(st.lists(st.integers(-60, 150), min_size=size, max_size=size))
            tables.append(
                table_from_game(
                    number=len(tables) + 1,
                    entrants=seated,
                    totals=totals,
                    teams=teams,
                    confirmed=draw(st.integers(0, 5)) > 0,
                )
            )
        byes = tuple(order[at:])  # whoever is left over sits out
        rounds.append(RoundResults(number=number, tables=tuple(tables), byes=byes))
    return EventResults(entrants=entrants, rounds=tuple(rounds))


bye_rules = st.one_of(
    st.just(ByeRule(method=ByeMethod.OWN_AVERAGE)),
    st.just(ByeRule(method=ByeMethod.TABLE_AVERAGE)),
    st.builds(
        lambda pp, gp: ByeRule(
            method=ByeMethod.FIXED, fixed={Metric.PLACEMENT_POINTS: pp, Metric.GAME_POINTS: gp}
        ),
        st.integers(0, 7),
        st.integers(-20, 100),
    ),
)


@st.composite
def rules(draw) -> StandingsRules:
    metrics = draw(st.lists(st.sampled_from(list(Metric)), min_size=1, max_size=5, unique=True))
    return StandingsRules(
        metrics=tuple(metrics),
        byes=draw(bye_rules),
        strength_of=draw(
            st.sampled_from(
                [Metric.PLACEMENT_POINTS, Metric.WINS, Metric.SHARE, Metric.GAME_POINTS]
            )
        ),
    )
