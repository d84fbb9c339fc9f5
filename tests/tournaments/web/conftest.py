"""A director with an event, and a second director who must not see it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import Event

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Léa"]


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
