"""The standings adapter: an event's table games -> plain standings inputs -> the core.

A table counts once its game is finished and every one of its rounds is confirmed.
Only the few keys of each game's score projection the standings need are read
(totals, winners, teams, finished), not the rounds.

``kept_standings(event)`` is what pages read: the standings computed once per change of
what they are computed from, kept in the cache every process reads (see below).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

from common.kept import (
    kept_add,
    kept_delete,
    kept_get,
    kept_get_many,
    kept_set,
    kept_set_many,
)
from scoring.models import Game, Round
from scoring.selectors import GameOutcome, games_fingerprint
from scoring.wording import number_said
from tournaments.models import (
    Absence,
    Bye,
    Event,
    EventLog,
    Table,
    TableSeat,
    TournamentRound,
)
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
from tournaments.standings.core.metrics import ROUND_METRICS
from tournaments.standings.core.shown import metric_text

# --------------------------------------------------------------------------- shown


def metric_shown(value: float | None, missing: str = "\N{EN DASH}") -> str:
    """A standings value as ``metric_text`` rounds it, written as the reader's language
    writes numbers (70.63 in English, 70,63 in French)."""
    return number_said(metric_text(value, missing))


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
    event: Event,
    *,
    round_number: int | None = None,
    results: bool = True,
    table_ids: Collection[int] | None = None,
) -> list[TableRow]:
    """Every table of the event's published rounds (of round ``round_number`` when
    given; only those of ``table_ids`` when given), with its game's result keys (left
    empty with ``results=False``, for a reader of the tables' states alone: thousands of
    them are not decoded for nothing)."""
    waiting = Round.objects.filter(
        game__event_table__round__event=event, status=Round.Status.PENDING
    )
    tables = Table.objects.filter(
        round__event=event, round__status=TournamentRound.Status.PUBLISHED
    )
    if table_ids is not None:
        tables = tables.filter(pk__in=list(table_ids))
        waiting = waiting.filter(game__event_table__in=list(table_ids))
    pending = set(waiting.values_list("game_id", flat=True))
    if round_number is not None:
        tables = tables.filter(round__number=round_number)
    columns = GameOutcome.columns("game__") if results else ()
    rows = tables.values_list(
        "pk",
        "round__number",
        "number",
        "game_id",
        "game__status",
        *columns,
    )
    finished = Game.Status.FINISHED
    return [
        TableRow(  # in field order: table, round, number, game, finished, totals, winners, ...
            pk,
            round_number,
            number,
            game_id,
            status == finished,
            (outcome := GameOutcome.from_values(kept)).totals,
            outcome.winners,
            outcome.teams,
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


# --------------------------------------------------------------------------- kept once
#
# The standings of a big event take a second to compute; hundreds of phones follow it.
# They are computed once per change of what they are computed from (the version below),
# by one process, and kept in the cache every process reads (Redis when REDIS_URL is
# set): every page and every process reads them from there.

VERSION_KEPT_SECONDS = 600  # an event revision's version: the revision moves on soon
VERSION_EVERY = 0.25  # seconds: while deals stream in, the version is found this often
VERSION_LOCK_SECONDS = 2.0  # one process finds it; a lock left by a killed one lapses
KEPT_SECONDS = 24 * 3600  # the latest standings of an event
LOCK_SECONDS = 30  # one process computes; a lock left by a killed one lapses
WAIT_SECONDS = 10.0  # how long a reader waits for another process's computation
# While results stream in, the players' pages may show standings a change or two
# behind for a few seconds (never on a quiet event, where a change shows at the next
# poll): for LAG_FACTOR times what their computation took when it took SLOW_SECONDS or
# more (a big event's standings then cost at most 1/LAG_FACTOR of one core however fast
# its tables finish), and for REFRESH_SECONDS when the last two versions came less than
# STREAM_SECONDS apart (every phone in the room then draws its page again at most that
# often, not at every table that finishes). Only while the change is more tables
# counting: a correction or an undo at a table the standings shown count, and any change
# of the director's, shows at the next poll.
LAG_FACTOR = 4.0
SLOW_SECONDS = 0.1
REFRESH_SECONDS = 5.0
STREAM_SECONDS = 10.0


class KeptRow(NamedTuple):
    """One entrant's line of the kept standings (a named tuple: 10,000 are read back at
    once, and tuples are the quickest to read back)."""

    rank: int
    entrant_id: int
    name: str
    values: tuple[float | None, ...]  # in the order of KeptStandings.metrics
    played: int
    byes: int
    dropped: bool


class KeptStandings(NamedTuple):
    version: str  # what they were computed from (``results_version``)
    at: float  # when (seconds since the epoch)
    took: float  # how long their computation took (seconds)
    since: float  # seconds since the version before was computed (inf: none was)
    metrics: tuple[Metric, ...]
    rows: tuple[KeptRow, ...]


def results_version(
    event: Event, *, cached: bool = True, found: Mapping[str, Any] | None = None
) -> str:
    """What the standings are computed from, in a short text that changes whenever they
    may: the director's last change to the event (entrants, drops, rounds, byes, rules,
    the clock: each writes the event's log), and the tables that count (finished games:
    how many and their revisions, which every change to a game raises). A deal at a
    table still playing changes the event's revision, not this.

    Found once per event revision (every change to the results moves it, once
    committed), and, while deals stream in (a new revision every few milliseconds), at
    most once every VERSION_EVERY seconds by one process at a time for every process
    and phone: meanwhile the version found last is answered. ``cached=False`` finds it
    anew (and keeps it for the others). ``found``: the cache's answer for
    ``version_keys(event)``, when the caller read them already."""
    key, recent_key = version_keys(event)
    lock = f"standings-versioning:{event.public_token}"
    locked = False
    if cached:
        found = kept_get_many([key, recent_key]) if found is None else found
        if key in found:
            return str(found[key])
        recent: tuple[int, str, float] | None = found.get(recent_key)
        if recent is not None and recent[0] <= event.revision:
            if time.time() - recent[2] < VERSION_EVERY:
                return recent[1]  # found a moment ago
            locked = kept_add(lock, 1, VERSION_LOCK_SECONDS)
            if not locked:
                return recent[1]  # being found by another process
    at = time.time()
    counted = games_fingerprint(
        Game.objects.filter(
            event_table__round__event=event,
            event_table__round__status=TournamentRound.Status.PUBLISHED,
            status=Game.Status.FINISHED,
        )
    )
    logged = EventLog.objects.filter(event=event).order_by("-pk").values_list("pk", flat=True)
    version = (
        f"{logged.first() or 0}.{counted[0]}.{counted[1]}.{counted[2]}"
        f".{event.updated_at.timestamp():.6f}"
    )
    kept_set_many({key: version, recent_key: (event.revision, version, at)}, VERSION_KEPT_SECONDS)
    if locked:
        kept_delete(lock)
    return version


def version_keys(event: Event) -> list[str]:
    """The cache keys ``results_version`` reads (to read them with others at once)."""
    return [_version_key(event), f"standings-version-recent:{event.public_token}"]


def _version_key(event: Event) -> str:
    return f"standings-version:{event.public_token}:{event.revision}"


def _latest_key(event: Event) -> str:
    # The public token, not the pk: a database made again never meets an old key.
    return f"standings-kept:{event.public_token}"


def _meta_key(event: Event) -> str:
    return f"standings-kept-at:{event.public_token}"


def _counted_key(event: Event) -> str:
    return f"standings-counted:{event.public_token}"


def _finished_games(event: Event) -> dict[int, int]:
    """The event's finished games on published tables: game id -> revision."""
    return dict(
        Game.objects.filter(
            event_table__round__event=event,
            event_table__round__status=TournamentRound.Status.PUBLISHED,
            status=Game.Status.FINISHED,
        ).values_list("pk", "revision")
    )


