"""Tournaments: a round of a 200-player event, and standings of a 1000-player event.

Figures printed (on a throwaway database of their own):
- a 200-player Roolz event (50 tables of 4): generating a round (the seating engine
  included) and publishing it (50 scoring games created), rounds 1 and 2; the issue asks
  for under 1 s each;
- standings of a 1000-player, 10-round event (2500 finished, confirmed table games):
  recomputed from the rows, beside a plain read of the same rows, and the ratio (the
  issue asks for at most 3).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection

from bench.figures import Row

if TYPE_CHECKING:
    from tournaments.models import Event

SMALL_PLAYERS = 200
BIG_PLAYERS = 1000
BIG_ROUNDS = 10
STRIDES = (1, 3, 7, 9, 11, 13, 17, 19, 21, 23)
SIDE_BY_SIDE_TURNS = 7


def _best(action: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def _play_out(event: Event, number: int) -> None:
    """Round ``number``'s tables finish (in bulk: their play is not what is timed), so the
    next round seats everyone instead of waiting for them."""
    from scoring.models import Game

    Game.objects.filter(event_table__round__event=event, event_table__round__number=number).update(
        status=Game.Status.FINISHED
    )


def generate_and_publish(owner: User, players: int = SMALL_PLAYERS) -> list[Row]:
    from tournaments.events import services

    event = services.event_create(owner=owner, name="Big night", game="roolz", rounds_planned=2)
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(players)), user=owner
    )
    rows = []
    for number in (1, 2):
        if number > 1:
            _play_out(event, number - 1)
        started = time.perf_counter()
        draft = services.tournament_round_generate(event=event, user=owner)
        generated = time.perf_counter() - started
        services.tournament_round_publish(event=event, round=draft, user=owner)
        total = time.perf_counter() - started
        rows.append(
            Row(
                "tournaments",
                f"{players} players, round {number} generated and published "
                f"({draft.tables.count()} tables)",
                f"{total * 1000:.0f} ms",
                f"generated alone {generated * 1000:.0f} ms; "
                f"repeated pairs {draft.report['repeated_pairs']}",
                "under 1 s",
                total < 1.0,
            )
        )
    return rows


def big_event(owner):
    """1000 entrants, 10 published rounds of 250 finished tables of 4, built in bulk."""
    from scoring.engines.base import parse_record
    from scoring.engines.registry import ENGINES
    from scoring.models import Game, Round, Seat
    from tournaments.models import Entrant, Event, Table, TableSeat, TournamentRound

    event = Event.objects.create(owner=owner, name="Season", game="roolz", rounds_planned=10)
    entrants = Entrant.objects.bulk_create(
        Entrant(event=event, name=f"Player {i}") for i in range(BIG_PLAYERS)
    )
    deals = [
        [{"bidder": b, "bid": 170, "won": {"A": 300, "B": 0} if b % 2 == 0 else {"A": 0, "B": 300}}]
        * 4
        for b in range(4)
    ]
    records = [
        parse_record({"format": 1, "game": "roolz", "players": list("ABCD"), "rounds": d}, ENGINES)
        for d in deals
    ]
    scores = [ENGINES["roolz"].score(r) for r in records]
    caches = [score.standing() for score in scores]
    results = [[result.as_dict() for result in score.rounds] for score in scores]
    tables_per_round = BIG_PLAYERS // 4
    for number in range(1, BIG_ROUNDS + 1):
        round_ = TournamentRound.objects.create(
            event=event, number=number, status=TournamentRound.Status.PUBLISHED
        )
        stride = STRIDES[number - 1]  # coprime with 1000: a different mix every round
        order = [entrants[(i * stride + number) % BIG_PLAYERS] for i in range(BIG_PLAYERS)]
        games = Game.objects.bulk_create(
            Game(
                kind="roolz",
                status=Game.Status.FINISHED,
                is_tournament_game=True,
                confirmation="other_side",
                score_cache=caches[t % 4],
                last_round_number=len(deals[t % 4]),
            )
            for t in range(tables_per_round)
        )
        Seat.objects.bulk_create(
            Seat(game=g, number=s, name=order[t * 4 + s].name)
            for t, g in enumerate(games)
            for s in range(4)
        )
        Round.objects.bulk_create(
            Round(
                game=g,
                number=n + 1,
                entry=deals[t % 4][n],
                status=Round.Status.CONFIRMED,
                result=results[t % 4][n],
            )
            for t, g in enumerate(games)
            for n in range(len(deals[t % 4]))
        )
        tables = Table.objects.bulk_create(
            Table(round=round_, number=t + 1, game=g) for t, g in enumerate(games)
        )
        TableSeat.objects.bulk_create(
            TableSeat(table=table, seat=s, entrant=order[t * 4 + s])
            for t, table in enumerate(tables)
            for s in range(4)
        )
    return event


def standings_against_plain_read(owner: User) -> Row:
    from scoring.models import Round
    from tournaments.models import Bye, TableSeat
    from tournaments.standings import adapter as results

    event = big_event(owner)

    def plain_read() -> None:
        list(
            Round.objects.filter(
                game__event_table__round__event=event, status=Round.Status.PENDING
            ).values_list("game_id", flat=True)
        )
        list(
            results.Table.objects.filter(round__event=event).values_list(
                "pk",
                "round__number",
                "number",
                "game_id",
                "game__status",
                "game__score_cache__totals",
                "game__score_cache__winners",
                "game__score_cache__teams",
            )
        )
        list(
            TableSeat.objects.filter(table__round__event=event)
            .order_by("table_id", "seat")
            .values_list("table_id", "entrant_id")
        )
        list(Bye.objects.filter(round__event=event).values_list("round__number", "entrant_id"))
        list(event.entrants.values_list("pk", "name"))

    standings = results.event_standings(event)
    assert len(standings.rows) == BIG_PLAYERS
    assert all(row.played == BIG_ROUNDS for row in standings.rows)
    # In turns, so that both meet the same load on a shared machine; the best of each.
    read = computed = float("inf")
    for _ in range(SIDE_BY_SIDE_TURNS):
        read = min(read, _best(plain_read, repeat=1))
        computed = min(computed, _best(lambda: results.event_standings(event), repeat=1))
    return Row(
        "tournaments",
        f"standings of {BIG_PLAYERS} players x {BIG_ROUNDS} rounds "
        f"({BIG_PLAYERS // 4 * BIG_ROUNDS} table games) from the rows",
        f"{computed * 1000:.0f} ms",
        f"a plain read of the same rows: {read * 1000:.0f} ms",
        "at most 3x the read",
        computed / read <= 3,
        f"{computed / read:.2f}x",
    )


def run() -> list[Row]:
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        owner = get_user_model().objects.create_user("bench-director")
        rows = generate_and_publish(owner)
        rows.append(standings_against_plain_read(owner))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return rows


if __name__ == "__main__":
    import os
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from config import test_env

    test_env.apply()  # relaxed limits, as the test suite runs
    import django

    django.setup()
    for row in run():
        print(row.cells())
