"""Names searched in the database: the folded copies every entrant row keeps match what
folding in Python matches, and "where do I sit" finds what a scan of the whole draw finds."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.folding import folded
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import selectors, services
from tournaments.models import Entrant, Event

pytestmark = pytest.mark.django_db

# Accents, letters folded by hand (ł, ø, æ, dotless i), casefold's own (ß, long s), spaces.
LETTERS = "aAbBeEéÉłŁøØæÆß\u017f\u0131İñÑöÖ şŞ-'"
names = st.text(alphabet=LETTERS, min_size=1, max_size=12).filter(lambda n: n.strip())


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typed=st.lists(names, min_size=1, max_size=8, unique=True), query=names)
def test_the_folded_columns_match_as_python_folding_does(director, typed, query):
    event = Event.objects.create(owner=director, name="E", game="roolz")
    one, *rest = typed
    Entrant.objects.create(event=event, name=one, members=[query, one])
    Entrant.objects.bulk_create(Entrant(event=event, name=name) for name in rest)
    needle = folded(query)
    matched = event.entrants.filter(name_folded__contains=needle)
    by_name = set(matched.values_list("name", flat=True))
    assert by_name == {name for name in typed if needle in folded(name)}
    assert event.entrants.filter(members_folded__contains=needle).count() == 1
    # The desk lists players as Python sorts their folded names, whatever the collation.
    listed = [e.name for e in selectors.entrants_by_name(event=event)]
    assert listed == sorted(typed, key=folded)
    searched = [e.name for e in selectors.entrants_by_name(event=event, query=query)]
    assert searched == sorted((n for n in typed if needle in folded(n)), key=folded)


def scanned(event: Event, query: str) -> list[tuple[str, int | None, int | None, str, bool]]:
    """Where the players whose names hold ``query`` sit, by a scan of the whole draw."""
    needle = folded(query)
    draw = selectors.draw_for(event=event)
    assert draw is not None
    return sorted(
        (seat.name, table.number, seat.seat, seat.team, seat.seat == table.first_dealer)
        for table in draw.tables
        for seat in table.seats
        if needle in folded(seat.name) or needle in folded(seat.entrant_name)
    )


def test_where_do_i_sit_finds_what_a_scan_of_the_draw_finds(director):
    event = services.event_create(
        owner=director, name="N", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event,
        text="Łukasz Nowak\nBjørn Ås\nÆsa\nSØREN\nAnn\nANNA\nJoanna\nDan\nEve\nFay\nGus\nHal\n",
        user=director,
    )
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    for query in ("lukasz", "  ŁUKASZ  nowak", "bjorn as", "aesa", "soren", "ann", "NA", "a", "zz"):
        found = selectors.seat_find(event=event, query=query)
        shown = sorted((f.name, f.table, f.seat, f.team, f.deals_first) for f in found)
        assert shown == scanned(event, query), query
    everyone = selectors.seat_find(event=event, query="a")
    for limit in (1, 3, len(everyone)):
        assert selectors.seat_find(event=event, query="a", limit=limit) == everyone[:limit]
    assert [f.name for f in selectors.seat_find(event=event, query="ann")] == [
        "Ann",
        "ANNA",
        "Joanna",
    ]


def test_the_desks_first_tables_are_those_of_the_whole_round_still_playing_first(director):
    event = services.event_create(
        owner=director, name="N", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"P{n:02d}" for n in range(24)), user=director
    )
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    for table in draft.tables.filter(number__in=[1, 4, 5]):
        play_table(table)
    every = selectors.tables_live(event=event, round_number=1)
    every.sort(key=lambda t: (t.state == selectors.DONE, t.table))
    first, count = selectors.tables_live_first(event=event, round_number=1, shown=4)
    assert count == 6
    assert first == every[:4]
    assert [t.table for t in first] == [2, 3, 6, 1]
    assert [t.deals_in for t in first] == [0, 0, 0, 2]
