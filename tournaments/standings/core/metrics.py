"""The standings metrics, one entry each in ``Metric``: key, label, kind and value.

A metric is one member of ``Metric``: its key, then its spec, which says its kind and
how its value is found. ``METRIC_LABELS``, ``ROUND_METRICS`` and ``OPPONENT_METRICS``
are read from the specs; the ranking reads nothing else. Every metric is "higher is
better".

Kinds:

- ``RoundMetric``: a value for each side at each counted table (``SidesAtRound``),
  added up round by round; a bye scores it as the bye rule says (``bye_fixed``: what
  a fixed bye gives when the director names no value for it). A strength (the
  ``strength_of`` of the rules) is one of these.
- ``OpponentMetric``: a value from the strength of one's opponents (``Opposition``);
  byes add nothing unless the bye rule's ``opponents`` is ``virtual_opponent`` (FIDE's
  tie-break rule for unplayed rounds): then each bye counts as a round against a
  virtual opponent whose strength equals the entrant's own at the end.
- ``MeetingMetric``: no value of its own; it splits a group still tied by the tables
  its members shared (``Meetings``), giving each part its value.

The metrics:

- ``placement_points``: points for the finishing place from a scale fair across
  table sizes (see ``scales``); tied sides share the mean of the places spanned.
- ``game_points``: the final game totals, added up (a team's total for each member).
- ``share``: the share of the table's points, scaled so that an even share is
  1 at any table size: sides x (side's points - floor) / (sum of every side's
  points - floor x sides), where the floor is the lowest side's points when
  that is negative and 0 otherwise. Raising every side by the same amount keeps
  shares between 0 and 1 when totals go negative (bids that were set), and a table whose
  sides all end level (the sum is then 0) gives everyone an even share.
- ``wins``: a first place alone counts 1; a first place shared by k sides
  counts 1/k each.
- ``firsts``: the number of tables finished first, shared or not.
- ``opponents_strength``: over every table played, the sum of the strength of
  every opponent at the table (every table-mate outside one's own team, not
  one opponent per table); an opponent met twice counts twice.
- ``buchholz``: over every table played, the mean strength of that table's
  opponents, added up; fair when table sizes mix (a table of 10 does not count
  three times a table of 4).
- ``median_buchholz``: ``buchholz`` without its highest and its lowest round
  (only when at least three rounds were played).
- ``head_to_head``: breaks a tie between exactly two entrants who met as
  opponents at a counted table: the one who finished ahead of the other more
  often ranks higher (1 against 0). Any other tie, or two entrants who never
  met or came out even, stays tied (no value).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from common.phrases import N_
from tournaments.standings.core.results import EntrantId, SeatResult
from tournaments.standings.core.scales import SCALE_MEAN, Scale, shared_points

Values = tuple[float, ...]  # one value per round metric, in ROUND_METRICS order


# --------------------------------------------------------------------------- what metrics read


@dataclass(slots=True)
class SidesAtRound:
    """Every side at one tournament round's counted tables, table after table, sides in
    order of first seat: what a round metric's values are found from, one column per
    fact (so that a metric is asked once a round, not once a table)."""

    sides: list[int] = field(default_factory=list)  # the number of sides at its table
    scale: list[Scale] = field(default_factory=list)  # its table's placement points by place
    points: list[float] = field(default_factory=list)  # the side's game points
    place: list[int] = field(default_factory=list)  # 1 for first; tied sides share a place
    tied: list[int] = field(default_factory=list)  # sides sharing that place, itself included
    floor: list[float] = field(
        default_factory=list
    )  # its table's lowest points if negative, else 0
    pool: list[float] = field(default_factory=list)  # its table's points less the floor, added up

    def add_table(self, points: list[float], places: list[int], scale: Scale) -> None:
        """One counted table's sides, by their points and places."""
        size = len(points)
        floor = min(0.0, *points)
        self.sides += [size] * size
        self.scale += [scale] * size
        self.points += points
        self.place += places
        self.tied += [places.count(place) for place in places]
        self.floor += [floor] * size
        self.pool += [sum(points) - floor * size] * size


@dataclass(slots=True)
class Played:
    """What one entrant did at one counted table."""

    values: Values
    place: int
    table: int  # index into the list of counted tables
    opponents: tuple[EntrantId, ...]


@dataclass(slots=True)  # not frozen: made for every entrant, a frozen one costs more
class Opposition:
    """What a metric from opponents reads for one entrant: the tables played, every
    entrant's strength, and the byes counted against a virtual opponent as strong as
    the entrant (``own``)."""

    played: Sequence[Played]
    strength: Mapping[EntrantId, float]
    virtual: int
    own: float

    def table_means(self) -> list[float]:
        """Per table played, the opponents' mean strength; then one ``own`` per virtual bye."""
        of = self.strength.__getitem__
        means = [sum(map(of, seat.opponents)) / len(seat.opponents) for seat in self.played]
        return means + [self.own] * self.virtual


