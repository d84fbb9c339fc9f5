"""An exported event reads back into an event that scores identically."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import selectors, services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"]


def played_event(director) -> Event:
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS,
        table_size=4, bye_scoring="table_average",
    )  # fmt: skip
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    for _ in range(2):
        draft = services.tournament_round_generate(event=event, user=director)
        round_ = services.tournament_round_publish(event=event, round=draft, user=director)
        for table in round_.tables.all():
            play_table(table)
    services.entrant_drop(event=event, entrant=event.entrants.get(name="Kim"), user=director)
    services.tournament_round_generate(event=event, user=director)  # a draft travels too
    return event


def view(event: Event) -> list[tuple]:
    return [
        (row.rank, row.name, row.values, row.played, row.byes, row.dropped)
        for row in selectors.standings_for(event=event).rows
    ]


def test_export_then_import_scores_identically():
    director = get_user_model().objects.create_user("director")
    event = played_event(director)
    document = services.event_export(event=event)
    assert json.loads(json.dumps(document)) == document  # plain JSON
    copy = services.event_import(data=document, owner=director)
    assert copy.pk != event.pk
    assert view(copy) == view(event)
    assert any(row[4] for row in view(event))  # byes were scored, and alike
    exported_again = services.event_export(event=copy)
    assert exported_again["rounds"] == document["rounds"]
    assert exported_again["entrants"] == document["entrants"]
    draw, draw_copy = selectors.draw_for(event=event), selectors.draw_for(event=copy)
    assert [[s.name for s in t.seats] for t in draw.tables] == [
        [s.name for s in t.seats] for t in draw_copy.tables
    ]


def test_the_commands_round_trip(tmp_path):
    director = get_user_model().objects.create_user("director")
    event = played_event(director)
    out = io.StringIO()
    call_command("exporttournament", str(event.pk), stdout=out)
    path = tmp_path / "event.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    said = io.StringIO()
    call_command("importtournament", str(path), "--owner", "director", stdout=said)
    copy = Event.objects.exclude(pk=event.pk).get()
    assert said.getvalue().startswith(f"imported event {copy.pk}")
    assert view(copy) == view(event)


@pytest.mark.parametrize(
    ("document", "field"),
    [
        ({"format": "something else"}, "format"),
        ({"format": "tablescore-event/1", "event": {}, "entrants": "x", "rounds": []}, "entrants"),
        (
            {
                "format": "tablescore-event/1",
                "event": {"name": "X", "game": "roolz"},
                "entrants": [{"name": "Ann"}],
                "rounds": [{"number": 1, "tables": [{"number": 1, "seats": [{"entrant": 5}]}]}],
            },
            "rounds[0].tables[0].seats[0].entrant",
        ),
    ],
)
def test_a_bad_document_is_named_not_a_crash(document, field):
    director = get_user_model().objects.create_user("director")
    with pytest.raises(services.TournamentError) as refused:
        services.event_import(data=document, owner=director)
    assert field in [p.field for p in refused.value.problems]
    assert not Event.objects.exists()


def test_availability_travels_with_the_event():
    """The away scoring and each round's absent players (away, or still playing) read
    back as they were, and the standings that depend on them with them."""
    director = get_user_model().objects.create_user("director")
    event = services.event_create(
        owner=director, name="Club night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    event = services.event_away_scoring_set(event=event, away_scoring="bye", user=director)
    for name in NAMES[:9]:  # Jo and Kim are away for round 1
        services.entrant_check_in(
            event=event, entrant=event.entrants.get(name=name), checked_in=True, user=director
        )
    round_ = services.tournament_round_publish(
        event=event,
        round=services.tournament_round_generate(event=event, user=director),
        user=director,
    )
    for table in round_.tables.all():
        play_table(table)
    away = sorted(round_.absences.values_list("entrant__name", flat=True))
    assert away == ["Jo", "Kim"]

    document = services.event_export(event=event)
    assert document["event"]["away_scoring"] == "bye"
    assert [a["reason"] for a in document["rounds"][0]["absences"]] == ["away", "away"]
    copy = services.event_import(data=json.loads(json.dumps(document)), owner=director)
    assert copy.away_scoring == "bye"
    first = copy.rounds.get(number=1)
    assert sorted(first.absences.values_list("entrant__name", flat=True)) == away
    assert view(copy) == view(event)
    assert services.event_export(event=copy)["rounds"] == document["rounds"]


def test_an_older_document_without_availability_still_reads():
    director = get_user_model().objects.create_user("director")
    document = services.event_export(event=played_event(director))
    del document["event"]["away_scoring"]
    for round_ in document["rounds"]:
        del round_["absences"]
    copy = services.event_import(data=document, owner=director)
    assert copy.away_scoring == "none"
    assert not copy.rounds.filter(absences__isnull=False).exists()
