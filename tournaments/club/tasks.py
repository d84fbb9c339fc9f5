"""The ratings task: thin, it takes a game id and calls the service.

Queued after the commit that changed the game; running it twice is harmless (the second
run finds the game rated as it stands and changes nothing).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction

from common.publish import publish
from tournaments.club.selectors import ratings_concern
from tournaments.club.services import ratings_game_changed

logger = logging.getLogger(__name__)

RATE_TASK = "tournaments.ratings_game_changed"


def ratings_game_changed_queue(*, game_id: int) -> None:
    """After the current transaction commits, send the game to be rated; with the broker
    away, rate it here and now (one game takes milliseconds)."""

    def send() -> None:
        if not ratings_concern(game_id=game_id):
            return
        if not publish(RATE_TASK, game_id):
            logger.warning("game %s: rating it in the request", game_id)
            ratings_game_changed(game_id=game_id)

    transaction.on_commit(send)


@shared_task(name=RATE_TASK, acks_late=True, reject_on_worker_lost=True)
def ratings_game_changed_task(game_id: int) -> str:
    return ratings_game_changed(game_id=game_id)