def _fingerprint(revisions: Mapping[int, int]) -> tuple[int, int, int]:
    """``games_fingerprint`` of games read already: how many, revisions, weighted by id."""
    return (
        len(revisions),
        sum(revisions.values()),
        sum(pk * revision for pk, revision in revisions.items()),
    )


def _compute(event: Event, version: str) -> KeptStandings:
    started = time.perf_counter()
    # The games finished before the rows are read (a change in between is then seen as a
    # change to a table counted, and shown at once): what a later version is compared to.
    finished = _finished_games(event)
    rows_read = table_rows(event)
    counted = {
        row.game_id: finished[row.game_id]
        for row in rows_read
        if row.game_id in finished and row.finished and not row.pending
    }
    standings = compute_standings(event_results(event, rows_read), standings_rules(event))
    dropped = set(event.entrants.filter(dropped=True).values_list("pk", flat=True))
    metrics = standings.metrics
    rows = tuple(
        KeptRow(
            row.rank,
            row.entrant,
            row.name,
            tuple(row.values.get(m) for m in metrics),
            row.played,
            row.byes,
            row.entrant in dropped,
        )
        for row in standings.rows
    )
    before = kept_get(_meta_key(event))
    now = time.time()
    since = now - before[1] if before is not None and before[0] != version else float("inf")
    kept = KeptStandings(version, now, time.perf_counter() - started, since, metrics, rows)
    kept_set(_latest_key(event), kept, KEPT_SECONDS)
    counted_now = (version, tuple(counted.items()), _fingerprint(counted))
    kept_set(_counted_key(event), counted_now, KEPT_SECONDS)
    _keep_pages(event, kept)
    kept_set(_meta_key(event), (*kept[:5], len(rows)), KEPT_SECONDS)
    ranks = {row.entrant_id: row.rank for row in rows}
    kept_set(_ranks_key(event), (kept.version, ranks), KEPT_SECONDS)
    return kept


