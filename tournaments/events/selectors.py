"""Reads of an event for the director's desk, the players' pages and printing. Nothing
here writes.

Every selector returns frozen dataclasses a template shows directly:

- ``draw_for(event=, round=None, offset=0, limit=None)`` -> ``Draw | None``: a round's
  tables (the latest published one unless a round is given; a draft for the desk), or
  one page of them, each ``DrawTable`` with its seats (``DrawSeat``: 1-based seat, the
  name at that seat, the entrant, the team), its first dealer and its table link token
  (empty for a draft).
- ``seat_find(event=, query=)`` -> ``list[SeatFound]``: "where do I sit" in the current
  draw, by any part of a name, ignoring case and accents (searched in the database).
- ``entrant_page(event=, entrant=)`` -> ``EntrantPage``: an entrant's tables with their
  state and results, byes, and the seat of their table still to play.
- ``standings_for(event=, lag=False)`` -> ``StandingsView``: the metric labels and one
  ``StandingRow`` per entrant, from the confirmed tables, computed once per change of
  the results and kept for every process (the standings adapter's ``kept_standings``);
  ``rank_of(event=, entrant_id=)`` one entrant's rank, read from the ranks kept with
  them; ``standings_version(event=)`` the version a player's page shows now.
- ``tables_live(event=)`` -> ``list[TableState]``: every published table: playing,
  waiting for confirmation, or done, and how many deals are in;
  ``tables_live_numbered(event=, round_number=, numbers=)`` those of a round's numbers;
  ``table_numbers_found(round=, query=)`` the numbers of a round's tables, or of those
  a search names (table numbers, parts of names); ``tournament_round_has_deals(round=)``;
  ``tables_live_first(event=, round_number=, shown=)`` the first of a round's, those
  still playing first, and how many there are.
- ``entrant_counts(event=)`` -> ``EntrantCounts``; ``entrants_by_name(event=, query=)``
  -> the entrants whose name holds ``query``, in name order, for one page of them.
- ``generation_for(event=)`` -> ``Generation``: the background generation's progress.
- The desk's reads: one row by its id or number (``entrant_of``, ``tournament_round_of``,
  ``table_of``, ``staff_member``), ``desk_rounds(event=)`` -> ``DeskRounds`` (the event's
  tournament rounds, published and draft), ``round_facts(round=, numbers=)`` ->
  ``RoundFacts`` (byes, absences, table ids of a round's page), the choices of an
  event's settings (``EVENT_FORMATS`` and friends).
- ``clock_of(round)`` -> ``Clock``: a tournament round's clock as pages show it (its
  changes: ``tournaments.events.services.clock``).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Collate
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from common.folding import folded
from scoring.models import ChangeRequest, Confirmation, Game, Round, Seat
from scoring.wording import problems_text, translated
from tournaments.errors import read_problems
from tournaments.models import (
    Absence,
    BracketGame,
    Bye,
    Entrant,
    Event,
    EventStaff,
    KeepApart,
    Table,
    TableSeat,
    TournamentRound,
)
from tournaments.seating import adapter as seating
from tournaments.standings import adapter as results
from tournaments.standings.core import METRIC_LABELS

# --------------------------------------------------------------------------- the draw


@dataclass(frozen=True)
class DrawSeat:
    seat: int  # 1-based, as on screen and paper
    name: str  # who sits here (a team member's own name in partnership play)
    entrant_id: int
    entrant_name: str
    team: str  # the game's team label at this seat ("A", "B"), empty in individual play


@dataclass(frozen=True)
class DrawTable:
    number: int
    seats: tuple[DrawSeat, ...]
    first_dealer: int  # 1-based seat
    first_dealer_name: str
    table_token: str  # the table's entry link (the desk's alone); empty in a draft
    game_id: int | None
    view_token: str = ""  # the table's view link (public pages); empty in a draft


@dataclass(frozen=True)
class Draw:
    event_name: str
    round_number: int
    rounds_planned: int
    published: bool
    tables: tuple[DrawTable, ...]
    byes: tuple[str, ...]
    report: Mapping[str, Any]  # the seating core's quality report
    revision: int
    table_count: int = 0  # every table of the round, when ``tables`` holds one page of them


def _seat_name(seat: TableSeat) -> str:
    members = seat.entrant.members
    return members[seat.member] if members and seat.member < len(members) else seat.entrant.name


def published_rounds_count(*, event: Event) -> int:
    """How many of the event's rounds are published."""
    return event.rounds.filter(status=TournamentRound.Status.PUBLISHED).count()


