"""What standings are computed from: entrants, and each tournament round's tables and byes.

Plain values only. The outer layer loads an event's rows, scores each table
with its engine, and turns every table into a ``TableResult`` (``table_from_game``
does this from an engine's totals, winners and teams).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from common.phrases import N_, Words
from scoring.engines.base import Problem

EntrantId = int


@dataclass(frozen=True)
class Entrant:
    """A player (or fixed team) registered in the event."""

    id: EntrantId
    name: str


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished table.

    ``points`` is the seat's final game total (a team's total at each member's
    seat). ``place`` is the finishing place of the seat's side, 1 for first,
    tied sides sharing a place and the next side skipping the places they span
    (1, 1, 3). ``side`` names the seat's team; None when the seat plays alone.
    When the entrants are fixed teams, each team entrant takes a single seat
    result for the whole team.
    """

    entrant: EntrantId
    points: int | float
    place: int
    side: str | None = None


@dataclass(frozen=True)
class TableResult:
    """One table of one tournament round: its seats in seat order, and whether it counts.

    Only confirmed tables count towards standings.
    """

    number: int
    seats: tuple[SeatResult, ...]
    confirmed: bool = True

    @property
    def size(self) -> int:
        """The number of players at the table."""
        return len(self.seats)

    def sides(self) -> list[tuple[SeatResult, ...]]:
        """The competing sides in order of first seat: a team's seats, or a lone seat."""
        return list(self._sides)

    @cached_property
    def _sides(self) -> tuple[tuple[SeatResult, ...], ...]:
        # Worked out once per table: validation and scoring both ask for it.
        seats = self.seats
        if all(seat.side is None for seat in seats):
            return tuple((seat,) for seat in seats)
        # A team by its label, a lone seat by its number (never equal: text and numbers).
        grouped: dict[str | int, list[SeatResult]] = {}
        for index, seat in enumerate(seats):
            grouped.setdefault(index if seat.side is None else seat.side, []).append(seat)
        return tuple(tuple(members) for members in grouped.values())

    @cached_property
    def _shape_problems(self) -> tuple[tuple[Words, str], ...]:
        """What is wrong with the table itself, as (message, field): fewer than two sides,
        a team whose seats differ, places that do not follow each other."""
        sides = self._sides
        if len(sides) < 2:
            return ((Words(N_("a table needs at least two sides")), "seats"),)
        problems: list[tuple[Words, str]] = []
        for members in sides:
            first = members[0]
            if len(members) > 1 and any(
                m.points != first.points or m.place != first.place for m in members
            ):
                problems.append((_team_differs(first.side), "seats"))
        places = [members[0].place for members in sides]
        side_places = sorted(places)
        for place in places:
            ahead = bisect_left(side_places, place)
            if place != ahead + 1:
                message = Words(
                    N_(
                        "place {place} does not follow the places ahead of it (expected {expected})"
                    ),
                    {"place": place, "expected": ahead + 1},
                )
                problems.append((message, "place"))
                break
        return tuple(problems)


@dataclass(frozen=True)
class RoundResults:
    """One tournament round: its tables and the entrants who sat out with a bye."""

    number: int
    tables: tuple[TableResult, ...] = ()
    byes: tuple[EntrantId, ...] = ()


@dataclass(frozen=True)
class EventResults:
    """Everything standings are computed from."""

    entrants: tuple[Entrant, ...]
    rounds: tuple[RoundResults, ...]


class InvalidResults(ValueError):
    """Results that cannot be ranked; carries every problem, each naming its round."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def places_from_totals(
    totals: Sequence[int | float],
    winners: Sequence[int] = (),
    teams: Mapping[str, Sequence[int]] | None = None,
) -> list[int]:
    """Each seat's finishing place from an engine's totals, winners and teams.

    The engine's winners come first (sharing first place when there are
    several), then every other side by total, highest first; equal totals share
    a place. A team's seats share the team's place. With no winners (a game
    stopped before its end) the totals alone decide.
    """
    return _places(_side_seats(len(totals), _seat_teams(teams)), totals, winners)


def _seat_teams(teams: Mapping[str, Sequence[int]] | None) -> dict[int, str]:
    """Each seat of a team and its team's label."""
    seat_team: dict[int, str] = {}
    for label, members in (teams or {}).items():
        for seat in members:
            seat_team[seat] = label
    return seat_team


def _side_seats(count: int, seat_team: Mapping[int, str]) -> list[list[int]]:
    """The seats of each side, in order of first seat: a team's seats, or a lone seat."""
    sides: dict[str | int, list[int]] = {}  # a team by its label, a lone seat by its number
    for seat in range(count):
        sides.setdefault(seat_team.get(seat, seat), []).append(seat)
    return list(sides.values())


