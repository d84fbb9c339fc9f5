"""A director with an event, and a second director who must not see it; the results'
version found at every revision."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import Event
from tournaments.standings import adapter as results

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Léa"]


@pytest.fixture(autouse=True)
def version_at_every_revision(monkeypatch):
    """A test's changes come a moment apart, where a stream's deals come many a second
    (whose version of the results is found a few times a second: tested on its own in
    test_live_corrections): here each revision's is found, as at a quiet event."""
    monkeypatch.setattr(results, "VERSION_EVERY", 0.0)


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


@pytest.fixture
def other_director():
    return get_user_model().objects.create_user("other", password="pw", is_staff=True)


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def event(director) -> Event:
    event = services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    return event


def publish_next(event: Event, director):
    draft = services.tournament_round_generate(event=event, user=director)
    return services.tournament_round_publish(event=event, round=draft, user=director)
