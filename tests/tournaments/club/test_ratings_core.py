"""Rating bookkeeping: the ratings (made by our update, ``RATE``) equal OpenSkill's own
update, the reference; re-rating from a change equals a replay."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tournaments.club.core.ratings import (
    RatedGame,
    Skill,
    Step,
    game_problems,
    ranked,
    replay,
    rerate_from,
)
from tournaments.club.skill import INITIAL, RATE


def test_one_table_of_four_equals_the_librarys_own_update():
    model = PlackettLuce()
    players = [model.rating() for _ in range(4)]
    expected = model.rate([[p] for p in players], ranks=[2, 1, 4, 3])
    ours = replay(
        [RatedGame((1,), 1, ((10,), (11,), (12,), (13,)), (2, 1, 4, 3))],
        rate=RATE,
        initial=INITIAL,
    )
    for pid, team in zip((10, 11, 12, 13), expected, strict=True):
        assert ours.ratings[pid] == Skill(team[0].mu, team[0].sigma)


def test_partnerships_and_ties_equal_the_library_over_several_games():
    model = PlackettLuce()
    lib = {p: model.rating() for p in range(1, 7)}
    games = [
        RatedGame((1,), 1, ((1, 3), (2, 4)), (1, 2)),  # two partnerships
        RatedGame((2,), 2, ((1,), (5,), (6,)), (1, 1, 3)),  # a tie for first
        RatedGame((3,), 3, ((5, 6), (1, 2), (3, 4)), (3, 1, 2)),  # three teams of two
    ]
    for game in games:
        teams = [[lib[p] for p in side] for side in game.sides]
        rated = model.rate(teams, ranks=list(game.places))
        for side, team in zip(game.sides, rated, strict=True):
            for p, r in zip(side, team, strict=True):
                lib[p] = r
    ours = replay(games, rate=RATE, initial=INITIAL).ratings
    assert ours == {p: Skill(r.mu, r.sigma) for p, r in lib.items()}
    # The winners moved up and the player who came last moved down.
    assert ours[1].mu > INITIAL.mu
    order = [p for _, p, _ in ranked(ours)]
    assert order[0] == 1


def test_a_broken_game_is_named():
    assert game_problems(RatedGame((1,), 1, ((1,),), (1,)))
    assert game_problems(RatedGame((1,), 1, ((1,), (1,)), (1, 2)))
    assert not game_problems(RatedGame((1,), 1, ((1,), (2,)), (1, 2)))


# --------------------------------------------------------------------------- re-rating


class Ledger:
    """What the outer layer stores: the games and the steps, changed one game at a time
    by ``rerate_from`` exactly as the service does."""

    def __init__(self) -> None:
        self.games: dict[int, RatedGame] = {}
        self.steps: list[Step] = []
        self.ratings: dict[int, Skill] = {}

    def put(self, game: RatedGame | None, game_id: int) -> None:
        old = self.games.get(game_id)
        keys = [g.key for g in (old, game) if g is not None]
        if not keys:
            return
        start = min(keys)
        undone = [s for s in self.steps if s.key >= start]
        self.steps = [s for s in self.steps if s.key < start]
        if game is None:
            self.games.pop(game_id, None)
        else:
            self.games[game_id] = game
        tail = [g for g in self.games.values() if g.key >= start]
        result = rerate_from(
            current=self.ratings, undone=undone, tail=tail, rate=RATE, initial=INITIAL
        )
        self.steps.extend(result.steps)
        self.ratings.update(result.ratings)
        played = {s.player for s in self.steps}
        self.ratings = {p: r for p, r in self.ratings.items() if p in played}


def a_game(draw, game_id: int, key: int) -> RatedGame:
    players = draw(st.lists(st.integers(1, 12), min_size=2, max_size=8, unique=True))
    team_size = draw(st.sampled_from([1, 2])) if len(players) % 2 == 0 else 1
    sides = tuple(tuple(players[i : i + team_size]) for i in range(0, len(players), team_size))
    if len(sides) < 2:
        sides = tuple((p,) for p in players)
    places = tuple(draw(st.integers(1, len(sides))) for _ in sides)
    return RatedGame((key, game_id), game_id, sides, places)


@st.composite
def operations(draw):
    """Results, corrections (a game's places or order change) and undos (a game no longer
    counts), in any order."""
    ops = []
    for _ in range(draw(st.integers(1, 14))):
        game_id = draw(st.integers(1, 8))
        if draw(st.integers(0, 4)) == 0:
            ops.append((game_id, None))
        else:
            ops.append((game_id, a_game(draw, game_id, draw(st.integers(0, 20)))))
    return ops


@settings(max_examples=60, deadline=None)
@given(operations())
def test_rerating_from_each_change_equals_replaying_everything(ops):
    ledger = Ledger()
    for game_id, game in ops:
        ledger.put(game, game_id)
    fresh = replay(ledger.games.values(), rate=RATE, initial=INITIAL)
    assert ledger.ratings == fresh.ratings
    assert sorted(ledger.steps, key=lambda s: s.key) == fresh.steps
