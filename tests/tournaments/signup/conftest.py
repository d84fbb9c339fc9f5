"""A director's event with its sign-up page, and a clean throttle count for each test."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import Event
from tournaments.standings import adapter as results


@pytest.fixture(autouse=True)
def version_at_every_revision(monkeypatch):
    """Each revision's version of the results found anew, as at a quiet event (a stream of
    deals finds it a few times a second: tested in tests/tournaments/web)."""
    monkeypatch.setattr(results, "VERSION_EVERY", 0.0)


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
