"""The ratings task on a real Celery worker: queued on commit, run once, idempotent."""

from __future__ import annotations

import time

import pytest
from celery.signals import after_task_publish
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.club import services as club
from tournaments.club.tasks import RATE_TASK, ratings_game_changed_task
from tournaments.events import services
from tournaments.models import Player, RatedGame


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_rates_a_finished_table(celery_worker_app):
    """The worker as deployed (deploy/bin/worker) rates a club night's table on its own."""
    sent: list[str] = []

    def on_sent(sender=None, **_):
        sent.append(sender)

    after_task_publish.connect(on_sent, weak=False)
    try:
        _rate_on_a_worker(celery_worker_app, sent)
    finally:
        after_task_publish.disconnect(on_sent)


def _rate_on_a_worker(app, sent: list[str]) -> None:
    director = get_user_model().objects.create_user("worker-director")
    event = services.event_create(
        owner=director, name="Worker night", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="Ann\nBen\nCat\nDan")
    club.club_night_set(event=event)
    round_ = services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event)
    )
    table = round_.tables.select_related("game").get()
    play_table(table)  # autocommit: every change's hook runs at once, the task goes out
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not RatedGame.objects.filter(game=table.game).exists():
        time.sleep(0.05)
    assert RATE_TASK in sent
    # Every task sent has run before the test's database goes away.
    inspect = app.control.inspect(timeout=2)
    while time.monotonic() < deadline:
        busy = [*(inspect.active() or {}).values(), *(inspect.reserved() or {}).values()]
        if not any(busy):
            break
        time.sleep(0.1)
    rated = RatedGame.objects.get(game=table.game)
    assert sorted(len(side) for side in rated.sides) == [2, 2]  # two partnerships
    built = sorted(Player.objects.values_list("name", "mu", "sigma"))
    assert len({mu for _, mu, _ in built}) > 1  # the winners' ratings moved apart
    # Delivered again (a worker lost after the work): nothing changes.
    assert ratings_game_changed_task(table.game_id) == "unchanged"
    assert sorted(Player.objects.values_list("name", "mu", "sigma")) == built
