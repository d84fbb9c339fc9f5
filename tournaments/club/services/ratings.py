"""Ratings, a projection of the rated games. ``ratings_game_changed`` brings one table
game's rating up to date (re-rating from that game on when it is not the last);
``ratings_recompute`` rebuilds a roster's ratings from its games. Both give the same
numbers."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count

from tournaments.club.adapter import (
    core_game,
    event_game_ids,
    game_key,
    game_to_rate,
    roster_rated_games,
)
from tournaments.club.core.ratings import GameKey, Replay, Skill, Step, replay, rerate_from
from tournaments.club.skill import INITIAL, RATE
from tournaments.models import ClubNight, Event, Player, RatedGame, RatingStep, Roster


def _skills(players: Iterable[int]) -> dict[int, Skill]:
    """The players' ratings as they stand (a rating brought in counts as one)."""
    found: dict[int, Skill] = {}
    for pk, mu, sigma, base_mu, base_sigma in Player.objects.filter(
        pk__in=set(players)
    ).values_list("pk", "mu", "sigma", "base_mu", "base_sigma"):
        if mu is not None and sigma is not None:
            found[pk] = Skill(mu, sigma)
        elif base_mu is not None and base_sigma is not None:
            found[pk] = Skill(base_mu, base_sigma)
    return found


def _bases(roster: Roster) -> dict[int, Skill]:
    """Where each player's ratings start: a rating brought in, else the model's default."""
    return {
        pk: Skill(mu, sigma)
        for pk, mu, sigma in Player.objects.filter(
            roster=roster, base_mu__isnull=False, base_sigma__isnull=False
        ).values_list("pk", "base_mu", "base_sigma")
        if mu is not None and sigma is not None
    }


def _steps_from(roster_id: int, key: GameKey) -> list[Step]:
    """The stored steps of the roster's rated games from ``key`` on, in order."""
    rows = (
        RatingStep.objects.filter(
            rated_game__roster_id=roster_id, rated_game__played_at__gte=_moment(key)
        )
        .select_related("rated_game")
        .order_by(
            "rated_game__played_at",
            "rated_game__round_number",
            "rated_game__table_number",
            "rated_game__game_id",
            "pk",
        )
    )
    steps: list[Step] = []
    for row in rows:
        g = row.rated_game
        k = game_key(g.played_at, g.round_number, g.table_number, g.game_id)
        if k >= key:
            steps.append(
                Step(
                    k,
                    g.game_id,
                    row.player_id,
                    Skill(row.mu_before, row.sigma_before),
                    Skill(row.mu, row.sigma),
                )
            )
    return steps


