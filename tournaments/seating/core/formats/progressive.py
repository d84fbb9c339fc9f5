"""Progressive: the winners of each table move up one table, the others down, partners
split; the first tournament round is seated by the mixer. Byes to those with fewest, by draw."""

from __future__ import annotations

from tournaments.seating.core.formats import mixer
from tournaments.seating.core.formats.base import Seated, Seating, blocks_of, sit_out
from tournaments.seating.core.seat_order import seat_order
from tournaments.seating.core.types import EntrantId, Table
from tournaments.seating.core.words import PROGRESSIVE, PROGRESSIVE_FIRST


def plan(seating: Seating) -> Seated:
    """Winners of a table move up one table, the others down; partners are split."""
    request, ledger, rng = seating.request, seating.ledger, seating.rng
    field = sit_out(seating)
    seated, sizes = field.seated, field.sizes
    if not request.history or not request.history[-1].tables:
        mixed, _ = mixer.seat(seating, seated, sizes)
        return Seated(tables=mixed, byes=field.byes, method=PROGRESSIVE_FIRST)
    last = request.history[-1]
    bottom = len(last.tables) - 1
    target: dict[EntrantId, tuple[int, int]] = {}
    for index, table in enumerate(last.tables):
        for entrant in table:
            if entrant in last.winners:
                target[entrant] = (max(index - 1, 0), 0)
            else:
                target[entrant] = (min(index + 1, bottom), 1)
    tiebreak = {e: rng.random() for e in sorted(seated)}
    order = sorted(seated, key=lambda e: (*target.get(e, (bottom + 1, 2)), tiebreak[e]))
    tables: list[Table] = []
    start = 0
    blocks = blocks_of(request.constraints)
    for size in sizes:
        members = order[start : start + size]
        start += size
        tables.append(seat_order(members, request.policy.sides_at(size), ledger, blocks))
    return Seated(tables=tables, byes=field.byes, method=PROGRESSIVE)
