"""A page of the kept standings, read without the other rows, is that page of the whole."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.models import Event
from tournaments.standings import adapter as results

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(django_user_model, monkeypatch, django_capture_on_commit_callbacks) -> Event:
    monkeypatch.setattr(results, "PAGE_ROWS", 5)  # 24 players: five pages kept
    owner = django_user_model.objects.create_user("director")
    event = services.event_create(
        owner=owner, name="Pages", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(24)), user=owner
    )
    services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event)
    )
    with django_capture_on_commit_callbacks(execute=True):
        play_table(event.rounds.get().tables.get(number=2))
    return Event.objects.get(pk=event.pk)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(page=st.integers(1, 12), size=st.integers(1, 30), lapsed=st.booleans())
def test_a_page_read_alone_is_that_page_of_the_whole_standings(event, page, size, lapsed):
    whole = results.kept_standings(event, lag=True)
    if lapsed:  # the pages kept a few minutes, gone: read from the whole and kept again
        for number in range(5):
            cache.delete(results._page_key(event, whole.version, number))
    shown, total, number = results.kept_page(event, page=page, size=size, lag=True)
    last = max(1, -(-len(whole.rows) // size))
    assert total == len(whole.rows) == 24
    assert number == min(page, last)
    assert shown.version == whole.version and shown.metrics == whole.metrics
    assert shown.rows == whole.rows[(number - 1) * size : number * size]
