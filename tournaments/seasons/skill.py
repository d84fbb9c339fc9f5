"""The rating update: OpenSkill's Plackett-Luce model, as the seasons core's ``RateFn``.

Plackett-Luce rates tables of any size; a side of several players (a partnership, a
fixed team) is one OpenSkill team. The model's defaults are kept: mu 25, sigma 25/3,
and the small drift (tau) each game adds.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from tournaments.seasons.core.ratings import Skill

MODEL = PlackettLuce()
INITIAL = Skill(mu=float(MODEL.mu), sigma=float(MODEL.sigma))


def openskill_rate(sides: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """Each side's players' skills after a game the sides finished in ``places``."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [[Skill(float(r.mu), float(r.sigma)) for r in team] for team in rated]
