"""A small event for exact tests: 8 entrants, tables of 4 and 3, a bye each round.

Round 3's table of three is not confirmed yet, so it must not count.
"""

from __future__ import annotations

from tournaments.standings.core import (
    Entrant,
    EventResults,
    RoundResults,
    SeatResult,
    TableResult,
)

ANN, BEN, CAT, DAN, EVE, FAY, GUS, HAL = range(1, 9)
NAMES = {ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan", EVE: "Eve", FAY: "Fay", GUS: "Gus"}
NAMES[HAL] = "Hal"


def table(number: int, *seats: tuple[int, int, int], confirmed: bool = True) -> TableResult:
    return TableResult(
        number=number,
        seats=tuple(SeatResult(entrant=e, points=p, place=pl) for e, p, pl in seats),
        confirmed=confirmed,
    )


SMALL_EVENT = EventResults(
    entrants=tuple(Entrant(id=i, name=n) for i, n in NAMES.items()),
    rounds=(
        RoundResults(
            number=1,
            tables=(
                table(1, (ANN, 120, 1), (BEN, 80, 2), (DAN, 80, 2), (GUS, -20, 4)),
                table(2, (EVE, 50, 1), (CAT, 30, 2), (FAY, 10, 3)),
            ),
            byes=(HAL,),
        ),
        RoundResults(
            number=2,
            tables=(
                table(1, (EVE, 100, 1), (HAL, 70, 2), (BEN, 40, 3), (GUS, 0, 4)),
                table(2, (CAT, 60, 1), (DAN, 50, 2), (ANN, 20, 3)),
            ),
            byes=(FAY,),
        ),
        RoundResults(
            number=3,
            tables=(
                table(1, (FAY, 90, 1), (HAL, 40, 2), (DAN, 10, 3), (ANN, -30, 4)),
                table(2, (CAT, 100, 1), (BEN, 50, 2), (EVE, 0, 3), confirmed=False),
            ),
            byes=(GUS,),
        ),
    ),
)
