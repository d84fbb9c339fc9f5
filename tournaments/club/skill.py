"""The rating update the seasons core is handed: Plackett-Luce for tables of any size.

``rate`` is our own plain-float update (``core.plackett_luce``), used for every rating,
game by game and in a rebuild. ``openskill_rate`` is the ``openskill`` package's own
update, the reference the tests and the benchmark compare ours with. A side of several
players (a partnership, a fixed team) is one team; the model's defaults are kept: mu 25,
sigma 25/3, and the small drift (tau) each game adds.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from tournaments.club.core.plackett_luce import MODEL as OURS
from tournaments.club.core.plackett_luce import rate
from tournaments.club.core.ratings import RateFn, Skill

MODEL = PlackettLuce()
INITIAL = OURS.initial
RATE: RateFn = rate


def openskill_rate(sides: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """Each side's players' skills after a game the sides finished in ``places``."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [[Skill(float(r.mu), float(r.sigma)) for r in team] for team in rated]