def _latest_published(event: Event) -> TournamentRound | None:
    return event.rounds.filter(status=TournamentRound.Status.PUBLISHED).order_by("-number").first()


def by_letters(field: str) -> Collate | F:
    """Order by a folded name compared letter by letter (code points), as Python sorts
    strings, whatever collation the database was set up with."""
    return Collate(field, "C") if connection.vendor == "postgresql" else F(field)


# The most seats one entrant takes at a table (a fixed team's members, each a seat).
MOST_SEATS = 10


def _teams(game_ids: list[int]) -> dict[tuple[int, int], str]:
    """(game, 0-based seat) -> the game's team label at that seat, for these games."""
    return {
        (game_id, number): team
        for game_id, number, team in Seat.objects.filter(game_id__in=game_ids).values_list(
            "game_id", "number", "team"
        )
    }


def draw_for(
    *,
    event: Event,
    round: TournamentRound | None = None,
    offset: int = 0,
    limit: int | None = None,
    numbers: Collection[int] | None = None,
) -> Draw | None:
    """A round's draw: the latest published round unless ``round`` is given. With
    ``limit``, only the tables from the ``offset``-th (0-based, by number) on, that many,
    are read; with ``numbers``, only the tables of those numbers; ``Draw.table_count``
    still counts them all."""
    round_ = round or _latest_published(event)
    if round_ is None:
        return None
    in_round = round_.tables.order_by("number")
    chosen = in_round.select_related("game")
    if numbers is not None:
        chosen = chosen.filter(number__in=list(numbers))
    if limit is not None:
        chosen = chosen[offset : offset + limit]
    picked = list(chosen)
    some = limit is not None or numbers is not None
    count = in_round.count() if some else len(picked)
    seats: dict[int, list[TableSeat]] = {}
    for seat in (
        TableSeat.objects.filter(table__in=[t.pk for t in picked])
        .select_related("entrant")
        .order_by("table_id", "seat")
    ):
        seats.setdefault(seat.table_id, []).append(seat)
    teams = _teams([t.game_id for t in picked if t.game_id is not None])
    tables = []
    for table in picked:
        game = table.game
        first = game.first_dealer if game else 0
        draw_seats = tuple(
            DrawSeat(
                seat=s.seat + 1,
                name=_seat_name(s),
                entrant_id=s.entrant_id,
                entrant_name=s.entrant.name,
                team=teams.get((table.game_id, s.seat), "") if table.game_id else "",
            )
            for s in seats.get(table.pk, [])
        )
        tables.append(
            DrawTable(
                number=table.number,
                seats=draw_seats,
                first_dealer=first + 1,
                first_dealer_name=draw_seats[first].name if draw_seats else "",
                table_token=game.table_token if game else "",
                game_id=table.game_id,
                view_token=game.view_token if game else "",
            )
        )
    byes = tuple(
        sorted(b.entrant.name for b in Bye.objects.filter(round=round_).select_related("entrant"))
    )
    return Draw(
        event_name=event.name,
        round_number=round_.number,
        rounds_planned=event.rounds_planned,
        published=round_.status == TournamentRound.Status.PUBLISHED,
        tables=tuple(tables),
        byes=byes,
        report=dict(round_.report),
        revision=event.revision,
        table_count=count,
    )


@dataclass(frozen=True)
class SeatFound:
    name: str
    entrant_id: int
    round_number: int
    table: int | None  # None: a bye this round
    seat: int | None  # 1-based
    team: str
    deals_first: bool
    view_token: str  # the table's view link


