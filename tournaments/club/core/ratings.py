"""The bookkeeping of ratings: games in a fixed order, each moving its players' skills.

The update itself (``RateFn``) is handed in by the outer layer (``plackett_luce.rate``,
the Plackett-Luce model), so this module stays plain Python. Games are ordered by their
``key``; a game added, changed or taken away before the last one re-rates from that
game on: the ratings go back to what they were before it (the ``before`` of each
player's first step from there) and the games from there are played again. Replaying
every game from nothing gives the same numbers, step for step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

PlayerId = int
GameKey = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating: ``mu`` the estimate, ``sigma`` its uncertainty."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The number shown and ranked by: a cautious estimate (mu - 3 sigma)."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished table: its sides (players who score together) and their places
    (1 for first, equal places for a tie), in the same order. ``key`` orders the games."""

    key: GameKey
    game: int
    sides: tuple[tuple[PlayerId, ...], ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """What one game did to one player's rating."""

    key: GameKey
    game: int
    player: PlayerId
    before: Skill
    after: Skill


RateFn = Callable[[Sequence[Sequence[Skill]], Sequence[int]], Sequence[Sequence[Skill]]]


@dataclass(frozen=True)
class Replay:
    ratings: dict[PlayerId, Skill]  # every player the replay touched, after it
    steps: list[Step]  # in game order, players in seat order within a game


def game_problems(game: RatedGame) -> list[str]:
    """Why a game cannot be rated (a bug of the outer layer when not empty)."""
    found: list[str] = []
    if len(game.sides) < 2:
        found.append("a rated game needs at least two sides")
    if len(game.sides) != len(game.places):
        found.append("one place per side")
    if any(not side for side in game.sides):
        found.append("a side without players")
    players = [p for side in game.sides for p in side]
    if len(set(players)) != len(players):
        found.append("a player on two sides")
    return found


def replay(
    games: Iterable[RatedGame],
    *,
    rate: RateFn,
    initial: Skill,
    start: Mapping[PlayerId, Skill] | None = None,
) -> Replay:
    """Play ``games`` in key order from the ratings ``start`` (``initial`` for the rest)."""
    ratings: dict[PlayerId, Skill] = dict(start or {})
    steps: list[Step] = []
    for game in sorted(games, key=lambda g: g.key):
        before = [[ratings.get(p, initial) for p in side] for side in game.sides]
        after = rate(before, game.places)
        for side, was, now in zip(game.sides, before, after, strict=True):
            for player, old, new in zip(side, was, now, strict=True):
                ratings[player] = new
                steps.append(Step(game.key, game.game, player, old, new))
    return Replay(ratings, steps)


def rerate_from(
    *,
    current: Mapping[PlayerId, Skill],
    undone: Sequence[Step],
    tail: Iterable[RatedGame],
    rate: RateFn,
    initial: Skill,
) -> Replay:
    """Re-rate from a change point: ``undone`` are the steps of every game from that point
    on (as they stand, in order), ``tail`` the games from that point on as they are now.

    The ratings at the change point are ``current`` with each player of ``undone`` put
    back to the ``before`` of their first step there; a player whose only games were
    undone and who plays no game of the tail goes back to that rating too (the result
    names them, so the outer layer can store it). Returns the ratings of every player
    ``undone`` or ``tail`` touches, and the new steps.
    """
    start: dict[PlayerId, Skill] = {}
    for step in undone:
        start.setdefault(step.player, step.before)
    touched = set(start)
    base = {**{p: current[p] for p in current}, **start}
    played = replay(tail, rate=rate, initial=initial, start=base)
    touched.update(step.player for step in played.steps)
    return Replay({p: played.ratings.get(p, initial) for p in touched}, played.steps)


def ranked(ratings: Mapping[PlayerId, Skill]) -> list[tuple[int, PlayerId, Skill]]:
    """Players best first by ordinal (then mu, then id), with shared ranks for equal ordinals."""
    order = sorted(ratings.items(), key=lambda kv: (-kv[1].ordinal, -kv[1].mu, kv[0]))
    out: list[tuple[int, PlayerId, Skill]] = []
    rank = 0
    previous: float | None = None
    for position, (player, skill) in enumerate(order, start=1):
        shown = round(skill.ordinal, 6)
        if shown != previous:
            rank, previous = position, shown
        out.append((rank, player, skill))
    return out
