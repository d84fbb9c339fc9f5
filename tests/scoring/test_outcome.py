"""A game's outcome read from the kept standing: the same from a loaded game and from a
query's columns, and equal to what the engine says of the game."""

from __future__ import annotations

import importlib

import pytest

from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES
from scoring.models import Game
from scoring.selectors import GameOutcome, game_record
from scoring.services import Actor, game_create, round_record

pytestmark = pytest.mark.django_db

ANN = Actor(seat=0, device="test")


def played(key: str, rounds: int) -> Game:
    module = importlib.import_module(f"scoring.engines.samples.{key}")
    record = parse_record(module.sample_record(rounds=rounds, seed=3), ENGINES).with_extras({})
    game = game_create(record=record.with_rounds([]).as_dict()).game
    for number, entry in enumerate(record.rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=ANN)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_the_outcome_is_the_engines_totals_winners_and_teams(key):
    game = played(key, 8)
    score = game.engine.score(game_record(game))
    outcome = GameOutcome.of(game)
    assert outcome.totals == tuple(score.totals)
    assert outcome.winners == tuple(score.winners)
    assert dict(outcome.teams) == score.teams
    assert len(outcome.totals) == len(score.players)


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_the_outcome_read_from_columns_equals_the_one_read_from_the_game(key):
    game = played(key, 5)
    values = Game.objects.filter(pk=game.pk).values_list(*GameOutcome.columns()).get()
    assert GameOutcome.from_values(values) == GameOutcome.of(game)


def test_a_game_with_nothing_kept_has_an_empty_outcome():
    game = played(sorted(ENGINES)[0], 2)
    Game.objects.filter(pk=game.pk).update(score_cache={})
    game.refresh_from_db()
    assert GameOutcome.of(game) == GameOutcome()
    values = Game.objects.filter(pk=game.pk).values_list(*GameOutcome.columns()).get()
    assert GameOutcome.from_values(values) == GameOutcome()
    assert GameOutcome.from_values(()) == GameOutcome()