def seat_find(*, event: Event, query: str, limit: int | None = None) -> list[SeatFound]:
    """Where every player whose name holds ``query`` sits in the current draw (at most
    ``limit`` of them, first by name): the database finds the entrants by their folded
    names, and only their seats are read."""
    needle = folded(query)
    latest = _latest_published(event)
    if latest is None or not needle:
        return []
    named = Q(entrant__name_folded__contains=needle) | Q(entrant__members_folded__contains=needle)
    candidates = (
        TableSeat.objects.filter(named, table__round=latest)
        .select_related("entrant", "table__game")
        .order_by(by_letters("entrant__name_folded"), "table__number", "seat")
    )
    if limit is not None:
        # Every entrant read keeps one seat at least, and sits in at most MOST_SEATS.
        candidates = candidates[: limit * MOST_SEATS]
    seats = [
        s
        for s in candidates
        # A team's member is found by their own name or the team's.
        if needle in folded(_seat_name(s)) or needle in folded(s.entrant.name)
    ]
    teams = _teams([s.table.game_id for s in seats if s.table.game_id is not None])
    found = [
        SeatFound(
            name=_seat_name(s),
            entrant_id=s.entrant_id,
            round_number=latest.number,
            table=s.table.number,
            seat=s.seat + 1,
            team=teams.get((s.table.game_id, s.seat), "") if s.table.game_id else "",
            deals_first=s.seat == (s.table.game.first_dealer if s.table.game else 0),
            view_token=s.table.game.view_token if s.table.game else "",
        )
        for s in seats
    ]
    for bye in Bye.objects.filter(
        round=latest, entrant__name_folded__contains=needle
    ).select_related("entrant"):
        if needle in folded(bye.entrant.name):
            found.append(
                SeatFound(
                    name=bye.entrant.name,
                    entrant_id=bye.entrant_id,
                    round_number=latest.number,
                    table=None,
                    seat=None,
                    team="",
                    deals_first=False,
                    view_token="",
                )
            )
    return sorted(found, key=lambda f: (folded(f.name), f.table or 0))[:limit]


# --------------------------------------------------------------------------- live tables

PLAYING = "playing"
WAITING = "waiting"  # a deal waits for the other side's confirmation
DONE = "done"
STATE_LABELS = {
    PLAYING: gettext_noop("Playing"),
    WAITING: gettext_noop("Waiting for confirmation"),
    DONE: gettext_noop("Done"),
}  # said in the reader's language where a page is drawn


@dataclass(frozen=True)
class TableState:
    round_number: int
    table: int
    state: str  # PLAYING, WAITING or DONE
    state_label: str
    deals_in: int
    names: tuple[str, ...]
    game_id: int | None
    table_token: str  # the entry link: the desk's alone
    view_token: str = ""


def _state(finished: bool, pending: bool) -> str:
    if pending:
        return WAITING
    return DONE if finished else PLAYING


def tables_live(*, event: Event, round_number: int | None = None) -> list[TableState]:
    """Every published table's state (of one round when ``round_number`` is given)."""
    rows = results.table_rows(event, round_number=round_number)
    return _table_states(sorted(rows, key=lambda r: (r.round_number, r.table_number)))


def tables_live_numbered(
    *, event: Event, round_number: int, numbers: Collection[int]
) -> list[TableState]:
    """The live states of a round's tables of these numbers, by number; only those are
    read beyond their state."""
    wanted = set(numbers)
    rows = [
        r
        for r in results.table_rows(event, round_number=round_number, results=False)
        if r.table_number in wanted
    ]
    return _table_states(sorted(rows, key=lambda r: r.table_number))


def tournament_round_has_deals(*, round: TournamentRound) -> bool:
    """Whether any deal is in at any of the round's tables."""
    return Round.objects.filter(game__event_table__round=round).exists()


def table_numbers_found(*, round: TournamentRound, query: str = "") -> list[int]:
    """The numbers of a round's tables, in order; with ``query``, of those it names:
    terms apart by commas, each a table number or a part of a seated player's name (or
    of a team member's; case and accents ignored)."""
    tables = round.tables.all()
    terms = [term.strip() for term in query.split(",") if term.strip()]
    if terms:
        named = Q(pk__in=[])
        for term in terms:
            if term.isdigit():
                named |= Q(number=int(term[:9]))
            elif needle := folded(term):
                named |= Q(seats__entrant__name_folded__contains=needle)
                named |= Q(seats__entrant__members_folded__contains=needle)
        tables = tables.filter(named)
    return list(tables.order_by("number").values_list("number", flat=True).distinct())


