"""The language a French request activated is the thread's until another request says
otherwise: each test here ends in the default language, so that a test after it (a sheet
drawn in the active language, say) reads what it would read alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tournaments.events import services
from tournaments.models import Event


@pytest.fixture(autouse=True)
def default_language_after() -> Iterator[None]:
    yield
    translation.deactivate()


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


def event_of(director, *names: str) -> Event:
    """A Roolz event of ``director``'s with these entrants."""
    event = services.event_create(
        owner=director, name="Jeudi", game="roolz", options={}, rounds_planned=2
    )
    for name in names:
        services.entrant_add(event=event, name=name, user=director)
    return event
