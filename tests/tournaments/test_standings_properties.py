"""Standings properties over small random events, through the services (Hypothesis).

Events are built as export documents and imported, so the same tables can be
registered in another order, or beside another event.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.registry import score_data
from tournaments.events import selectors, services
from tournaments.events.document import EXPORT_FORMAT

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


@st.composite
def deal(draw, size: int) -> dict:
    bidder = draw(st.integers(0, size - 1))
    won = draw(st.integers(34, 60)) * 5  # 170..300: the bid is always made
    if size == 4:
        ours, theirs = ("A", "B") if bidder % 2 == 0 else ("B", "A")
        return {"bidder": bidder, "bid": 170, "won": {ours: won, theirs: 300 - won}}
    return {"bidder": bidder, "bid": 170, "won": {"bidder": won, "opponents": 300 - won}}


def played(deals: list[dict], size: int) -> list[dict]:
    """The deals up to the one that ends the game (a table stops there)."""
    players = NAMES[:size]
    for end in range(1, len(deals) + 1):
        record = {"game": "roolz", "players": players, "options": {"target": 300}}
        if score_data({**record, "format": 1, "rounds": deals[:end]}).finished:
            return deals[:end]
    return deals


@st.composite
def events(draw) -> dict:
    """An export document: players at tables of 3 and 4, the rest on byes, 1 to 3 rounds."""
    count = draw(st.integers(6, len(NAMES)))
    bye_scoring = draw(st.sampled_from(["average", "fixed", "table_average"]))
    rounds = []
    for number in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(range(count)))
        sizes = draw(st.lists(st.sampled_from([3, 4]), min_size=1, max_size=count // 3))
        tables, at = [], 0
        for size in sizes:
            if at + size > count:
                break
            seated = order[at : at + size]
            at += size
            deals = played([draw(deal(size)) for _ in range(draw(st.integers(2, 4)))], size)
            tables.append(
                {
                    "number": len(tables) + 1,
                    "seats": [{"entrant": i, "member": 0} for i in seated],
                    "game": {
                        "format": 1,
                        "game": "roolz",
                        "players": [NAMES[i] for i in seated],
                        "options": {"target": 300},
                        "first_dealer": 0,
                        "rounds": deals,
                    },
                }
            )
        rounds.append(
            {"number": number, "status": "published", "report": {}, "tables": tables,
             "byes": sorted(order[at:])}
        )  # fmt: skip
    return {
        "format": EXPORT_FORMAT,
        "event": {"name": "Random", "game": "roolz", "options": {"target": 300},
                  "bye_scoring": bye_scoring, "bye_value": 3, "rounds_planned": 3},
        "entrants": [{"name": NAMES[i]} for i in range(count)],
        "rounds": rounds,
    }  # fmt: skip


def relabelled(document: dict, order: list[int]) -> dict:
    """The same event with its entrants registered in ``order`` (old index per new place)."""
    new_index = {old: new for new, old in enumerate(order)}
    rounds = [
        {
            **rnd,
            "tables": [
                {**t, "seats": [{**s, "entrant": new_index[s["entrant"]]} for s in t["seats"]]}
                for t in rnd["tables"]
            ],
            "byes": sorted(new_index[b] for b in rnd["byes"]),
        }
        for rnd in document["rounds"]
    ]
    entrants = [document["entrants"][old] for old in order]
    return {**document, "entrants": entrants, "rounds": rounds}


def by_name(event) -> dict[str, tuple]:
    return {
        row.name: (row.rank, row.values, row.played, row.byes)
        for row in selectors.standings_for(event=event).rows
    }


SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director")


@SETTINGS
@given(document=events(), data=st.data())
def test_registration_order_permutes_the_standings(director, document, data):
    order = data.draw(st.permutations(range(len(document["entrants"]))))
    first = services.event_import(data=document, owner=director)
    second = services.event_import(data=relabelled(document, list(order)), owner=director)
    assert by_name(second) == by_name(first)
    names = [row.name for row in selectors.standings_for(event=second).rows]
    assert sorted(names) == sorted(e["name"] for e in document["entrants"])


@SETTINGS
@given(document=events(), other=events())
def test_another_events_results_never_change_this_one(director, document, other):
    event = services.event_import(data=document, owner=director)
    before = by_name(event)
    services.event_import(data=other, owner=director)
    assert by_name(event) == before


@SETTINGS
@given(document=events())
def test_byes_are_scored_as_the_event_says(director, document):
    event = services.event_import(data=document, owner=director)
    byes = {NAMES[b] for rnd in document["rounds"] for b in rnd["byes"]}
    standings = selectors.standings_for(event=event)
    rows = {row.name: row for row in standings.rows}
    for name in byes:
        assert rows[name].byes >= 1
    if event.bye_scoring == "fixed":
        # Placement points come first: a player who only ever sat out has the fixed value
        # for each bye.
        for row in standings.rows:
            if row.played == 0 and row.byes:
                assert row.values[0] == pytest.approx(3 * row.byes)
