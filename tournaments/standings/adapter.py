"""The standings adapter: an event's table games -> plain standings inputs -> the core.

A table counts once its game is finished and every one of its rounds is confirmed.
Only the few keys of each game's score projection the standings need are read
(totals, winners, teams, finished), not the rounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple

from scoring.models import Game, Round
from tournaments.models import Absence, Bye, Event, Table, TableSeat, TournamentRound
from tournaments.standings.core import (
    ByeMethod,
    ByeRule,
    Entrant,
    EventResults,
    Metric,
    RoundResults,
    Standings,
    StandingsRules,
    compute_standings,
    default_rules,
    metrics_from_names,
    table_from_game,
)
from tournaments.standings.core.rules import ROUND_METRICS

BYE_METHODS: Mapping[str, ByeMethod] = {
    Event.ByeScoring.AVERAGE: ByeMethod.OWN_AVERAGE,
    Event.ByeScoring.FIXED: ByeMethod.FIXED,
    Event.ByeScoring.TABLE_AVERAGE: ByeMethod.TABLE_AVERAGE,
}


def standings_rules(event: Event) -> StandingsRules:
    """The event's rules: its chosen metrics (else the game's default) and how byes score.

    A fixed bye value scores the first round-by-round metric in the chosen order (the
    others score as the standings core says for a fixed bye).
    """
    base = default_rules(event.game)
    metrics = metrics_from_names(event.standings_metrics) if event.standings_metrics else None
    chosen = metrics or base.metrics
    fixed: dict[Metric, float] = {}
    if event.bye_scoring == Event.ByeScoring.FIXED:
        first = next((m for m in chosen if m in ROUND_METRICS), Metric.PLACEMENT_POINTS)
        fixed[first] = float(event.bye_value)
    return StandingsRules(
        metrics=chosen,
        byes=ByeRule(method=BYE_METHODS[event.bye_scoring], fixed=fixed),
        strength_of=base.strength_of,
        scales=base.scales,
    )


class TableRow(NamedTuple):
    """One published table as read for the standings and the live view (a named tuple:
    thousands are made for every standings, and a tuple is the cheapest to make)."""

    table_id: int
    round_number: int
    table_number: int
    game_id: int | None
    finished: bool
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    teams: Mapping[str, list[int]]
    pending: bool  # a round still waits for confirmation


def table_rows(
    event: Event, *, round_number: int | None = None, results: bool = True
) -> list[TableRow]:
    """Every table of the event's published rounds (of round ``round_number`` when
    given), with its game's result keys (left empty with ``results=False``, for a reader
    of the tables' states alone: thousands of them are not decoded for nothing)."""
    pending = set(
        Round.objects.filter(
            game__event_table__round__event=event, status=Round.Status.PENDING
        ).values_list("game_id", flat=True)
    )
    tables = Table.objects.filter(
        round__event=event, round__status=TournamentRound.Status.PUBLISHED
    )
    if round_number is not None:
        tables = tables.filter(round__number=round_number)
    keys = ("totals", "winners", "teams") if results else ()
    rows = tables.values_list(
        "pk",
        "round__number",
        "number",
        "game_id",
        "game__status",
        *(f"game__score_cache__{key}" for key in keys),
    )
    finished = Game.Status.FINISHED
    return [
        TableRow(  # in field order: table, round, number, game, finished, totals, winners, ...
            pk,
            round_number,
            number,
            game_id,
            status == finished,
            tuple(kept[0] or ()) if kept else (),
            tuple(kept[1] or ()) if kept else (),
            (kept[2] or {}) if kept else {},
            game_id in pending,
        )
        for pk, round_number, number, game_id, status, *kept in rows
    ]


def event_results(event: Event, rows: list[TableRow] | None = None) -> EventResults:
    """The event as the standings core reads it: entrants, and each round's tables and byes."""
    rows = table_rows(event) if rows is None else rows
    seated = (
        TableSeat.objects.filter(
            table__round__event=event, table__round__status=TournamentRound.Status.PUBLISHED
        )
        .order_by("table_id", "seat")
        .values_list("table_id", "entrant_id")
    )
    seats = {
        table_id: [entrant_id for _, entrant_id in group]
        for table_id, group in groupby(seated, key=itemgetter(0))
    }
    rounds: dict[int, list] = {}
    for table_id, round_number, number, game_id, finished, totals, winners, teams, pending in rows:
        entrants = seats.get(table_id, [])
        if game_id is None or len(totals) != len(entrants):
            continue
        table = table_from_game(
            number=number,
            entrants=entrants,
            totals=totals,
            winners=winners,
            teams=teams,
            confirmed=finished and not pending,
        )
        # A fixed team fills several seats of one side: it is one entrant at the table.
        if len(set(entrants)) != len(entrants):
            once: dict[int, object] = {}
            for seat in table.seats:
                once.setdefault(seat.entrant, seat)
            table = type(table)(
                number=table.number,
                seats=tuple(once.values()),  # type: ignore[arg-type]
                confirmed=table.confirmed,
            )
        rounds.setdefault(round_number, []).append(table)
    byes: dict[int, list[int]] = {}
    for number, entrant_id in Bye.objects.filter(
        round__event=event, round__status=TournamentRound.Status.PUBLISHED
    ).values_list("round__number", "entrant_id"):
        byes.setdefault(number, []).append(entrant_id)
    if event.away_scoring == Event.AwayScoring.BYE:  # a player away scores as a bye
        for number, entrant_id in Absence.objects.filter(
            round__event=event, round__status=TournamentRound.Status.PUBLISHED
        ).values_list("round__number", "entrant_id"):
            byes.setdefault(number, []).append(entrant_id)
    numbers = sorted(set(rounds) | set(byes))
    return EventResults(
        entrants=tuple(
            Entrant(id=pk, name=name)
            for pk, name in event.entrants.order_by("pk").values_list("pk", "name")
        ),
        rounds=tuple(
            RoundResults(
                number=n,
                tables=tuple(sorted(rounds.get(n, []), key=lambda t: t.number)),
                byes=tuple(byes.get(n, ())),
            )
            for n in numbers
        ),
    )


def event_standings(event: Event) -> Standings:
    """The event's standings, computed now from its confirmed tables."""
    return compute_standings(event_results(event), standings_rules(event))
