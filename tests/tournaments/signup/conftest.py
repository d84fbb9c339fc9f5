"""A director's event with its sign-up page, and a clean throttle count for each test."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import Event


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def event(director) -> Event:
    return services.event_create(
        owner=director, name="Friday Roolz", game="roolz", options=ROOLZ_OPTIONS
    )


def open_signup(event: Event, director, *, cap=None, approval=False, closes_at=None):
    return services.signup_settings_set(
        event=event, open=True, cap=cap, approval=approval, closes_at=closes_at, user=director
    )
