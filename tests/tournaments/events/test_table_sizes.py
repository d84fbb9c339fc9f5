"""An event's allowed table sizes: set on creation and at the desk, checked by field,
kept by the seating, carried by export and import, and the draft's report says why."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.errors import TournamentError
from tournaments.events import selectors, services
from tournaments.models import Event, EventLog, TableSeat, TournamentRound

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


def roolz_night(director, players: int, **extra) -> Event:
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, **extra
    )
    names = "\n".join(f"Player {n:02d}" for n in range(1, players + 1))
    services.entrants_import_csv(event=event, text=names, user=director)
    return event


def table_sizes_of(round_: TournamentRound) -> list[int]:
    counts: dict[int, int] = {}
    for table in TableSeat.objects.filter(table__round=round_).values_list("table", flat=True):
        counts[table] = counts.get(table, 0) + 1
    return sorted(counts.values(), reverse=True)


@pytest.mark.parametrize(
    ("players", "allowed", "tables", "words"),
    [
        (14, [4, 5], [5, 5, 4], "14 players: tables of 5, 5, 4 (sizes allowed: 4, 5)"),
        (10, [4, 5], [5, 5], "10 players: tables of 5, 5 (sizes allowed: 4, 5)"),
        (15, [4, 5], [5, 5, 5], "15 players: tables of 5, 5, 5 (sizes allowed: 4, 5)"),
        (14, [], [4, 4, 3, 3], "14 players: tables of 4, 4, 3, 3 (sizes allowed: 2, 3, 4, 5, 6)"),
    ],
)
def test_the_draft_keeps_to_the_allowed_sizes_and_says_why(
    director, players, allowed, tables, words
):
    event = roolz_night(director, players, table_sizes=allowed)
    draft = services.tournament_round_generate(event=event, user=director)
    assert table_sizes_of(draft) == tables
    assert draft.byes.count() == 0
    assert draft.report["sizes"] == words


def test_when_no_split_seats_everyone_the_fewest_sit_out_said_plainly(director, desk):
    event = roolz_night(director, 7, table_sizes=[4, 5])
    draft = services.tournament_round_generate(event=event, user=director)
    assert table_sizes_of(draft) == [5] and draft.byes.count() == 2
    words = (
        "7 players: a table of 5 and 2 sitting out, "
        "as no split into the sizes allowed (4, 5) seats all 7"
    )
    assert draft.report["sizes"] == words
    page = desk.get(url("desk_round", event.pk, 1)).content.decode()
    assert words in page


def test_every_size_allowed_is_stored_as_the_games_own(director):
    event = roolz_night(director, 4, table_sizes=[6, 5, 4, 3, 2])
    assert event.table_sizes == []
    assert [c.allowed for c in selectors.table_size_choices(event=event)] == [True] * 5
    event = roolz_night(director, 4, table_sizes=[5, 4, 5])
    assert event.table_sizes == [4, 5]
    assert [c.size for c in selectors.table_size_choices(event=event) if c.allowed] == [4, 5]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"table_sizes": [4, 9]}, "table_sizes", "table size 9 is not legal for this game"),
        ({"table_sizes": [7, 9]}, "table_sizes", "table sizes 7, 9 are not legal"),
        ({"table_sizes": ["4"]}, "table_sizes", "whole numbers"),
        ({"table_sizes": [4, 5], "table_size": 3}, "table_size", "not among the sizes allowed"),
        ({"table_size": 9}, "table_size", "table size 9 is not legal"),
    ],
)
def test_sizes_the_game_does_not_allow_are_refused_by_field(director, change, field, words):
    with pytest.raises(TournamentError) as error:
        services.event_create(owner=director, name="N", game="roolz", **change)
    problems = error.value.problems
    assert [p.field for p in problems] == [field]
    assert words in problems[0].message


def test_the_desk_changes_the_sizes_logged_and_refuses_nonsense(director, desk):
    event = roolz_night(director, 14, table_size=4)
    response = desk.post(url("table_sizes", event.pk), {"table_sizes": ["4", "5"]}, **HX)
    assert response.status_code == 200
    event.refresh_from_db()
    assert (event.table_sizes, event.table_size) == ([4, 5], None)
    log = EventLog.objects.filter(event=event, action="event_table_sizes").get()
    assert log.before == {"table_size": 4, "table_sizes": []}
    assert log.after == {"table_size": None, "table_sizes": [4, 5]}
    for posted, words in [
        ({}, "Allow at least one table size"),
        ({"table_sizes": ["4", "x"]}, "Choose table sizes from the list"),
        ({"table_sizes": ["4", "8"]}, "Table size 8 is not legal for this game"),
    ]:
        response = desk.post(url("table_sizes", event.pk), posted, **HX)
        assert response.status_code == 200
        assert words in response.content.decode()
        event.refresh_from_db()
        assert event.table_sizes == [4, 5]  # nothing lost
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert 'name="table_sizes" value="5" checked' in page
    assert 'name="table_sizes" value="3">' in page
    draft = services.tournament_round_generate(event=event, user=director)
    assert table_sizes_of(draft) == [5, 5, 4]


def test_a_closed_event_keeps_its_sizes(director):
    event = roolz_night(director, 4, table_sizes=[4, 5])
    services.event_close(event=event, user=director)
    with pytest.raises(TournamentError):
        services.event_table_sizes_set(event=event, table_sizes=[4], user=director)
    event.refresh_from_db()
    assert event.table_sizes == [4, 5]


def test_export_and_import_carry_the_sizes(director):
    event = roolz_night(director, 6, table_sizes=[4, 5])
    document = services.event_export(event=event)
    assert document["event"]["table_sizes"] == [4, 5]
    copy = services.event_import(data=document, owner=director)
    assert copy.table_sizes == [4, 5]
    document["event"]["table_sizes"] = [4, 11]
    with pytest.raises(TournamentError) as error:
        services.event_import_check(data=document)
    assert [p.field for p in error.value.problems] == ["event.table_sizes"]
    older = services.event_export(event=event)
    del older["event"]["table_sizes"]  # a document from before sizes were kept
    assert services.event_import(data=older, owner=director).table_sizes == []


NEW_EVENT = {
    "name": "Spring cup",
    "game": "roolz",
    "rounds_planned": "3",
    "metric-1": "placement_points",
    "option-present": "1",
    "table-sizes-present": "1",
}


def test_the_new_event_form_offers_four_or_five_only(desk):
    page = desk.get(url("event_new"), {"game": "roolz"}).content.decode()
    for size in (2, 3, 4, 5, 6):
        assert f'name="table_sizes" value="{size}" checked' in page
    response = desk.post(url("event_new"), {**NEW_EVENT, "table_sizes": ["4", "5"]})
    assert response.status_code == 302
    assert Event.objects.get(name="Spring cup").table_sizes == [4, 5]


@pytest.mark.parametrize(
    ("sizes", "words"),
    [
        ([], "Tick at least one table size."),
        (["4", "9"], "Choose table sizes among 2, 3, 4, 5, 6."),
        (["four"], "Choose table sizes among 2, 3, 4, 5, 6."),
    ],
)
def test_the_new_event_form_refuses_sizes_beside_the_field(desk, sizes, words):
    response = desk.post(url("event_new"), {**NEW_EVENT, "table_sizes": sizes})
    assert response.status_code == 200
    assert not Event.objects.filter(name="Spring cup").exists()
    page = response.content.decode()
    assert "Please check the marked fields." in page
    field = page[
        page.index('class="field table-sizes') : page.index(
            "</fieldset>", page.index('class="field table-sizes')
        )
    ]
    assert "has-error" in field and words in field
