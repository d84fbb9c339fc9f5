"""The desk says who the next round seats, and offers to go on while tables still play."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.helpers import play_table
from tests.tournaments.web.conftest import publish_next
from tournaments.events import services
from tournaments.models import Event, TableSeat, TournamentRound

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def test_the_desk_says_who_the_next_round_seats(desk, event):
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "Round 1 seats 12 players" in page
    assert "nobody is checked in yet" in page
    for name in ("Ann", "Ben", "Cat"):
        desk.post(
            url("entrant_check_in", event.pk, event.entrants.get(name=name).pk),
            {"checked_in": "on"},
            **HX,
        )
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "Round 1 seats 3 players" in page
    assert "everyone checked in" in page
    assert "Away, not seated: Dan, Eve, Fay, Gus, Hal, Ivy, Jo, Kim, Léa." in page


def test_away_scoring_is_chosen_on_the_desk_and_nonsense_is_refused(desk, event):
    response = desk.post(url("away_scoring", event.pk), {"away_scoring": "bye"}, **HX)
    assert response.status_code == 200
    assert Event.objects.get(pk=event.pk).away_scoring == "bye"
    response = desk.post(url("away_scoring", event.pk), {"away_scoring": "double"}, **HX)
    assert response.status_code == 200
    assert "Choose how an away player scores" in response.content.decode()
    assert Event.objects.get(pk=event.pk).away_scoring == "bye"  # nothing lost


def test_seating_while_a_table_plays_shows_who_and_goes_on_when_asked(desk, event, director):
    first = publish_next(event, director)
    tables = list(first.tables.order_by("number"))
    for table in tables[1:]:
        play_table(table)
    slow = list(TableSeat.objects.filter(table=tables[0]).values_list("entrant__name", flat=True))
    response = desk.post(url("round_generate", event.pk), **HX)
    page = response.content.decode()
    assert response.status_code == 200
    assert "still plays" in page
    for name in slow:
        assert name in page
    assert 'name="go_on" value="1"' in page
    assert not event.rounds.filter(number=2).exists()

    response = desk.post(url("round_generate", event.pk), {"go_on": "1"})
    assert response.status_code == 302
    draft = event.rounds.get(number=2)
    seated = set(
        TableSeat.objects.filter(table__round=draft).values_list("entrant__name", flat=True)
    )
    assert not seated & set(slow)
    page = desk.get(url("desk_round", event.pk, 2)).content.decode()
    assert "Not seated" in page and "still playing the round before" in page

    response = desk.post(url("round_publish", event.pk, 2))
    page = response.content.decode()
    assert "Publish round 2 while they play" in page
    assert event.rounds.get(number=2).status == TournamentRound.Status.DRAFT
    desk.post(url("round_publish", event.pk, 2), {"go_on": "1"})
    assert event.rounds.get(number=2).status == TournamentRound.Status.PUBLISHED


def test_a_late_entry_is_seated_whether_or_not_check_in_is_used(desk, event, director):
    publish_next(event, director)
    for table in event.rounds.get(number=1).tables.all():
        play_table(table)
    late = services.entrant_add_late(event=event, name="Zoe", user=director)
    assert not late.checked_in  # check-in is not in use: everyone plays
    draft = services.tournament_round_generate(event=event, user=director)
    placed = {*draft.byes.values_list("entrant", flat=True)} | {
        *TableSeat.objects.filter(table__round=draft).values_list("entrant", flat=True)
    }
    assert late.pk in placed and len(placed) == 13


def test_a_drop_says_what_it_does_and_is_taken_back(desk, event, director):
    ann = event.entrants.get(name="Ann")
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "Drop Ann from the next tournament round on?" in page
    desk.post(url("entrant_drop", event.pk, ann.pk), **HX)
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert "Take back Ann's drop?" in page
    assert "Round 1 seats 11 players" in page
    response = desk.post(url("entrant_return", event.pk, ann.pk), **HX)
    assert response.status_code == 200
    ann.refresh_from_db()
    assert not ann.dropped
    assert "Round 1 seats 12 players" in response.content.decode()
    again = desk.post(url("entrant_return", event.pk, ann.pk), **HX).content.decode()
    assert "Ann has not dropped" in again
