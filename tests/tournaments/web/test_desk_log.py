"""The event log on the desk: who did what and when, filtered by kind, table and player."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import ChangeRequest
from tests.tournaments.helpers import play_table
from tests.tournaments.web.conftest import publish_next
from tournaments.events import eventlog, services
from tournaments.models import TableSeat

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def test_the_log_names_who_did_what_before_and_after(desk, event, director):
    ann = event.entrants.get(name="Ann")
    services.entrant_check_in(event=event, entrant=ann, user=director)
    page = desk.get(url("desk_log", event.pk)).content.decode()
    assert "Check-in" in page and "Ann" in page and "director" in page
    assert "&quot;checked_in&quot;: false" in page and "&quot;checked_in&quot;: true" in page
    assert "Nothing is waiting." in page


def test_filters_by_kind_table_and_player(desk, event, director):
    first = publish_next(event, director)
    table = first.tables.order_by("number").first()
    play_table(table)
    at_table = set(TableSeat.objects.filter(table=table).values_list("entrant", flat=True))
    elsewhere = event.entrants.exclude(pk__in=at_table).first()

    by_table = eventlog.log_page(event, table=table.pk)
    assert by_table.total >= 4  # two deals entered and confirmed, and the publish
    assert all(table.pk in line.table_ids for line in by_table.lines)
    assert {line.kind for line in by_table.lines} >= {"table", "round_publish"}

    by_kind = eventlog.log_page(event, kind="round_publish")
    assert [line.kind for line in by_kind.lines] == ["round_publish"]

    mine = eventlog.log_page(event, entrant=next(iter(at_table)))
    assert any(line.kind == "table" for line in mine.lines)
    theirs = eventlog.log_page(event, entrant=elsewhere.pk)
    assert not any(table.pk in line.table_ids for line in theirs.lines)

    page = desk.get(url("desk_log", event.pk), {"table": table.pk}, **HX).content.decode()
    assert "Round recorded" in page and "Round confirmed" in page
    assert f"round 1, table {table.number}, deal 2" in page


def test_nonsense_filters_are_named_and_everything_is_shown(desk, event, director):
    publish_next(event, director)
    response = desk.get(url("desk_log", event.pk), {"table": "x", "player": "99999", "kind": "?"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "There is no such table in this event" in page
    assert "There is no such player in this event" in page
    assert "There is no such kind of change" in page
    assert "Round published" in page


def test_a_change_waiting_at_a_table_shows_on_top(desk, event, director):
    first = publish_next(event, director)
    table = first.tables.order_by("number").first()
    ChangeRequest.objects.create(game=table.game, kind="end", asked_by_seat=0)
    page = desk.get(url("desk_log", event.pk)).content.decode()
    assert f"Round 1, table {table.number}</a>: end the game" in page
    assert "1 waiting" in desk.get(url("desk_event", event.pk)).content.decode()


def test_the_log_is_for_the_events_staff_only(client, event):
    stranger = get_user_model().objects.create_user("stranger", password="pw", is_staff=True)
    client.force_login(stranger)
    assert client.get(url("desk_log", event.pk)).status_code == 404


def test_a_long_log_pages(desk, event, director):
    ann = event.entrants.get(name="Ann")
    for present in [True, False] * 30:
        services.entrant_check_in(event=event, entrant=ann, checked_in=present, user=director)
    first = eventlog.log_page(event)
    assert len(first.lines) == eventlog.PAGE_SIZE and first.pages == 2
    second = eventlog.log_page(event, page=2)
    assert first.total == second.total == len(first.lines) + len(second.lines)
    assert first.lines[-1].at >= second.lines[0].at
