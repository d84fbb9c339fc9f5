"""The table's score reads only the last rounds, and answers as the whole score does."""

from __future__ import annotations

import pytest

from scoring.selectors import game_score
from scoring.services import Actor, game_create, round_save
from scoring.web.scores import READ_AHEAD, RecentResults, recent_score
from tests.games import GAMES, samples

pytestmark = pytest.mark.django_db

SAMPLES = {game: samples(game) for game in GAMES}
HEAD = ("format", "game", "players", "options", "first_dealer")


def game_with(kind: str, rounds: int, seed: int = 0):
    record = SAMPLES[kind].sample_record(rounds=rounds, seed=seed)
    head = {key: record[key] for key in HEAD if key in record}
    return game_create(record={**head, "rounds": record["rounds"]}).game, record["rounds"]


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("rounds", [0, 1, READ_AHEAD - 1, READ_AHEAD, READ_AHEAD + 5])
def test_the_recent_score_is_the_whole_score(kind, rounds):
    game, entries = game_with(kind, rounds)
    whole = game_score(game)
    recent = recent_score(game)
    assert len(recent.rounds) == len(whole.rounds) == len(entries)
    assert bool(recent.rounds) == bool(whole.rounds)
    assert recent == whole


@pytest.mark.parametrize("rounds", [1, READ_AHEAD + 5])
def test_every_round_of_the_recent_score_answers_as_the_whole_one(rounds):
    game, _ = game_with("roolz", rounds, seed=2)
    whole = game_score(game).rounds
    count = len(whole)
    for position in range(-count, count):
        recent = recent_score(game).rounds
        assert recent[position] == whole[position]
    recent = recent_score(game).rounds
    assert recent[1:3] == whole[1:3]
    assert list(recent) == whole
    assert list(reversed(recent)) == list(reversed(whole))
    with pytest.raises(IndexError):
        recent_score(game).rounds[count]


def test_the_recent_score_reads_only_the_last_rounds(django_assert_num_queries):
    game, _ = game_with("roolz", READ_AHEAD + 20)
    with django_assert_num_queries(1):
        recent = recent_score(game)
        last = recent.rounds[-1]
    assert isinstance(recent.rounds, RecentResults)
    assert len(recent.rounds.read()) == READ_AHEAD
    assert last == game_score(game).rounds[-1]


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("played", [0, 3, READ_AHEAD + 2])
def test_the_score_after_a_round_from_the_recent_score_is_the_score_read_again(kind, played):
    record = SAMPLES[kind].sample_record(rounds=played + 1, seed=played)
    entries = record["rounds"]
    head = {key: record[key] for key in HEAD if key in record}
    game = game_create(record={**head, "rounds": entries[:-1]}).game
    before = recent_score(game)
    saved = round_save(
        game=game, number=len(entries), entry=entries[-1], actor=Actor(seat=0), before=before
    )
    assert saved is not None and saved.alone
    after = saved.score
    game.refresh_from_db()
    assert after == game_score(game)
    assert len(after.rounds) == len(entries)
