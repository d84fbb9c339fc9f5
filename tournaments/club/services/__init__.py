"""Changes to the club, each one atomic and logged in the roster's log: a module per
entity (``roster``, ``seasons``, ``nights``, ``ratings``, ``transfer``: the roster's
document and an event's club night brought in). The reads are in
``tournaments.club.selectors``.
"""

from tournaments.club.errors import ClubError
from tournaments.club.services.nights import NightLinks, club_night_set, entrant_link
from tournaments.club.services.ratings import ratings_game_changed, ratings_recompute
from tournaments.club.services.roster import (
    ImportResult,
    player_create,
    player_link_reissue,
    player_merge,
    player_rename,
    player_update,
    roster_for,
    roster_import,
)
from tournaments.club.services.seasons import season_create
from tournaments.club.services.transfer import club_import, roster_import_json

__all__ = [
    "ClubError",
    "ImportResult",
    "NightLinks",
    "club_import",
    "club_night_set",
    "entrant_link",
    "player_create",
    "player_link_reissue",
    "player_merge",
    "player_rename",
    "player_update",
    "ratings_game_changed",
    "ratings_recompute",
    "roster_for",
    "roster_import",
    "roster_import_json",
    "season_create",
]
