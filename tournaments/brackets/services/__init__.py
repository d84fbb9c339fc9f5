"""An event's bracket stage: every change, one service each, atomic and audited.

``stage``: creating a stage and the cut; ``matches``: the matches' games, advancing and
the director's override.

The pure core (``tournaments.brackets.core``) holds the rules; these modules load a
stage's stored inputs into a core bracket, ask it what happened, and save the new inputs,
the scoring games of the matches that are ready, and an ``EventLog`` row.

Changes:

- ``stage_create``: an elimination of the event's entrants (or of those given): two-team
  single or double elimination, or table elimination; seeded from the standings, at
  random or by hand; the draw rule for level tables chosen now, before any play.
- ``stage_cut``: a two-stage event's cut: the top N of the qualifying standings go on.
- ``bracket_game_changed``: called by the tournament hook after any change to a
  tournament game; a finished (and confirmed) match game reports its finish, the
  winners advance, and the next matches' games are created with their table links.
- ``bracket_override``: the director decides a match's finish, with a reason (audited).

The reads (the stage as the core's bracket, the page, a match game's finish) are in
``tournaments.brackets.selectors``.
"""

from tournaments.brackets.services.matches import (
    bracket_game_changed,
    bracket_override,
    stage_advance,
)
from tournaments.brackets.services.stage import stage_create, stage_cut
from tournaments.errors import TournamentError

__all__ = [
    "TournamentError",
    "bracket_game_changed",
    "bracket_override",
    "stage_advance",
    "stage_create",
    "stage_cut",
]
