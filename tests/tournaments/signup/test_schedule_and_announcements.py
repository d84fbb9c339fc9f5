"""The event's date, start time and venue (on its pages, printouts and document) and the
desk's announcements (on the players' pages and the projector, newest first)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess

import pytest
from django.urls import reverse

from printing.models import PrintJob
from tests.tournaments.web.conftest import NAMES, publish_next
from tournaments.events import services, signup_selectors
from tournaments.models import Announcement, Event
from tournaments.printouts import sources as printouts

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(event, director) -> Event:
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event


WHEN_WHERE = "Friday 27 November 2026 at 19:30 · The Crown, back room"
HX = {"HTTP_HX_REQUEST": "true"}


def scheduled(event: Event, director) -> Event:
    return services.event_schedule_set(
        event=event,
        date=dt.date(2026, 11, 27),
        start_time=dt.time(19, 30),
        venue="The Crown, back room",
        user=director,
    )


def public_pages(event: Event) -> list[str]:
    token = event.public_token
    return [
        reverse("tournaments:draw", args=[token]),
        reverse("tournaments:standings", args=[token]),
        reverse("tournaments:projector", args=[token]),
    ]


def test_when_and_where_reads_as_words():
    assert signup_selectors.when_text(dt.date(2026, 11, 27), None) == "Friday 27 November 2026"
    assert signup_selectors.when_text(None, dt.time(9, 5)) == "starts at 09:05"
    assert signup_selectors.when_text(None, None) == ""


def test_date_time_and_venue_are_shown_on_the_public_pages(client, event, director):
    for address in public_pages(event):
        assert "data-event-facts" not in client.get(address).content.decode()
    scheduled(event, director)
    for address in public_pages(event):
        assert WHEN_WHERE in client.get(address).content.decode(), address


def test_a_new_event_takes_its_date_and_venue_from_the_desk_form(desk):
    answer = desk.post(
        reverse("tournaments:event_new"),
        {
            "name": "Saturday open",
            "game": "roolz",
            "date": "2026-12-05",
            "start_time": "14:00",
            "venue": "Town hall",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    event = Event.objects.get(name="Saturday open")
    assert (event.date, event.start_time, event.venue) == (
        dt.date(2026, 12, 5),
        dt.time(14, 0),
        "Town hall",
    )


def test_a_wrong_date_or_time_is_refused_beside_its_field(desk, event):
    answer = desk.post(
        reverse("tournaments:schedule_set", args=[event.pk]),
        {"date": "27/11/2026", "start_time": "7pm", "venue": "x" * 121},
    )
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "Enter the date as YYYY-MM-DD." in page
    assert "Enter the time as HH:MM (24 hours)." in page
    event.refresh_from_db()
    assert event.date is None and event.venue == ""
    answer = desk.post(
        reverse("tournaments:schedule_set", args=[event.pk]),
        {"date": "2026-11-27", "start_time": "19:30", "venue": "x" * 121},
    )
    assert "The venue is longer than 120 characters." in answer.content.decode()


def test_an_existing_event_gets_its_date_and_venue_on_the_desk(desk, event, client):
    answer = desk.post(
        reverse("tournaments:schedule_set", args=[event.pk]),
        {"date": "2026-11-27", "start_time": "19:30", "venue": "The Crown, back room"},
    )
    assert answer.status_code == 302
    event.refresh_from_db()
    assert signup_selectors.when_and_where(event) == WHEN_WHERE


def test_date_time_and_venue_are_exported_and_imported(event, director):
    event = scheduled(event, director)
    document = services.event_export(event=event)
    assert document["event"]["date"] == "2026-11-27"
    assert document["event"]["start_time"] == "19:30"
    assert document["event"]["venue"] == "The Crown, back room"
    copy = services.event_import(data=json.loads(json.dumps(document)), owner=director)
    assert (copy.date, copy.start_time, copy.venue) == (
        dt.date(2026, 11, 27),
        dt.time(19, 30),
        "The Crown, back room",
    )


def test_a_document_with_a_wrong_date_is_refused_by_its_path(event, director):
    document = services.event_export(event=event)
    document["event"]["date"] = "27 November"
    document["event"]["start_time"] = "25:00"
    with pytest.raises(services.TournamentError) as refused:
        services.event_import(data=document, owner=director)
    fields = {p.field for p in refused.value.problems}
    assert {"event.date", "event.start_time"} <= fields


def test_a_document_from_before_dates_still_imports(event, director):
    document = services.event_export(event=event)
    for key in ("date", "start_time", "venue"):
        document["event"].pop(key)
    copy = services.event_import(data=document, owner=director)
    assert copy.date is None and copy.venue == ""


def pdf_text(event, kind, capture) -> str:
    with capture(execute=True):
        job = printouts.printout_create(
            event=event, kind=kind, paper="A4", base_url="http://testserver"
        )
    job = PrintJob.objects.get(pk=job.pk)
    assert job.status == PrintJob.Status.DONE, job.error
    return subprocess.run(
        ["pdftotext", "-", "-"], input=bytes(job.pdf), capture_output=True, check=True
    ).stdout.decode()


def test_the_printouts_state_when_and_where(
    players, director, eager_celery, django_capture_on_commit_callbacks
):
    event = scheduled(players, director)
    publish_next(event, director)
    for kind in (
        printouts.TABLE_CARDS,
        printouts.STANDINGS,
        printouts.ROUND_SCORESHEETS,
        printouts.SEATING_LIST,
    ):
        text = " ".join(pdf_text(event, kind, django_capture_on_commit_callbacks).split())
        assert "Friday 27 November 2026 at 19:30" in text, kind
        assert "The Crown, back room" in text, kind


# --------------------------------------------------------------------------- announcements


def test_announcements_show_newest_first_on_the_players_pages_and_the_projector(
    client, event, director
):
    services.announcement_add(event=event, text="Round 3 starts at 20:15", user=director)
    services.announcement_add(event=event, text="Table 12 moved to the back room", user=director)
    for address in public_pages(event):
        page = client.get(address).content.decode()
        first = page.index("Table 12 moved to the back room")
        assert first < page.index("Round 3 starts at 20:15"), address


def test_an_announcement_appears_at_the_next_poll_and_goes_when_removed(client, players, director):
    event = players
    publish_next(event, director)
    shown = {}
    for address in public_pages(event):
        page = client.get(address).content.decode()
        shown[address] = page.split("?rev=", 1)[1].split("&", 1)[0].split('"', 1)[0]
    for address, revision in shown.items():
        assert client.get(f"{address}?rev={revision}", **HX).status_code == 204, address
    made = services.announcement_add(event=event, text="Pizza at nine", user=director)
    for address, revision in shown.items():
        poll = client.get(f"{address}?rev={revision}", **HX)
        assert poll.status_code == 200, address
        assert "Pizza at nine" in poll.content.decode(), address
    services.announcement_remove(event=event, announcement_id=made.pk, user=director)
    for address in public_pages(event):
        assert "Pizza at nine" not in client.get(address).content.decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "Write the announcement."), ("x" * 201, "longer than 200 characters")],
)
def test_a_bad_announcement_is_refused_beside_its_field(desk, event, text, message):
    answer = desk.post(reverse("tournaments:desk_announcements", args=[event.pk]), {"text": text})
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not Announcement.objects.exists()


def test_the_desk_adds_and_removes_announcements(desk, event):
    url = reverse("tournaments:desk_announcements", args=[event.pk])
    assert desk.post(url, {"text": "Round 3 starts at 20:15"}).status_code == 302
    made = Announcement.objects.get()
    assert "Round 3 starts at 20:15" in desk.get(url).content.decode()
    remove = reverse("tournaments:announcement_remove", args=[event.pk, made.pk])
    assert desk.post(remove).status_code == 302
    assert not Announcement.objects.exists()


def test_another_director_cannot_announce(client, event, django_user_model):
    other = django_user_model.objects.create_user("other", password="pw", is_staff=True)
    client.force_login(other)
    url = reverse("tournaments:desk_announcements", args=[event.pk])
    assert client.post(url, {"text": "Hello"}).status_code == 404
    assert not Announcement.objects.exists()


def test_the_announcements_partial_is_drawn_from_its_selector(event, director):
    from django.template.loader import render_to_string

    services.announcement_add(event=event, text="Welcome", user=director)
    html = render_to_string(
        "tournaments/_announcements.html",
        {"announcements": signup_selectors.announcements_for(event)},
    )
    assert "Welcome" in html and "data-announcements" in html


def test_the_projector_keeps_to_the_three_newest(client, event, director):
    for number in range(1, 6):
        services.announcement_add(event=event, text=f"Notice number {number}", user=director)
    page = client.get(reverse("tournaments:projector", args=[event.public_token])).content
    shown = page.decode()
    assert "Notice number 5" in shown and "Notice number 3" in shown
    assert "Notice number 2" not in shown