def tables_live_first(
    *, event: Event, round_number: int, shown: int
) -> tuple[list[TableState], int]:
    """A round's tables for the desk, those still playing (or waiting) first, then by
    number: the first ``shown`` of them, and how many tables the round has. Only the
    tables shown are read beyond their state."""
    rows = results.table_rows(event, round_number=round_number, results=False)
    rows.sort(key=lambda r: (_state(r.finished, r.pending) == DONE, r.table_number))
    return _table_states(rows[:shown]), len(rows)


def _table_states(rows: list[results.TableRow]) -> list[TableState]:
    """The live states of these tables, in their order: deals in, names, links."""
    games = [r.game_id for r in rows if r.game_id is not None]
    deals = dict(
        Round.objects.filter(game_id__in=games)
        .values("game_id")
        .annotate(count=Count("pk"))
        .values_list("game_id", "count")
    )
    links = {
        pk: (entry, view)
        for pk, entry, view in Table.objects.filter(pk__in=[r.table_id for r in rows]).values_list(
            "pk", "game__table_token", "game__view_token"
        )
    }
    names: dict[int, list[tuple[int, str]]] = {}
    for seat in TableSeat.objects.filter(table_id__in=links).select_related("entrant"):
        names.setdefault(seat.table_id, []).append((seat.seat, _seat_name(seat)))
    return [
        TableState(
            round_number=r.round_number,
            table=r.table_number,
            state=(state := _state(r.finished, r.pending)),
            state_label=gettext(STATE_LABELS[state]),
            deals_in=deals.get(r.game_id or 0, 0),
            names=tuple(name for _, name in sorted(names.get(r.table_id, []))),
            game_id=r.game_id,
            table_token=links.get(r.table_id, ("", ""))[0] or "",
            view_token=links.get(r.table_id, ("", ""))[1] or "",
        )
        for r in rows
    ]


# --------------------------------------------------------------------------- players


@dataclass(frozen=True)
class EntrantCounts:
    registered: int
    active: int  # not dropped
    checked_in: int  # not dropped and checked in


def entrant_counts(*, event: Event) -> EntrantCounts:
    """How many players the event has, plays with, and has checked in, counted in the
    database."""
    active = Q(dropped=False)
    counted = event.entrants.aggregate(
        registered=Count("pk"),
        active=Count("pk", filter=active),
        checked_in=Count("pk", filter=active & Q(checked_in=True)),
    )
    return EntrantCounts(**counted)


def entrants_by_name(*, event: Event, query: str = "") -> QuerySet[Entrant]:
    """The event's entrants whose name holds ``query`` (case and accents ignored), in
    the order of their folded names compared letter by letter, as Python sorts them,
    whatever the database's collation; the same folded name in the order registered."""
    found = event.entrants.all()
    needle = folded(query)
    if needle:
        found = found.filter(name_folded__contains=needle)
    return found.order_by(by_letters("name_folded"), "pk")