def _store(roster_id: int, result: Replay, touched: Iterable[int]) -> None:
    games = {s.game for s in result.steps}
    rows = RatedGame.objects.filter(roster_id=roster_id)
    if len(games) < 1000:
        rows = rows.filter(game_id__in=games)
    ids = dict(rows.values_list("game_id", "pk"))
    _steps_insert(_step_rows(result, ids))
    touched = set(touched) | set(result.ratings)
    counts = dict(
        RatingStep.objects.filter(player_id__in=touched)
        .values("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    updates: list[tuple[float | None, float | None, int, int]] = []
    for pk, base_mu, base_sigma in Player.objects.filter(pk__in=touched).values_list(
        "pk", "base_mu", "base_sigma"
    ):
        n = counts.get(pk, 0)
        skill = result.ratings.get(pk)
        if n and skill is not None:
            updates.append((skill.mu, skill.sigma, n, pk))
        elif n:
            continue  # rated, and not touched by this replay: its rating stands
        else:
            updates.append((base_mu, base_sigma, 0, pk))
    _ratings_save(updates)


def rate_game(game_id: int) -> str:
    """Inside a transaction holding the roster: bring one game's rating up to date."""
    want = game_to_rate(game_id)
    existing = RatedGame.objects.filter(game_id=game_id).first()
    roster_id = want.roster_id or (existing.roster_id if existing else None)
    if roster_id is None:
        return "not rated"
    new = None
    if want.sides and want.played_at is not None:
        new_key = game_key(want.played_at, want.round_number, want.table_number, game_id)
        new = (new_key, [list(s) for s in want.sides], list(want.places))
    old = None
    if existing is not None:
        old_core = core_game(existing)
        old = (old_core.key, [list(s) for s in old_core.sides], list(old_core.places))
    if old == new and (existing is None or existing.roster_id == roster_id):
        return "unchanged"
    keys = [k[0] for k in (old, new) if k is not None]
    start = min(keys)
    undone = _steps_from(roster_id, start)
    RatingStep.objects.filter(
        rated_game__roster_id=roster_id,
        rated_game__game_id__in={s.game for s in undone},
    ).delete()
    if existing is not None:
        existing.delete()
    if new is not None and want.played_at is not None:
        RatedGame.objects.create(
            roster_id=roster_id,
            game_id=game_id,
            played_at=want.played_at,
            round_number=want.round_number,
            table_number=want.table_number,
            sides=new[1],
            places=new[2],
        )
    tail = [
        g
        for g in map(
            core_game,
            RatedGame.objects.filter(roster_id=roster_id, played_at__gte=_moment(start)),
        )
        if g.key >= start
    ]
    players = {p for g in tail for side in g.sides for p in side} | {s.player for s in undone}
    result = rerate_from(
        current=_skills(players), undone=undone, tail=tail, rate=RATE, initial=INITIAL
    )
    _store(roster_id, result, players)
    return "rated"


def _moment(key: GameKey) -> datetime:
    """A moment no later than the game of ``key`` was played (its key rounds the time)."""
    return datetime.fromtimestamp(key[0] / 1_000_000, tz=UTC) - timedelta(seconds=1)


def ratings_game_changed(*, game_id: int) -> str:
    """Bring one table game's ratings up to date; safe to run again (then "unchanged")."""
    want = game_to_rate(game_id)
    existing_roster = (
        RatedGame.objects.filter(game_id=game_id).values_list("roster_id", flat=True).first()
    )
    roster_id = want.roster_id or existing_roster
    if roster_id is None:
        return "not rated"
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster_id).first()
        return rate_game(game_id)


def ratings_rebuild(roster: Roster) -> int:
    """Inside a transaction holding the roster: rated games read again from the games,
    every rating replayed from nothing."""
    RatedGame.objects.filter(roster=roster).delete()
    game_ids = [
        g
        for event_id in ClubNight.objects.filter(roster=roster, rated=True).values_list(
            "event_id", flat=True
        )
        for g in event_game_ids(Event(pk=event_id))
    ]
    rows = []
    for game_id in game_ids:
        want = game_to_rate(game_id)
        if want.sides and want.played_at is not None and want.roster_id == roster.pk:
            rows.append(
                RatedGame(
                    roster=roster,
                    game_id=game_id,
                    played_at=want.played_at,
                    round_number=want.round_number,
                    table_number=want.table_number,
                    sides=[list(s) for s in want.sides],
                    places=list(want.places),
                )
            )
    RatedGame.objects.bulk_create(rows, batch_size=2000)
    return _ratings_replay(roster)


STEP_COLUMNS = ("rated_game_id", "player_id", "mu_before", "sigma_before", "mu", "sigma")
STEP_TYPES = ("int8", "int8", "float8", "float8", "float8", "float8")
StepRow = tuple[int, int, float, float, float, float]


def _step_rows(result: Replay, ids: Mapping[int, int]) -> list[StepRow]:
    """The replay's steps as rows of RatingStep, in game order (``ids``: game -> row id)."""
    return [
        (ids[s.game], s.player, s.before.mu, s.before.sigma, s.after.mu, s.after.sigma)
        for s in result.steps
    ]


def _copy_steps(cursor: Any, table: str, rows: Iterable[StepRow]) -> None:
    """Rows sent with one binary COPY: no float written out as text and read back."""
    columns = ", ".join(STEP_COLUMNS)
    with cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(STEP_TYPES)
        for row in rows:
            copy.write_row(row)


def _steps_insert(rows: Sequence[StepRow]) -> None:
    """Rating steps written in bulk: one binary COPY on PostgreSQL (tens of thousands of
    rows at a rebuild), one bulk insert elsewhere."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            _copy_steps(cursor, connection.ops.quote_name(RatingStep._meta.db_table), rows)
        return
    RatingStep.objects.bulk_create(
        (RatingStep(**dict(zip(STEP_COLUMNS, row, strict=True))) for row in rows),
        batch_size=2000,
    )


def _steps_replace(roster: Roster, rows: Sequence[StepRow]) -> None:
    """Inside a transaction holding the roster: its rating steps made ``rows`` (every step
    of its history, in game order).

    On PostgreSQL, when the stored steps are the same games and players as ``rows`` (a
    replay of the stored games: always, unless the history was out of step), each step
    is rewritten in place, and only where its numbers changed. Nothing is deleted and
    inserted again, so no foreign key is checked again (on PostgreSQL that check, one
    query a key at commit, cost more than the writing). Otherwise, and on other
    databases, the roster's steps are deleted and ``rows`` inserted.
    """
    if connection.vendor != "postgresql":
        RatingStep.objects.filter(rated_game__roster=roster).delete()
        _steps_insert(rows)
        return
    quote = connection.ops.quote_name
    steps = quote(RatingStep._meta.db_table)
    games = quote(RatedGame._meta.db_table)
    new = "tablescore_new_rating_steps"
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {new} (rated_game_id bigint, player_id bigint,"
            " mu_before float8, sigma_before float8, mu float8, sigma float8) ON COMMIT DROP"
        )
        _copy_steps(cursor, new, rows)
        # Stored steps whose game and player is no new step's, and new steps not stored.
        cursor.execute(
            "SELECT count(*) FILTER (WHERE n.player_id IS NULL),"
            " count(*) FILTER (WHERE s.player_id IS NULL)"
            f" FROM (SELECT s.rated_game_id, s.player_id FROM {steps} s"
            f" JOIN {games} g ON g.id = s.rated_game_id WHERE g.roster_id = %s) s"
            f" FULL JOIN {new} n"
            " ON n.rated_game_id = s.rated_game_id AND n.player_id = s.player_id",
            [roster.pk],
        )
        gone, added = cursor.fetchone()
        if gone or added:
            cursor.execute(
                f"DELETE FROM {steps} s USING {games} g"
                " WHERE g.id = s.rated_game_id AND g.roster_id = %s",
                [roster.pk],
            )
            _copy_steps(cursor, steps, rows)
        else:
            cursor.execute(
                f"UPDATE {steps} s SET mu_before = n.mu_before, sigma_before = n.sigma_before,"
                " mu = n.mu, sigma = n.sigma"
                f" FROM {new} n"
                " WHERE s.rated_game_id = n.rated_game_id AND s.player_id = n.player_id"
                " AND (s.mu_before, s.sigma_before, s.mu, s.sigma)"
                " IS DISTINCT FROM (n.mu_before, n.sigma_before, n.mu, n.sigma)"
            )
        cursor.execute(f"DROP TABLE {new}")


def _ratings_save(rows: Sequence[tuple[float | None, float | None, int, int]]) -> None:
    """Players' ratings written in one batch: (mu, sigma, rated games, player id) each."""
    table = connection.ops.quote_name(Player._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET mu = %s, sigma = %s, rated_games = %s WHERE id = %s", rows
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off: a rebuild makes a few hundred thousand small
    objects and no cycles, and the collector, walking them again and again as they pile
    up, took nearly half of the rebuild's CPU time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _ratings_replay(roster: Roster) -> int:
    """Inside a transaction holding the roster: every rating replayed from nothing, the
    history rewritten (``_steps_replace``) and the ratings saved in one batch."""
    with _collector_paused():
        rows = roster_rated_games(roster.pk)
        result = replay(
            (game for _, game in rows), rate=RATE, initial=INITIAL, start=_bases(roster)
        )
        _steps_replace(roster, _step_rows(result, {game.game: pk for pk, game in rows}))
    counts = Counter(s.player for s in result.steps)
    saved: list[tuple[float | None, float | None, int, int]] = []
    for pk, base_mu, base_sigma in Player.objects.filter(roster=roster).values_list(
        "pk", "base_mu", "base_sigma"
    ):
        skill = result.ratings.get(pk) if counts[pk] else None
        if skill is not None:
            saved.append((skill.mu, skill.sigma, counts[pk], pk))
        else:
            saved.append((base_mu, base_sigma, 0, pk))
    _ratings_save(saved)
    return len(rows)


def ratings_recompute(*, roster: Roster, from_games: bool = True) -> int:
    """Rebuild the roster's ratings from nothing; returns the number of games rated.

    ``from_games``: read each rated game again from its table game first (else replay
    the rated games as stored)."""
    with transaction.atomic():
        Roster.objects.select_for_update().filter(pk=roster.pk).first()
        if from_games:
            return ratings_rebuild(roster)
        return _ratings_replay(roster)
