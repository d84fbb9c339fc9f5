"""Standings: each entrant's metrics from the counted results, then the ranking.

A pure function of an event's results and the director's rules. Only
confirmed tables count. Values are added up in round order and rounded to nine
decimals, so equal results give equal values whatever order the entrants
come in, and the ranking never depends on floating-point noise. Entrants
still level after every metric share a rank (1, 2, 2, 4) and are listed by
name, then id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from common.phrases import N_
from scoring.engines.base import Problem
from tournaments.standings.core.metrics import (
    ROUND_METRICS,
    MeetingMetric,
    Meetings,
    Metric,
    OpponentMetric,
    Opposition,
    Played,
    RoundMetric,
    SidesAtRound,
    Values,
)
from tournaments.standings.core.policy import (
    ByeMethod,
    ByeOpponents,
    StandingsRules,
    rules_problems,
)
from tournaments.standings.core.results import (
    EntrantId,
    EventResults,
    InvalidResults,
    RoundResults,
    SeatResult,
    TableResult,
    results_problems,
)

DECIMALS = 9
ROUND_METRIC_INDEX: Mapping[Metric, int] = {m: i for i, m in enumerate(ROUND_METRICS)}
ROUND_VALUES = tuple(m.spec.value for m in ROUND_METRICS if isinstance(m.spec, RoundMetric))


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    entrant: EntrantId
    name: str
    values: Mapping[Metric, float | None]  # the chosen metrics, in the chosen order
    played: int  # counted tables
    byes: int


@dataclass(frozen=True)
class Standings:
    metrics: tuple[Metric, ...]
    rows: tuple[Standing, ...]


def compute_standings(event: EventResults, rules: StandingsRules) -> Standings:
    """The standings of ``event`` under ``rules``; raises InvalidResults on bad input."""
    problems = rules_problems(rules) + results_problems(event)
    if problems:
        raise InvalidResults(problems)
    rounds = sorted(event.rounds, key=lambda r: r.number)
    seats: dict[EntrantId, list[Played]] = {e.id: [] for e in event.entrants}
    counted: list[tuple[SeatResult, ...]] = []  # the seats of each counted table
    round_averages: dict[int, Values] = {}
    for rnd in rounds:
        round_averages[rnd.number] = _score_round(rnd, rules, seats, counted, problems)
    if problems:
        raise InvalidResults(problems)

    totals = _round_totals(event, rounds, rules, seats, round_averages)
    strength_index = ROUND_METRIC_INDEX[rules.strength_of]
    strength = {entrant: values[strength_index] for entrant, values in totals.items()}
    byes = _bye_counts(rounds)
    virtual_opponents = rules.byes.opponents == ByeOpponents.VIRTUAL_OPPONENT
    # Each chosen metric with what gives its value: an index into the round totals, a
    # function of the opposition, or nothing (a metric from meetings has a value only once
    # it splits a tie).
    chosen = [
        (
            metric,
            ROUND_METRIC_INDEX.get(metric),
            spec.value if isinstance(spec := metric.spec, OpponentMetric) else None,
        )
        for metric in rules.metrics
    ]
    values: dict[EntrantId, dict[Metric, float | None]] = {}
    for entrant in event.entrants:
        own = totals[entrant.id]
        row: dict[Metric, float | None] = {}
        for metric, index, from_opponents in chosen:
            if index is not None:
                row[metric] = own[index]
            elif from_opponents is not None:
                virtual = byes.get(entrant.id, 0) if virtual_opponents else 0
                opposition = Opposition(seats[entrant.id], strength, virtual, strength[entrant.id])
                row[metric] = round(from_opponents(opposition), DECIMALS)
            else:
                row[metric] = None
        values[entrant.id] = row

    groups = _rank_groups(event, rules.metrics, values, seats, counted)
    rows: list[Standing] = []
    names = {e.id: e.name for e in event.entrants}
    for group in groups:
        rank = len(rows) + 1
        for entrant_id in group:
            rows.append(
                Standing(
                    rank=rank,
                    entrant=entrant_id,
                    name=names[entrant_id],
                    values=values[entrant_id],
                    played=len(seats[entrant_id]),
                    byes=byes.get(entrant_id, 0),
                )
            )
    return Standings(metrics=tuple(rules.metrics), rows=tuple(rows))


# --------------------------------------------------------------------------- one round


def _score_round(
    rnd: RoundResults,
    rules: StandingsRules,
    seats: dict[EntrantId, list[Played]],
    counted: list[tuple[SeatResult, ...]],
    problems: list[Problem],
) -> Values:
    """Score the round's counted tables into ``seats``; return the round's table average.

    The table average is the mean over counted tables of each table's mean per
    player; it is worked out only for a round with byes (zeros otherwise).
    """
    at = SidesAtRound()
    scored_tables: list[tuple[TableResult, list[tuple[SeatResult, ...]]]] = []
    for table in rnd.tables:
        if not table.confirmed:
            continue
        sides = table.sides()
        scale = rules.scale(len(sides))
        if scale is None:
            problems.append(
                Problem(
                    N_("table {table}: no placement scale for {sides} sides"),
                    rnd.number,
                    "scales",
                    {"table": table.number, "sides": len(sides)},
                )
            )
            continue
        points = [float(members[0].points) for members in sides]
        at.add_table(points, [members[0].place for members in sides], scale)
        scored_tables.append((table, sides))
    # Each side's round values, asking every round metric once for the whole round.
    values: list[Values] = list(zip(*[value(at) for value in ROUND_VALUES], strict=True))
    table_means: list[Values] = []
    start = 0
    for table, sides in scored_tables:
        scored = values[start : start + len(sides)]
        start += len(sides)
        index = len(counted)
        table_seats = table.seats
        counted.append(table_seats)
        if len(sides) == len(table_seats):  # every side a lone seat, in seat order
            lone = [seat.entrant for seat in table_seats]
            for side_index, seat in enumerate(table_seats):
                opponents = tuple(lone[:side_index] + lone[side_index + 1 :])
                seats[seat.entrant].append(Played(scored[side_index], seat.place, index, opponents))
        else:
            side_entrants = [[seat.entrant for seat in members] for members in sides]
            two = len(sides) == 2
            for side_index, members in enumerate(sides):
                if two:  # the other side
                    opponents = tuple(side_entrants[1 - side_index])
                else:
                    others = side_entrants[:side_index] + side_entrants[side_index + 1 :]
                    opponents = tuple(chain.from_iterable(others))
                entry = Played(scored[side_index], members[0].place, index, opponents)
                for entrant in side_entrants[side_index]:
                    seats[entrant].append(entry)
        if rnd.byes:  # the table average is only ever needed to score a bye
            weights = [len(members) for members in sides]
            table_means.append(
                tuple(
                    sum(w * v for w, v in zip(weights, column, strict=True)) / len(table_seats)
                    for column in zip(*scored, strict=True)
                )
            )
    return _mean(table_means)


def _mean(rows: Sequence[Values]) -> Values:
    if not rows:
        return (0.0,) * len(ROUND_METRICS)
    return tuple(sum(column) / len(rows) for column in zip(*rows, strict=True))


# --------------------------------------------------------------------------- totals and byes


def _bye_counts(rounds: Sequence[RoundResults]) -> dict[EntrantId, int]:
    counts: dict[EntrantId, int] = {}
    for rnd in rounds:
        for entrant in rnd.byes:
            counts[entrant] = counts.get(entrant, 0) + 1
    return counts


def _round_totals(
    event: EventResults,
    rounds: Sequence[RoundResults],
    rules: StandingsRules,
    seats: Mapping[EntrantId, list[Played]],
    round_averages: Mapping[int, Values],
) -> dict[EntrantId, Values]:
    """Each entrant's round metrics added up over counted tables, then byes, in round order."""
    width = len(ROUND_METRICS)
    totals: dict[EntrantId, list[float]] = {}
    zero = (0.0,) * width
    for entrant in event.entrants:
        played = seats[entrant.id]
        if played:
            totals[entrant.id] = [sum(c) for c in zip(*(s.values for s in played), strict=True)]
        else:
            totals[entrant.id] = list(zero)
    fixed = tuple(
        rules.byes.fixed.get(m, m.spec.bye_fixed if isinstance(m.spec, RoundMetric) else 0.0)
        for m in ROUND_METRICS
    )
    for rnd in rounds:
        for entrant_id in rnd.byes:
            played = seats[entrant_id]
            method = rules.byes.method
            if method == ByeMethod.FIXED:
                bye = fixed
            elif method == ByeMethod.OWN_AVERAGE and played:
                bye = _mean([s.values for s in played])
            else:
                bye = round_averages[rnd.number]
            total = totals[entrant_id]
            for i in range(width):
                total[i] += bye[i]
    return {entrant: tuple(round(v, DECIMALS) for v in t) for entrant, t in totals.items()}