def entrants_page(
    *, event: Event, query: str = "", page: int = 1, per_page: int
) -> tuple[list[Entrant], int, int]:
    """One page of ``entrants_by_name``: its entrants, the page shown (within the pages
    there are) and how many entrants were found."""
    found = entrants_by_name(event=event, query=query)
    count = found.count()
    pages = max(1, -(-count // per_page))
    page = min(max(1, page), pages)
    return list(found[(page - 1) * per_page : page * per_page]), page, count


# --------------------------------------------------------------------------- standings


# One entrant's line: rank, entrant_id, name, values (in the order of
# StandingsView.labels), played, byes, dropped (a named tuple, as kept).
StandingRow = results.KeptRow


@dataclass(frozen=True)
class StandingsView:
    metrics: tuple[str, ...]  # metric keys, in the director's order
    labels: tuple[str, ...]  # their labels for a table header
    rows: tuple[StandingRow, ...]
    revision: int
    version: str = ""  # what they were computed from (the adapter's results_version)


def standings_for(*, event: Event, lag: bool = False) -> StandingsView:
    """The standings from confirmed tables only (raises InvalidResults on a bug), as the
    adapter keeps them: computed once per change of the results, for every process.
    ``lag=True`` for the players' pages: a big event's may be a moment behind while
    results stream in (see the adapter's LAG_FACTOR)."""
    kept = results.kept_standings(event, lag=lag)
    return StandingsView(
        metrics=tuple(m.value for m in kept.metrics),
        labels=tuple(gettext(METRIC_LABELS[m]) for m in kept.metrics),  # the reader's words
        rows=kept.rows,
        revision=event.revision,
        version=kept.version,
    )


def standings_version(*, event: Event) -> str:
    """The version of the standings a player's page shows now (a cache read or two)."""
    return results.shown_version(event)


def rank_of(*, event: Event, entrant_id: int, lag: bool = False) -> int | None:
    """An entrant's rank in the kept standings (see ``standings_for``)."""
    return results.kept_rank(event, entrant_id, lag=lag)[1]


# --------------------------------------------------------------------------- an entrant


@dataclass(frozen=True)
class EntrantTable:
    round_number: int
    table: int
    seat: int  # 1-based
    with_names: tuple[str, ...]  # everyone else at the table
    state: str
    state_label: str
    total: int | None  # the entrant's game total so far
    place: int | None  # once the table is done
    view_token: str  # the table's view link (a public page shows no entry link)


@dataclass(frozen=True)
class EntrantPage:
    entrant_id: int
    name: str
    members: tuple[str, ...]
    dropped: bool
    tables: tuple[EntrantTable, ...]
    bye_rounds: tuple[int, ...]
    next_table: EntrantTable | None  # the table still to play in the latest round
    rank: int | None
    revision: int
    standings_version: str = ""  # the version of the standings the rank is read from


def entrant_tables_key(*, event: Event, entrant: Entrant) -> str:
    """What changes whenever one of the entrant's tables changes (a deal in, confirmed,
    corrected): their games' revisions, summed, and how many; one small query."""
    counted = Game.objects.filter(
        event_table__round__event=event, event_table__seats__entrant=entrant
    ).aggregate(n=Count("pk", distinct=True), r=Sum("revision"))
    return f"{counted['n']}.{counted['r'] or 0}"


def entrants_tables_keys(*, event: Event, entrant_ids: Collection[int]) -> dict[int, str]:
    """``entrant_tables_key`` of many entrants of the event in one query (those not of the
    event are left out): what a process answering many players' polls compares."""
    known = set(
        Entrant.objects.filter(event=event, pk__in=list(entrant_ids)).values_list("pk", flat=True)
    )
    games: dict[int, set[int]] = {pk: set() for pk in known}
    revisions = dict.fromkeys(known, 0)
    for entrant_id, game_id, revision in Game.objects.filter(
        event_table__round__event=event, event_table__seats__entrant__in=known
    ).values_list("event_table__seats__entrant", "pk", "revision"):
        games[entrant_id].add(game_id)
        revisions[entrant_id] += revision  # a row a seat, as the single key sums them
    return {pk: f"{len(games[pk])}.{revisions[pk]}" for pk in known}


def entrant_page(*, event: Event, entrant: Entrant, lag: bool = False) -> EntrantPage:
    """What one entrant's page shows: their tables and results, byes, where to sit next;
    their rank from the kept standings (``lag`` as for ``standings_for``). Only their
    own tables are read."""
    mine = list(
        TableSeat.objects.filter(
            entrant=entrant,
            table__round__event=event,
            table__round__status=TournamentRound.Status.PUBLISHED,
        )
        .select_related("table__game")
        .order_by("table__round__number", "seat")
    )
    rows = {r.table_id: r for r in results.table_rows(event, table_ids={s.table_id for s in mine})}
    everyone: dict[int, list[TableSeat]] = {}
    for other in (
        TableSeat.objects.filter(table_id__in=rows).select_related("entrant").order_by("seat")
    ):
        everyone.setdefault(other.table_id, []).append(other)
    seen: set[int] = set()
    tables = []
    for seat in mine:
        if seat.table_id in seen or seat.table_id not in rows:
            continue  # a team's second member at the same table
        seen.add(seat.table_id)
        row = rows[seat.table_id]
        others = [
            _seat_name(s) for s in everyone.get(seat.table_id, []) if s.entrant_id != entrant.pk
        ]
        state = _state(row.finished, row.pending)
        places = None
        if state == DONE:
            places = (
                results.table_from_game(
                    number=row.table_number,
                    entrants=list(range(len(row.totals))),
                    totals=row.totals,
                    winners=row.winners,
                    teams=row.teams,
                )
                .seats[seat.seat]
                .place
            )
        tables.append(
            EntrantTable(
                round_number=row.round_number,
                table=row.table_number,
                seat=seat.seat + 1,
                with_names=tuple(others),
                state=state,
                state_label=gettext(STATE_LABELS[state]),
                total=row.totals[seat.seat] if seat.seat < len(row.totals) else None,
                place=places,
                view_token=seat.table.game.view_token if seat.table.game else "",
            )
        )
    latest = _latest_published(event)
    upcoming = next(
        (
            t
            for t in tables
            if latest is not None and t.round_number == latest.number and t.state != DONE
        ),
        None,
    )
    version, rank = results.kept_rank(event, entrant.pk, lag=lag)
    return EntrantPage(
        entrant_id=entrant.pk,
        name=entrant.name,
        members=tuple(entrant.members),
        dropped=entrant.dropped,
        tables=tuple(tables),
        bye_rounds=tuple(
            sorted(
                Bye.objects.filter(
                    entrant=entrant, round__status=TournamentRound.Status.PUBLISHED
                ).values_list("round__number", flat=True)
            )
        ),
        next_table=upcoming,
        rank=rank,
        revision=event.revision,
        standings_version=version,
    )


# --------------------------------------------------------------------------- generation


@dataclass(frozen=True)
class Generation:
    state: str  # "" (never queued), queued, running, done, failed
    round_number: int | None
    done: int
    total: int
    step: str
    message: str
    work: str = "seat"  # "seat" (generating a draft) or "publish"
    quiet_seconds: int = 0  # since its last progress, while queued or running
    restarts: int = 0  # times sent again (by the sweep or the director)

    @property
    def stuck(self) -> bool:
        """Under way with no progress for a while: the desk offers to start it again."""
        return self.state in ("queued", "running") and self.quiet_seconds >= QUIET_BEFORE_RESTART


QUIET_BEFORE_RESTART = 10  # seconds without progress before the desk offers "Start again"


def _generation_message(g: Mapping[str, Any]) -> str:
    """Why a background job failed, in the reader's language: its refusal's problems as
    stored (a template and values each), or a marked message looked up as it is."""
    problems = read_problems(g.get("problems"))
    if problems:
        return problems_text(problems)
    return translated(str(g.get("message", "")))


def generation_for(*, event: Event) -> Generation:
    g = Event.objects.filter(pk=event.pk).values_list("generation", flat=True).first() or {}
    at = g.get("at")
    return Generation(
        quiet_seconds=max(0, int(time.time() - float(at))) if at else 0,
        restarts=int(g.get("restarts", 0)),
        state=g.get("state", ""),
        round_number=g.get("round"),
        done=int(g.get("done", 0)),
        total=int(g.get("total", 0)),
        step=str(g.get("step", "")),
        message=_generation_message(g),
        work=str(g.get("work", "seat")),
    )


# --------------------------------------------------------------------------- the desk's requests


@dataclass(frozen=True)
class TableRequest:
    """A change a closed table asked of the desk, with where it comes from."""

    request: ChangeRequest
    where: str  # "Round 2, table 3" or "Bracket, match R1-1"
    table_id: int | None  # the event table, for the desk's table page (None: a bracket match)
    now: Round | None = None  # the deal asked about, as it is now


def table_requests(*, event: Event) -> list[TableRequest]:
    """The requests waiting for the desk at this event, oldest first."""
    at_event = Q(game__event_table__round__event=event) | Q(game__bracket_game__stage__event=event)
    waiting = list(
        ChangeRequest.objects.filter(at_event, to_desk=True, status=ChangeRequest.Status.OPEN)
        .select_related("game")
        .order_by("created_at", "pk")
    )
    games = {request.game_id for request in waiting}
    tables = {
        t.game_id: t
        for t in Table.objects.filter(round__event=event, game_id__in=games).select_related("round")
    }
    matches = dict(
        BracketGame.objects.filter(stage__event=event, game_id__in=games).values_list(
            "game_id", "match"
        )
    )
    found = []
    for request in waiting:
        table = tables.get(request.game_id)
        if table is not None:
            where = gettext("Round {round}, table {table}").format(
                round=table.round.number, table=table.number
            )
        else:
            where = gettext("Bracket, match {match}").format(
                match=matches.get(request.game_id, "?")
            )
        now = (
            request.game.rounds.filter(number=request.round_number).first()
            if request.round_number is not None
            else None
        )
        found.append(
            TableRequest(
                request=request, where=where, table_id=table.pk if table else None, now=now
            )
        )
    return found


# --------------------------------------------------------------------------- the clock

# A running clock is stored as the moment it ends (``clock_ends_at``), a paused one as
# the seconds left (``clock_paused_left``): pages count down on their own from either,
# and turn to "last deal" at zero.
CLOCK_LONGEST_MINUTES = 240  # a round longer than four hours is a typo
LAST_DEAL = gettext_noop("Last deal")


@dataclass(frozen=True)
class Clock:
    """A round's clock as pages show it."""

    state: str  # "off", "running", "paused"
    ends_at: datetime | None
    seconds_left: int | None

    @property
    def key(self) -> str:
        """What changes when the director changes the clock (and only then): a table
        page that polls sends the key it shows, and gets the clock again when it differs."""
        if self.state == "running" and self.ends_at is not None:
            return f"running {self.ends_at.timestamp():.3f}"
        if self.state == "paused":
            return f"paused {self.seconds_left}"
        return ""

    @property
    def label(self) -> str:
        if self.seconds_left is None:
            return ""
        if self.seconds_left <= 0:
            return gettext(LAST_DEAL)
        minutes, seconds = divmod(self.seconds_left, 60)
        return f"{minutes}:{seconds:02d}"


def clock_of(round_: TournamentRound | None, *, now: datetime | None = None) -> Clock:
    if round_ is None:
        return Clock("off", None, None)
    now = now or timezone.now()
    if round_.clock_paused_left is not None:
        return Clock("paused", None, round_.clock_paused_left)
    if round_.clock_ends_at is not None:
        left = max(0, int((round_.clock_ends_at - now).total_seconds()))
        return Clock("running", round_.clock_ends_at, left)
    return Clock("off", None, None)


# --------------------------------------------------------------------------- the desk


@dataclass(frozen=True)
class Choices:
    """The choices of one of an event's settings, and the one taken when none is posted."""

    values: tuple[tuple[str, str], ...]
    default: str = ""


EVENT_FORMATS = Choices(tuple(Event.Format.choices), Event.Format.MIXER)
BYE_SCORING = Choices(tuple(Event.ByeScoring.choices), Event.ByeScoring.AVERAGE)
AWAY_SCORING = Choices(tuple(Event.AwayScoring.choices))
CONFIRMATIONS = Choices(tuple(Confirmation.choices), Confirmation.OTHER_SIDE)


def event_closed(event: Event) -> bool:
    return event.status == Event.Status.CLOSED


def is_published(round_: TournamentRound) -> bool:
    return round_.status == TournamentRound.Status.PUBLISHED


def is_draft(round_: TournamentRound) -> bool:
    return round_.status == TournamentRound.Status.DRAFT


def _number(value: object) -> int | None:
    """A posted id as a number (None for anything else)."""
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip()[:18])
    return None


def entrant_of(*, event: Event, pk: object) -> Entrant | None:
    """The event's entrant of this id (posted as text or a number), or None."""
    number = _number(pk)
    if number is None:
        return None
    return event.entrants.filter(pk=number).first()


def tournament_round_of(*, event: Event, number: int) -> TournamentRound | None:
    return event.rounds.filter(number=number).first()


def table_of(*, event: Event, table_id: int) -> Table | None:
    """The event's table of this id, with its game and tournament round."""
    return (
        Table.objects.select_related("game", "round")
        .filter(pk=table_id, round__event=event)
        .first()
    )


def table_deals(*, game: Game) -> list[Round]:
    """A table's deals, in order."""
    return list(game.rounds.order_by("number"))


def staff_of(*, event: Event) -> list[EventStaff]:
    """Who helps run the event beside its owner, by role and name."""
    return list(event.staff.select_related("user").order_by("role", "user__username"))


def staff_member(*, event: Event, staff_id: int) -> EventStaff | None:
    return EventStaff.objects.filter(pk=staff_id, event=event).first()


def keep_apart_pairs(*, event: Event) -> list[tuple[str, str]]:
    """The names of the players kept apart, pair by pair."""
    return list(KeepApart.objects.filter(event=event).values_list("first__name", "second__name"))


def event_started(*, event: Event) -> bool:
    """Whether a tournament round of the event is published (a new player is late)."""
    return event.rounds.filter(status=TournamentRound.Status.PUBLISHED).exists()


def players_count(*, event: Event) -> int:
    """How many players the event has who have not dropped."""
    return event.entrants.filter(dropped=False).count()


def seated_count(*, round: TournamentRound) -> int:
    """How many seats the tournament round's tables hold."""
    return TableSeat.objects.filter(table__round=round).count()


# What the availability rule reads of every player (the desk names only the first away).
AVAILABILITY_FIELDS = ("pk", "event", "name", "checked_in", "dropped", "joined_round")


def entrants_for_availability(*, event: Event) -> list[Entrant]:
    """Every player of the event, with only what the availability rule reads."""
    return list(event.entrants.only(*AVAILABILITY_FIELDS))


@dataclass(frozen=True)
class DeskRounds:
    """The event's tournament rounds as the desk shows them."""

    rounds: list[TournamentRound]
    published: list[TournamentRound]
    draft: TournamentRound | None

    @property
    def next_number(self) -> int:
        return len(self.published) + 1


def desk_rounds(*, event: Event) -> DeskRounds:
    rounds = list(event.rounds.order_by("number"))
    return DeskRounds(
        rounds=rounds,
        published=[r for r in rounds if is_published(r)],
        draft=next((r for r in rounds if is_draft(r)), None),
    )


@dataclass(frozen=True)
class RoundFacts:
    """What a tournament round's page shows beside its draw."""

    byes: list[Bye]
    absences: list[Absence]
    last_number: int | None  # the event's latest tournament round
    table_ids: dict[int, int]  # table number -> id, of the tables shown


def round_facts(*, event: Event, round: TournamentRound, numbers: Collection[int]) -> RoundFacts:
    return RoundFacts(
        byes=list(round.byes.select_related("entrant").order_by("entrant__name")),
        absences=list(round.absences.select_related("entrant").order_by("entrant__name")),
        last_number=event.rounds.order_by("-number").values_list("number", flat=True).first(),
        table_ids=dict(round.tables.filter(number__in=numbers).values_list("number", "pk")),
    )


def player_names(*, event: Event) -> dict[int, str]:
    """Every player's name by id, in name order."""
    return dict(event.entrants.order_by("name").values_list("pk", "name"))


def latest_published_number(*, event: Event) -> int | None:
    """The number of the event's latest published tournament round (None before one)."""
    return (
        event.rounds.filter(status=TournamentRound.Status.PUBLISHED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


# --------------------------------------------------------------------------- the players' pages


def event_by_public_token(*, token: str, poll: bool = False) -> Event | None:
    """The event a public link names; for a poll only the few columns that say whether
    anything is new (the whole row is read when a page is drawn)."""
    rows = Event.objects.filter(public_token=token)
    if poll:
        rows = rows.only("pk", "public_token", "revision", "updated_at")
    return rows.first()


def public_entrant(*, token: str, entrant_id: int) -> Entrant | None:
    """A player of the event a public link names, with their event, in one query."""
    return (
        Entrant.objects.select_related("event")
        .filter(event__public_token=token, pk=entrant_id)
        .first()
    )


def latest_published_round(*, event: Event) -> TournamentRound | None:
    """The event's latest published tournament round (what its clock counts)."""
    return _latest_published(event)


# --------------------------------------------------------------------------- table sizes


@dataclass(frozen=True)
class TableSizeChoice:
    size: int
    allowed: bool


def table_size_choices(*, event: Event) -> list[TableSizeChoice]:
    """Each size the event's game allows under its options, and whether the event
    allows it (an event with one size only allows that one; no sizes set: all)."""
    legal = seating.table_policy(event.game, options=event.options).legal_sizes
    chosen = set(event.table_sizes or ([event.table_size] if event.table_size else []))
    return [TableSizeChoice(size, not chosen or size in chosen) for size in legal]