def _places(
    sides: Sequence[Sequence[int]], totals: Sequence[int | float], winners: Sequence[int]
) -> list[int]:
    winning = set(winners)
    # A side's key: not among the winners, then its total, highest first; lower is better.
    keys = [(winning.isdisjoint(members), -totals[members[0]]) for members in sides]
    ordered = sorted(keys)
    places = [0] * len(totals)
    for members, key in zip(sides, keys, strict=True):
        place = 1 + bisect_left(ordered, key)  # 1 + the sides strictly ahead
        for seat in members:
            places[seat] = place
    return places


def table_from_game(
    *,
    number: int,
    entrants: Sequence[EntrantId],
    totals: Sequence[int | float],
    winners: Sequence[int] = (),
    teams: Mapping[str, Sequence[int]] | None = None,
    confirmed: bool = True,
) -> TableResult:
    """A table's result from a scored game: ``entrants`` by seat, the engine's output."""
    if len(entrants) != len(totals):
        raise ValueError("one entrant per seat and one total per seat are needed")  # a bug
    seat_team = _seat_teams(teams)
    sides = _side_seats(len(totals), seat_team) if seat_team else [[s] for s in range(len(totals))]
    places = _places(sides, totals, winners)
    team_of = seat_team.get
    seats = tuple(
        [
            SeatResult(entrant, points, place, team_of(seat))
            for seat, entrant, points, place in zip(
                range(len(totals)), entrants, totals, places, strict=True
            )
        ]
    )
    table = TableResult(number, seats, confirmed)
    # What validation and scoring would work out again is known here already: the sides
    # (the same grouping as ``TableResult.sides``: by team label, else by seat), and the
    # table's own soundness: places worked out from the totals follow each other, so
    # only too few sides or a team whose seats have different totals can be wrong.
    table.__dict__["_sides"] = tuple([tuple([seats[i] for i in members]) for members in sides])
    if all(total == total for total in totals):  # no NaN: the places are in order
        table.__dict__["_shape_problems"] = _team_problems(sides, totals, seat_team)
    return table


def _team_differs(team: object) -> Words:
    return Words(N_("team {team} has seats with different results"), {"team": str(team)})


def _team_problems(
    sides: Sequence[Sequence[int]], totals: Sequence[int | float], seat_team: Mapping[int, str]
) -> tuple[tuple[Words, str], ...]:
    """``TableResult._shape_problems`` of a table whose places come from its totals."""
    if len(sides) < 2:
        return ((Words(N_("a table needs at least two sides")), "seats"),)
    return tuple(
        [
            (_team_differs(seat_team[members[0]]), "seats")
            for members in sides
            if len(members) > 1 and len({totals[seat] for seat in members}) > 1
        ]
    )


def results_problems(event: EventResults) -> list[Problem]:
    """Every mistake in the results, each naming its round and table (empty when sound)."""
    problems: list[Problem] = []
    ids = [e.id for e in event.entrants]
    for entrant_id, count in Counter(ids).items():
        if count > 1:
            problems.append(
                Problem(
                    N_("entrant {entrant} is registered twice"),
                    None,
                    "entrants",
                    {"entrant": entrant_id},
                )
            )
    known = set(ids)
    numbers = Counter(r.number for r in event.rounds)
    for number, count in numbers.items():
        if count > 1:
            problems.append(
                Problem(N_("round {number} is given twice"), number, "rounds", {"number": number})
            )
    for rnd in event.rounds:
        problems.extend(_round_problems(rnd, known))
    return problems


def _round_problems(rnd: RoundResults, known: set[EntrantId]) -> list[Problem]:
    problems: list[Problem] = []

    def problem(template: str, field: str, **values: object) -> None:
        problems.append(Problem(template, rnd.number, field, values))

    seated: list[EntrantId] = list(rnd.byes)  # every placing in the round, in order
    for entrant_id in rnd.byes:
        if entrant_id not in known:
            problem(
                N_("bye for entrant {entrant}, who is not registered"), "byes", entrant=entrant_id
            )
    for table in rnd.tables:
        entrants = [seat.entrant for seat in table.seats]
        seated.extend(entrants)
        if not known.issuperset(entrants):
            for entrant_id in entrants:
                if entrant_id not in known:
                    problem(
                        N_("table {table}: entrant {entrant} is not registered"),
                        "seats",
                        table=table.number,
                        entrant=entrant_id,
                    )
        for message, field in table._shape_problems:
            problem(N_("table {table}: {problem}"), field, table=table.number, problem=message)
    for entrant_id, count in Counter(seated).items():
        if count > 1:
            problem(
                N_("entrant {entrant} is placed {count} times in the round"),
                "seats",
                entrant=entrant_id,
                count=count,
            )
    return problems
