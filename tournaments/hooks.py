"""What scoring's settings hook calls after a tournament game changes.

``TABLESCORE_GAME_CHANGED_HOOK`` names ``table_game_changed`` and
``TABLESCORE_TABLE_CLOCK_HOOK`` names ``table_clock`` and ``TABLESCORE_SEAT_PROOF_HOOK``
names ``seat_person``: scoring imports no
tournaments code, and this dotted path is the one link from a table to its event (the
architecture test counts it as an edge from scoring's settings to this module).
"""

from __future__ import annotations

from django.db.models import F

from tournaments.brackets.services import bracket_game_changed
from tournaments.club.tasks import ratings_game_changed_queue
from tournaments.events.me_selectors import person_at_seat
from tournaments.events.selectors import Clock, clock_of
from tournaments.models import Event, Table, TournamentRound


def table_game_changed(*, game_id: int) -> None:
    """Players' pages refresh; a bracket match's finished game advances its winners; a
    rated club night's game re-rates its players.

    Standings are computed on demand, so nothing else needs to be kept up to date.
    """
    # The event of the game's table, found through its round alone (one join, no more).
    events = TournamentRound.objects.filter(tables__game_id=game_id).values("event_id")
    Event.objects.filter(pk__in=events).update(revision=F("revision") + 1)
    # A bracket match's game: report its finish, advance the winners, seat the next match.
    bracket_game_changed(game_id=game_id)
    # A rated club night's game: its players' ratings follow, in a task of their own.
    ratings_game_changed_queue(game_id=game_id)


def table_clock(*, game_id: int) -> Clock | None:
    """The clock of the tournament round the game's table plays in (None for a game at
    no event table). Table pages show it as the projector does."""
    table = Table.objects.filter(game_id=game_id).select_related("round").first()
    if table is None:
        return None
    return clock_of(table.round)


def seat_person(*, game_id: int, seat: int, proof: str) -> str:
    """Who a phone holds ``seat`` of the table playing ``game_id`` for, as the proof its
    player's own link left on it shows ("" when it shows nobody: a reissued link, another
    seat). ``TABLESCORE_SEAT_PROOF_HOOK`` names this function."""
    return person_at_seat(game_id=game_id, seat=seat, proof=proof)
