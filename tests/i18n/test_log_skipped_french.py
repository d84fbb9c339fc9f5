"""The event log's lines skipped from a player list: kept as their template and values and
shown in the reader's language; an entry kept as English before stays as it was written."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.i18n.test_desk_pages import FRENCH
from tournaments.events import services
from tournaments.models import Event, EventLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


def log_page(client, event: Event, **headers: str) -> str:
    url = reverse("tournaments:desk_log", args=[event.pk])
    return html.unescape(client.get(url, **headers).content.decode())


def test_the_lines_skipped_are_shown_in_the_readers_language(client, director):
    event = services.event_create(owner=director, name="Jeudi", game="roolz", options={})
    services.entrants_import_csv(
        event=event, text="name,members\nAnn\n\n# later\nBen", user=director
    )
    [row] = EventLog.objects.filter(event=event, action="entrants_import_csv")
    assert all(isinstance(note, dict) for note in row.after["skipped"])  # kept as words
    client.force_login(director)
    french = log_page(client, event, **FRENCH)
    assert "la ligne 3 est vide" in french
    assert "la ligne 4 est un commentaire" in french
    assert "line 3 is blank" not in french
    english = log_page(client, event)
    assert "line 3 is blank" in english
    assert "line 4 is a comment" in english


def test_an_entry_kept_in_english_is_shown_as_it_was_written(client, director):
    event = services.event_create(owner=director, name="Jeudi", game="roolz", options={})
    EventLog.objects.create(
        event=event,
        action="entrants_import_csv",
        user=director,
        after={"names": ["Ann"], "skipped": ["line 2 is blank"]},
    )
    client.force_login(director)
    assert "line 2 is blank" in log_page(client, event, **FRENCH)