@dataclass(frozen=True, slots=True)
class Meetings:
    """A group still tied, with every entrant's tables and the seats of each counted table."""

    group: Sequence[EntrantId]
    seats: Mapping[EntrantId, Sequence[Played]]
    counted: Sequence[Sequence[SeatResult]]


# A split of a tied group: the parts, best first, each with its value (None: no value).
Split = list[tuple[list[EntrantId], float | None]]


# --------------------------------------------------------------------------- the kinds


@dataclass(frozen=True)
class RoundMetric:
    label: str
    value: Callable[[SidesAtRound], list[float]]  # each side's value, in order
    bye_fixed: float = 0.0  # what a fixed bye scores when the director gives no value


@dataclass(frozen=True)
class OpponentMetric:
    label: str
    value: Callable[[Opposition], float]


@dataclass(frozen=True)
class MeetingMetric:
    label: str
    split: Callable[[Meetings], Split]


MetricSpec = RoundMetric | OpponentMetric | MeetingMetric


# --------------------------------------------------------------------------- the values


def placement_points(at: SidesAtRound) -> list[float]:
    # A place held alone scores its own value (the mean of one place, as a float).
    return [
        float(scale[place - 1]) if tied == 1 else shared_points(scale, place, tied)
        for scale, place, tied in zip(at.scale, at.place, at.tied, strict=True)
    ]


def game_points(at: SidesAtRound) -> list[float]:
    return list(at.points)


def share(at: SidesAtRound) -> list[float]:
    return [
        size * (points - floor) / pool if pool > 0 else 1.0
        for size, points, floor, pool in zip(at.sides, at.points, at.floor, at.pool, strict=True)
    ]


def wins(at: SidesAtRound) -> list[float]:
    return [
        1.0 / tied if place == 1 else 0.0 for place, tied in zip(at.place, at.tied, strict=True)
    ]


def firsts(at: SidesAtRound) -> list[float]:
    return [1.0 if place == 1 else 0.0 for place in at.place]


def opponents_strength(opposition: Opposition) -> float:
    of = opposition.strength.__getitem__
    return sum(sum(map(of, seat.opponents)) for seat in opposition.played)


def buchholz(opposition: Opposition) -> float:
    return sum(opposition.table_means())


def median_buchholz(opposition: Opposition) -> float:
    means = opposition.table_means()
    if len(means) >= 3:
        means = sorted(means)[1:-1]
    return sum(means)


def head_to_head(meetings: Meetings) -> Split:
    """Split a two-way tie by the meetings of the two; any other group stays as it is."""
    group = list(meetings.group)
    if len(group) != 2:
        return [(group, None)]
    first, second = group
    ahead = behind = 0
    for seat in meetings.seats[first]:
        other = next((s.place for s in meetings.counted[seat.table] if s.entrant == second), None)
        if other is None:
            continue  # not at this table (partners share their place: they count neither way)
        if seat.place < other:
            ahead += 1
        elif seat.place > other:
            behind += 1
    if ahead == behind:
        return [(group, None)]
    winner, loser = (first, second) if ahead > behind else (second, first)
    return [([winner], 1.0), ([loser], 0.0)]


# --------------------------------------------------------------------------- the metrics


class Metric(StrEnum):
    """Every metric: its key, then its spec. A new metric is one line here (and its value)."""

    _value_: str
    spec: MetricSpec

    # Each member is made from its key and its one spec; a lookup by key (``Metric("share")``)
    # names the key alone, which is why the spec is taken as ``*spec``.
    def __new__(cls, key: str, *spec: MetricSpec) -> Metric:
        member = str.__new__(cls, key)
        member._value_ = key
        (member.spec,) = spec
        return member

    PLACEMENT_POINTS = (
        "placement_points",
        RoundMetric(N_("Placement points"), placement_points, bye_fixed=SCALE_MEAN),
    )
    GAME_POINTS = "game_points", RoundMetric(N_("Game points"), game_points)
    SHARE = "share", RoundMetric(N_("Share of table points"), share)
    WINS = "wins", RoundMetric(N_("Wins"), wins)
    FIRSTS = "firsts", RoundMetric(N_("Firsts"), firsts)
    OPPONENTS_STRENGTH = (
        "opponents_strength",
        OpponentMetric(N_("Opponents' strength"), opponents_strength),
    )
    BUCHHOLZ = "buchholz", OpponentMetric(N_("Buchholz"), buchholz)
    MEDIAN_BUCHHOLZ = "median_buchholz", OpponentMetric(N_("Median Buchholz"), median_buchholz)
    HEAD_TO_HEAD = "head_to_head", MeetingMetric(N_("Head to head"), head_to_head)

    @property
    def label(self) -> str:
        return self.spec.label


METRIC_LABELS: Mapping[Metric, str] = {metric: metric.spec.label for metric in Metric}
ROUND_METRICS: tuple[Metric, ...] = tuple(m for m in Metric if isinstance(m.spec, RoundMetric))
OPPONENT_METRICS: tuple[Metric, ...] = tuple(
    m for m in Metric if isinstance(m.spec, OpponentMetric)
)
