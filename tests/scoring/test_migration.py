"""Games played before the last round's number was kept on the game get it when it comes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import Game

BEFORE = [("scoring", "0008_game_kind_from_registry")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_latest():
    yield
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_each_game_gets_the_number_of_its_last_round(back_to_latest):
    old_apps = migrate(BEFORE)
    OldGame = old_apps.get_model("scoring", "Game")
    OldRound = old_apps.get_model("scoring", "Round")
    played = {}
    for rounds in (0, 1, 5):
        game = OldGame.objects.create(
            kind="roolz", table_token=f"t{rounds}", view_token=f"v{rounds}"
        )
        for number in range(1, rounds + 1):
            OldRound.objects.create(game=game, number=number, entry={}, status="confirmed")
        played[game.pk] = rounds

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    kept = dict(Game.objects.filter(pk__in=played).values_list("pk", "last_round_number"))
    assert kept == played
