"""The Plackett-Luce rating update (Weng and Lin's Algorithm 4) on plain floats.

The same model, parameters and defaults as the ``openskill`` package's ``PlackettLuce``
(which stays the reference the tests compare with), with the arithmetic done in the
same order so the numbers are the same: tables of any size, a side of several players
as one team, equal places as a tie. What it leaves out is what we never ask of it:
scores with margins, player weights, ``balance`` and ``limit_sigma`` (all off by
default in the library). It costs a few microseconds a game where the library, which
copies every team and makes an identifier per rating, costs hundreds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.club.core.ratings import Skill


@dataclass(frozen=True, slots=True)
class Model:
    """The model's parameters (the library's defaults)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0

    @property
    def initial(self) -> Skill:
        """A new player's rating."""
        return Skill(self.mu, self.sigma)


MODEL = Model()


def rate(
    sides: Sequence[Sequence[Skill]], places: Sequence[int], model: Model = MODEL
) -> list[list[Skill]]:
    """Each side's players' skills after a game the sides finished in ``places``
    (1 for first, equal places for a tie), in the order given."""
    tau_squared = model.tau * model.tau
    kappa = model.kappa
    sqrt = math.sqrt
    # Sides in order of place (a stable sort: tied sides keep their order).
    order = sorted(range(len(sides)), key=places.__getitem__)
    ranks = [int(float(places[i])) for i in order]
    count = len(order)
    # Each player's sigma widened by the drift tau before the game.
    teams = [[(s.mu, sqrt(s.sigma * s.sigma + tau_squared)) for s in sides[i]] for i in order]
    team_mu: list[float] = []
    team_sigma_squared: list[float] = []
    beta_squared = model.beta**2
    collective = 0.0
    for team in teams:
        if len(team) == 1:
            mu_summed, sigma = team[0]
            sigma_squared_summed = sigma**2
        else:
            # Summed best ordinal first (the library's order of addition).
            mu_summed = 0.0
            sigma_squared_summed = 0.0
            for mu, sigma in sorted(team, key=_ordinal, reverse=True):
                mu_summed += mu
                sigma_squared_summed += sigma**2
        team_mu.append(mu_summed)
        team_sigma_squared.append(sigma_squared_summed)
        collective += sigma_squared_summed + beta_squared
    c = sqrt(collective)
    c_squared = c**2
    strengths = [math.exp(mu / c) for mu in team_mu]
    # sums[q]: the strengths of every side placed no better than side q, added in order
    # (the library's order, kept so that the numbers are its numbers to the last bit).
    sums = [0.0] * count
    if len(set(ranks)) == count:
        # No tie: every group is one side, so the library's divisions by the group's size
        # are divisions by 1, which change nothing and are left out.
        for q in range(count):
            total = strengths[q]
            for i in range(q + 1, count):
                total += strengths[i]
            sums[q] = total
        moves = []
        for i in range(count):
            omega = 0.0
            delta = 0.0
            strength = strengths[i]
            for q in range(i):
                share = strength / sums[q]
                delta += share * (1 - share)
                omega -= share
            share = strength / sums[i]
            delta += share * (1 - share)
            omega += 1 - share
            moves.append((omega, delta))
    else:
        moves = _moves_with_ties(ranks, strengths)
    after: list[list[Skill]] = [[] for _ in sides]
    for i in range(count):
        omega, delta = moves[i]
        sigma_squared_i = team_sigma_squared[i]
        omega *= sigma_squared_i / c
        delta *= sigma_squared_i / c_squared
        delta *= sqrt(sigma_squared_i) / c
        after[order[i]] = [
            Skill(
                mu + (part := sigma**2 / sigma_squared_i) * omega,
                sigma * sqrt(max(1 - part * delta, kappa)),
            )
            for mu, sigma in teams[i]
        ]
    return after


def _ordinal(player: tuple[float, float]) -> float:
    return (player[0] - 3.0 * player[1]) + 0.0


def _moves_with_ties(ranks: Sequence[int], strengths: Sequence[float]) -> list[tuple[float, float]]:
    """Each side's (omega, delta) before scaling when some sides tie: tied sides form a
    group, and each term is shared by the group's size."""
    count = len(ranks)
    # first[q] the first side of q's group, end[q] one past its last.
    first = [0] * count
    end = [count] * count
    for q in range(1, count):
        first[q] = first[q - 1] if ranks[q] == ranks[q - 1] else q
    for q in range(count - 2, -1, -1):
        end[q] = end[q + 1] if ranks[q] == ranks[q + 1] else q + 1
    sums = [0.0] * count
    for q in range(count):
        if first[q] == q:
            total = strengths[q]
            for i in range(q + 1, count):
                total += strengths[i]
            sums[q] = total
        else:
            sums[q] = sums[first[q]]
    tied = [end[q] - first[q] for q in range(count)]
    moves = []
    for i in range(count):
        omega = 0.0
        delta = 0.0
        strength = strengths[i]
        for q in range(end[i]):
            share = strength / sums[q]
            delta += share * (1 - share) / tied[q]
            if q == i:
                omega += (1 - share) / tied[q]
            else:
                omega -= share / tied[q]
        moves.append((omega, delta))
    return moves