def kept_ranks(event: Event) -> tuple[str, Mapping[int, int]] | None:
    """(the version of the standings kept last, each entrant's rank in them), or None."""
    found = kept_get(_ranks_key(event))
    return (str(found[0]), found[1]) if found is not None else None


def _ranks_key(event: Event) -> str:
    return f"standings-ranks:{event.public_token}"


def _within(at: float, took: float, since: float) -> bool:
    """Whether standings computed at ``at`` (in ``took`` seconds, ``since`` seconds after
    the version before) are still inside the time they may be shown behind (LAG_FACTOR)."""
    held = max(
        LAG_FACTOR * took if took >= SLOW_SECONDS else 0.0,
        REFRESH_SECONDS if since < STREAM_SECONDS else 0.0,
    )
    return time.time() - at < held


def version_parts(version: str) -> tuple[str, tuple[int, int, int], str]:
    """(the director's last change, the finished games' fingerprint, the event's time)."""
    logged, n, r, w, *when = version.split(".")
    return logged, (int(n), int(r), int(w)), ".".join(when)


def only_more_counted(event: Event, version: str, current: str) -> bool:
    """Whether the results went from ``version`` (that of the standings kept) to
    ``current`` by more tables counting alone: no change of the director's, and every
    table those standings counted still finished as it was (a correction, an undo, a
    reopened game at one of them: no). Found once for each pair, for every process."""
    if version == current:
        return True
    before, after = version_parts(version), version_parts(current)
    if before[0] != after[0] or before[2] != after[2] or after[1][0] <= before[1][0]:
        return False
    key = f"standings-grown:{event.public_token}:{version}:{current}"
    found = kept_get(key)
    if found is not None:
        return bool(found)
    counted = kept_get(_counted_key(event))
    grown = False
    if counted is not None and counted[0] == version:
        ids = [pk for pk, _ in counted[1]]
        still = Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED)
        grown = games_fingerprint(still) == tuple(counted[2])
    kept_set(key, grown, VERSION_KEPT_SECONDS)
    return grown


def _still_shown(event: Event, meta: tuple[Any, ...], current: str) -> bool:
    """Whether standings of ``meta`` (version, computed at, took, since the version
    before) may still be shown while the results are at ``current`` (see LAG_FACTOR)."""
    version, at, took, since = meta
    if version == current:
        return True
    return _within(at, took, since) and only_more_counted(event, version, current)


def shown_version(event: Event) -> str:
    """The version of the standings a player's page asked now shows (``kept_standings``
    with ``lag=True``). Costs a cache read or two, and a small query once per event
    revision."""
    meta_key = _meta_key(event)
    found = kept_get_many([*version_keys(event), meta_key])  # in one round trip
    current = results_version(event, found=found)
    meta: tuple[Any, ...] | None = found.get(meta_key)
    if meta is not None and _still_shown(event, meta[:4], current):
        return str(meta[0])
    return current


