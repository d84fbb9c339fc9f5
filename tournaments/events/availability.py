"""Who is seated in the next round: availability every round.

The rule, stated once: while nobody is checked in, every player who has not dropped is
seated (from the round they joined). Once the director checks anyone in, only the players
checked in are seated, in every round: ticking marks a player present for the next round,
unticking marks them away. Unticking never drops a player: they come back when ticked
again. A player away for a round scores as the event's ``away_scoring`` says.

A table of an earlier round that is still playing holds its players: a round is not
published while one is, unless the director chooses to go on; the new draft then leaves
those players out (they are recorded as absent, still playing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext

from common.phrases import N_
from scoring.models import Game
from tournaments.models import Entrant, Event, TableSeat, TournamentRound

CHECK_IN_RULE = N_(
    "Once anyone is checked in, only the players checked in are seated, every round. "
    "Unticking a player marks them away for the next round; it never drops them."
)


@dataclass(frozen=True)
class StillPlaying:
    """A table of a published round whose game has not finished, and who sits there."""

    round_number: int
    table_number: int
    entrant_ids: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def where(self) -> str:
        """ "round 2, table 3" in the reader's language."""
        return gettext("round {round}, table {table}").format(
            round=self.round_number, table=self.table_number
        )

    @property
    def label(self) -> str:
        """Where, and who sits there, in the reader's language."""
        return gettext("{where}: {names}").format(where=self.where, names=", ".join(self.names))


@dataclass(frozen=True)
class Availability:
    """Round ``number``'s availability: who is seated, who is away, who still plays."""

    number: int
    checking: bool
    seated: tuple[Entrant, ...]
    away: tuple[Entrant, ...]
    playing: tuple[Entrant, ...] = ()
    tables_playing: tuple[StillPlaying, ...] = field(default=())

    @property
    def seated_ids(self) -> frozenset[int]:
        return frozenset(e.pk for e in self.seated)


def is_checking(entrants: Iterable[Entrant]) -> bool:
    """Whether check-in is in use: anyone checked in (dropped players do not count)."""
    return any(e.checked_in and not e.dropped for e in entrants)


def tables_still_playing(event: Event) -> list[StillPlaying]:
    """Every published table of the event whose game has not finished, oldest first."""
    seats = (
        TableSeat.objects.filter(
            table__round__event=event,
            table__round__status=TournamentRound.Status.PUBLISHED,
        )
        .exclude(table__game__status=Game.Status.FINISHED)
        .order_by("table__round__number", "table__number", "seat")
        .values_list("table__round__number", "table__number", "entrant_id", "entrant__name")
    )
    found: dict[tuple[int, int], tuple[list[int], list[str]]] = {}
    for round_number, table_number, entrant_id, name in seats:
        ids, names = found.setdefault((round_number, table_number), ([], []))
        if entrant_id not in ids:
            ids.append(entrant_id)
            names.append(name)
    return [StillPlaying(r, t, tuple(ids), tuple(names)) for (r, t), (ids, names) in found.items()]


def availability_for(
    event: Event,
    *,
    number: int,
    entrants: Sequence[Entrant] | None = None,
    leave_out_playing: bool = False,
) -> Availability:
    """Who round ``number`` seats, under the rule above.

    ``leave_out_playing``: the director chose to go on while tables still play; their
    players are left out of the draft.
    """
    everyone = list(event.entrants.all()) if entrants is None else list(entrants)
    checking = is_checking(everyone)
    due = [e for e in everyone if not e.dropped and e.joined_round <= number]
    present = [e for e in due if e.checked_in or not checking]
    away = [e for e in due if checking and not e.checked_in]
    still = tables_still_playing(event) if leave_out_playing else []
    busy = {pk for t in still for pk in t.entrant_ids}
    return Availability(
        number=number,
        checking=checking,
        seated=tuple(e for e in present if e.pk not in busy),
        away=tuple(away),
        playing=tuple(e for e in present if e.pk in busy),
        tables_playing=tuple(still),
    )


def seated_still_playing(round_: TournamentRound) -> list[tuple[str, StillPlaying]]:
    """Players seated in the draft ``round_`` who still play a table of an earlier round."""
    drafted = set(
        TableSeat.objects.filter(table__round=round_).values_list("entrant_id", flat=True)
    )
    return [
        (name, table)
        for table in tables_still_playing(round_.event)
        if table.round_number < round_.number
        for pk, name in zip(table.entrant_ids, table.names, strict=True)
        if pk in drafted
    ]


__all__ = [
    "CHECK_IN_RULE",
    "Availability",
    "StillPlaying",
    "availability_for",
    "is_checking",
    "seated_still_playing",
    "tables_still_playing",
]