# --------------------------------------------------------------------------- ranking


def _rank_groups(
    event: EventResults,
    metrics: Sequence[Metric],
    values: dict[EntrantId, dict[Metric, float | None]],
    seats: Mapping[EntrantId, list[Played]],
    counted: Sequence[Sequence[SeatResult]],
) -> list[list[EntrantId]]:
    """Entrants split into groups of equals, best group first, each group by name then id."""
    base = [e.id for e in sorted(event.entrants, key=lambda e: (e.name, e.id))]
    groups: list[list[EntrantId]] = [base] if base else []
    for metric in metrics:
        split: list[list[EntrantId]] = []
        spec = metric.spec
        for group in groups:
            if len(group) == 1:
                split.append(group)
            elif isinstance(spec, MeetingMetric):
                for part, value in spec.split(Meetings(group, seats, counted)):
                    if value is not None:
                        for entrant in part:
                            values[entrant][metric] = value
                    split.append(part)
            else:
                ordered = sorted(group, key=lambda e: -_number(values[e][metric]))
                current = [ordered[0]]
                for entrant in ordered[1:]:
                    if values[entrant][metric] == values[current[0]][metric]:
                        current.append(entrant)
                    else:
                        split.append(current)
                        current = [entrant]
                split.append(current)
        groups = split
    return groups


def _number(value: float | None) -> float:
    return 0.0 if value is None else value