def kept_standings(event: Event, *, lag: bool = False) -> KeptStandings:
    """The event's standings as kept: computed once for each version of the results, by
    one process at a time (a short lock in the cache), and read by every page and
    process from there.

    ``lag=True`` (the players' pages): a big event's standings computed a moment ago
    are answered while the results have moved on since (see LAG_FACTOR), and so are the
    latest kept while another process computes newer ones. Otherwise the standings of
    the results now (their version found anew), waiting for another process's
    computation rather than doing it twice."""
    version = results_version(event, cached=lag)
    latest: KeptStandings | None = kept_get(_latest_key(event))
    if latest is not None and (
        latest.version == version or (lag and _still_shown(event, latest[:4], version))
    ):
        return latest
    lock = f"standings-computing:{event.public_token}"
    if kept_add(lock, version, LOCK_SECONDS):
        try:
            return _compute(event, version)
        finally:
            kept_delete(lock)
    if lag and latest is not None and only_more_counted(event, latest.version, version):
        return latest  # another process computes newer ones (more tables): these meanwhile
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.02)
        found: KeptStandings | None = kept_get(_latest_key(event))
        if found is not None and (found.version == version or (lag and latest is None)):
            return found
        if kept_add(lock, version, LOCK_SECONDS):  # the other one is done, or died
            try:
                return _compute(event, version)
            finally:
                kept_delete(lock)
    return _compute(event, version)


def kept_rank(event: Event, entrant_id: int, *, lag: bool = False) -> tuple[str, int | None]:
    """(the version of the standings read, an entrant's rank in them): read from the
    ranks kept with them (a few bytes a player) when they are the ones to show."""
    ranks = kept_get(_ranks_key(event))
    wanted = shown_version(event) if lag else results_version(event)
    if ranks is not None and ranks[0] == wanted:
        return str(ranks[0]), ranks[1].get(entrant_id)
    kept = kept_standings(event, lag=lag)
    rank = next((row.rank for row in kept.rows if row.entrant_id == entrant_id), None)
    return kept.version, rank


# --------------------------------------------------------------------------- one page
#
# A page of the standings (100 rows, the projector's 200) is read without the other
# 10,000: the rows are kept also in pages of PAGE_ROWS, under their version, for a few
# minutes (read again from the whole standings, and kept again, past that).

PAGE_ROWS = 100
PAGES_KEPT_SECONDS = 120


def _page_key(event: Event, version: str, number: int) -> str:
    return f"standings-page:{event.public_token}:{version}:{number}"


def _keep_pages(event: Event, kept: KeptStandings) -> None:
    rows = kept.rows
    kept_set_many(
        {
            _page_key(event, kept.version, start // PAGE_ROWS): rows[start : start + PAGE_ROWS]
            for start in range(0, len(rows), PAGE_ROWS)
        },
        PAGES_KEPT_SECONDS,
    )


def kept_page(
    event: Event, *, page: int, size: int, lag: bool = False
) -> tuple[KeptStandings, int, int]:
    """One page of ``size`` rows of the kept standings (``lag`` as for
    ``kept_standings``): (the standings holding those rows alone, how many rows in all,
    the page number: past the end, the last page). Reads the rows of that page only."""
    meta: tuple[Any, ...] | None = kept_get(_meta_key(event))
    if meta is not None and len(meta) == 6:
        version = results_version(event, cached=lag)
        if meta[0] == version or (lag and _still_shown(event, meta[:4], version)):
            total = int(meta[5])
            page = _clamped(page, size, total)
            first = (page - 1) * size
            numbers = range(first // PAGE_ROWS, (first + size - 1) // PAGE_ROWS + 1)
            keys = [_page_key(event, meta[0], n) for n in numbers if n * PAGE_ROWS < total]
            found = kept_get_many(keys)
            if len(found) == len(keys):
                rows = [row for key in keys for row in found[key]]
                start = first - numbers[0] * PAGE_ROWS
                shown = KeptStandings(*meta[:5], tuple(rows[start : start + size]))
                return shown, total, page
    kept = kept_standings(event, lag=lag)
    if meta is not None and meta[0] == kept.version:  # its pages lapsed: kept again
        _keep_pages(event, kept)
    total = len(kept.rows)
    page = _clamped(page, size, total)
    first = (page - 1) * size
    return kept._replace(rows=kept.rows[first : first + size]), total, page


def _clamped(page: int, size: int, total: int) -> int:
    """The page asked for, the last one past the end (1 with no rows)."""
    return max(1, min(page, -(-total // size)))
