"""The desk's smaller things a real night tripped on, each with the case that showed it:
styled refusals, a repeat inside a CSV, the log's filter in words, an imported event's
own name, "check in all" and "check in these", and check-in ticks answered one by one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournaments.web.conftest import NAMES, publish_next
from tournaments.events import eventlog, services
from tournaments.models import Event, EventLog, EventStaff

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
TICK = {"HTTP_X_TICK": "1"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


# --------------------------------------------------------------------------- refusals


@pytest.fixture
def helper():
    return get_user_model().objects.create_user("helper", password="pw", is_staff=True)


def test_a_removed_co_director_gets_the_styled_not_found_page(event, director, helper, client):
    services.event_staff_add(event=event, username="helper", role="co_director", user=director)
    client.force_login(helper)
    assert client.get(url("desk_event", event.pk)).status_code == 200
    staff = EventStaff.objects.get()
    services.event_staff_remove(event=event, staff=staff, user=director)
    ann = event.entrants.get(name="Ann")
    for response in (
        client.get(url("desk_event", event.pk)),
        client.get(url("desk_live", event.pk), {"part": "rounds"}, **HX),
        client.post(url("entrant_check_in", event.pk, ann.pk), {"checked_in": "on"}, **TICK),
        client.post(url("entrants_check_in_all", event.pk), **HX),
        client.post(url("round_generate", event.pk), {"round": "1", "draft": ""}),
    ):
        assert response.status_code == 404
        page = response.content.decode()
        assert "<h1>Not found</h1>" in page
        assert "an event you no longer direct" in page
        assert 'rel="stylesheet"' in page  # the site's page, not Django's bare one
    ann.refresh_from_db()
    assert not ann.checked_in


def test_an_account_that_may_not_use_the_desk_gets_the_styled_not_allowed_page(event, client):
    visitor = get_user_model().objects.create_user("visitor", password="pw")
    client.force_login(visitor)
    response = client.get(url("desk_event", event.pk))
    assert response.status_code == 403
    page = response.content.decode()
    assert "<h1>Not allowed</h1>" in page and 'rel="stylesheet"' in page


# --------------------------------------------------------------------------- the CSV


def test_a_line_repeated_in_the_file_is_reported_as_repeated_with_its_lines(desk, director):
    event = services.event_create(owner=director, name="Cup", game="roolz")
    text = "name\nAnn Lee\nBo\nann lee\nCy\nANN LEE\n"
    _, problems = services.entrants_csv_preview(event=event, text=text)
    messages = [p.message for p in problems]
    assert messages == [
        "line 4: ann lee is repeated in the file (lines 2, 4 and 6)",
        "line 6: ANN LEE is repeated in the file (lines 2, 4 and 6)",
    ]
    assert not any("already registered" in m for m in messages)
    response = desk.post(url("entrants_csv", event.pk), {"text": text}, **HX)
    page = response.content.decode()
    assert "Line 4: ann lee is repeated in the file (lines 2, 4 and 6)" in page
    assert "already registered" not in page
    assert not event.entrants.exists()


def test_a_name_registered_before_is_still_already_registered(desk, event):
    _, problems = services.entrants_csv_preview(event=event, text="Ann\nZed\n")
    assert [p.message for p in problems] == ["line 1: Ann is already registered"]


# --------------------------------------------------------------------------- the log


def logged_actions() -> set[str]:
    """Every change the tournaments' code writes to an event's log by a literal name."""
    found: set[str] = set()
    for source in Path("tournaments").rglob("*.py"):
        text = source.read_text()
        found.update(re.findall(r"event_log\(\s*\w+,\s*\"([a-z_]+)\"", text))
    return found


def test_every_change_logged_has_a_label():
    actions = logged_actions()
    assert "round_publish" in actions and "entrant_drop" in actions
    assert actions - set(eventlog.KIND_LABELS) == set()
    for state in ("queued", "running", "done", "failed", "restarted"):
        assert f"round_generation_{state}" in eventlog.KIND_LABELS
    for do in ("start", "pause", "resume", "extend"):
        assert f"round_clock_{do}" in eventlog.KIND_LABELS
    assert eventlog.kind_label("some_new_thing") == "Some new thing"


def test_the_logs_filter_lists_labels_not_raw_names(desk, event, director):
    round_ = publish_next(event, director)
    services.tournament_round_clock_start(event=event, round=round_, minutes=30, user=director)
    services.tournament_round_clock_pause(event=event, round=round_, user=director)
    page = desk.get(url("desk_log", event.pk)).content.decode()
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', page)
    labels = dict(options)
    assert labels["round_clock_pause"] == "Clock paused"
    assert labels["round_clock_start"] == "Clock started"
    assert all("_" not in label for value, label in options if value)


# --------------------------------------------------------------------------- import


def test_an_imported_event_gets_its_own_name(desk, event, director):
    document = services.event_export(event=event)
    copy = services.event_import(data=document, owner=director)
    assert copy.name == "Friday Roolz (imported)"
    named = services.event_import(data=document, owner=director, name="  Friday, again ")
    assert named.name == "Friday, again"
    long = services.event_import(
        data={**document, "event": {**document["event"], "name": "N" * 80}}, owner=director
    )
    assert long.name == "N" * 69 + " (imported)"


def test_the_import_form_takes_the_new_events_name(desk, event):
    document = json.dumps(services.event_export(event=event)).encode()
    page = desk.get(url("event_import")).content.decode()
    assert 'name="name"' in page and "(imported)" in page
    upload = SimpleUploadedFile("e.json", document, content_type="application/json")
    response = desk.post(url("event_import"), {"file": upload, "name": "Saturday copy"})
    copy = Event.objects.get(name="Saturday copy")
    assert response["Location"] == url("desk_event", copy.pk)
    upload = SimpleUploadedFile("e.json", document, content_type="application/json")
    response = desk.post(url("event_import"), {"file": upload, "name": "x" * 81})
    assert "Name: the name is at most 80 characters" in response.content.decode()


# --------------------------------------------------------------------------- check-in


def checked(event: Event) -> set[str]:
    return set(event.entrants.filter(checked_in=True).values_list("name", flat=True))


def test_check_in_all_checks_in_everyone_not_dropped(desk, event, director):
    ann = event.entrants.get(name="Ann")
    services.entrant_drop(event=event, entrant=ann, user=director)
    page = desk.get(url("desk_event", event.pk)).content.decode()
    assert ">Check in all</button>" in page
    response = desk.post(url("entrants_check_in_all", event.pk), {"q": ""}, **HX)
    assert "11 players checked in." in response.content.decode()
    assert checked(event) == set(NAMES) - {"Ann"}
    line = EventLog.objects.get(action="entrants_check_in_all")
    assert len(line.after["ids"]) == 11
    assert "Check in all" not in desk.get(url("desk_event", event.pk)).content.decode()
    again = desk.post(url("entrants_check_in_all", event.pk), {"q": ""}, **HX)
    assert "Everyone was checked in already." in again.content.decode()


def test_check_in_these_checks_in_the_players_found(desk, event):
    page = desk.get(url("desk_event", event.pk), {"q": "a"}).content.decode()
    found = {"Ann", "Cat", "Dan", "Fay", "Hal", "Léa"}
    assert f">Check in these {len(found)}</button>" in page
    response = desk.post(url("entrants_check_in_all", event.pk), {"q": "a"}, **HX)
    assert f"{len(found)} players checked in (of those matching “a”)." in response.content.decode()
    assert checked(event) == found


def test_a_tick_is_answered_with_the_player_as_kept(desk, event):
    ann = event.entrants.get(name="Ann")
    response = desk.post(url("entrant_check_in", event.pk, ann.pk), {"checked_in": "on"}, **TICK)
    assert response.status_code == 200
    assert response.json() == {"id": ann.pk, "checked_in": True, "checked": 1}
    response = desk.post(url("entrant_check_in", event.pk, ann.pk), {"checked_in": ""}, **TICK)
    assert response.json() == {"id": ann.pk, "checked_in": False, "checked": 0}


def test_a_refused_tick_is_answered_in_words(desk, event, director):
    services.event_close(event=event, user=director)
    ann = event.entrants.get(name="Ann")
    response = desk.post(url("entrant_check_in", event.pk, ann.pk), {"checked_in": "on"}, **TICK)
    assert response.status_code == 409
    assert "closed" in response.json()["error"]
    ann.refresh_from_db()
    assert not ann.checked_in


def test_the_desk_draws_each_tick_for_its_script(desk, event):
    page = desk.get(url("desk_event", event.pk)).content.decode()
    ann = event.entrants.get(name="Ann")
    assert f'data-tick-url="{url("entrant_check_in", event.pk, ann.pk)}"' in page
    assert "js/desk" in page
    assert 'id="checked-all"' not in page  # no "checked in" notice before anyone asked
