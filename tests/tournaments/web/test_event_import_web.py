"""Web import of an exported event: the same service and checks as the command."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournaments.helpers import play_table
from tests.tournaments.web.conftest import publish_next
from tournaments.events import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def upload(document: bytes) -> dict:
    return {"file": SimpleUploadedFile("event.json", document, "application/json")}


def test_an_exported_event_comes_back_as_a_new_event(desk, event, director):
    first = publish_next(event, director)
    for table in first.tables.all():
        play_table(table)
    exported = json.dumps(services.event_export(event=event)).encode()
    response = desk.post(reverse("tournaments:event_import"), upload(exported))
    assert response.status_code == 302
    copy = Event.objects.exclude(pk=event.pk).get()
    assert response["Location"] == reverse("tournaments:desk_event", args=[copy.pk])
    assert copy.owner == director
    assert copy.entrants.count() == event.entrants.count()
    assert copy.rounds.get(number=1).tables.count() == first.tables.count()


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (b"{not json", "not a JSON document"),
        (b"\xff\xfe", "not a JSON document"),
        (b'{"format": "something else"}', "tablescore-event/1"),
    ],
)
def test_a_bad_file_is_explained_and_nothing_is_created(desk, event, document, message):
    response = desk.post(reverse("tournaments:event_import"), upload(document))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Event.objects.count() == 1


def test_no_file_is_named(desk):
    response = desk.post(reverse("tournaments:event_import"), {})
    assert "choose the event" in response.content.decode()
    assert desk.get(reverse("tournaments:desk")).content.decode().count("Import an event") == 1
