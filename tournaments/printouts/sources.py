"""An event's printouts, as sources of the printing app's print jobs.

- ``event_table_cards``: one card per table of a tournament round, to stand on the table:
  the table number, the seats with names and teams, the first dealer, the options in
  force and the QR code of the table's page;
- ``event_seating_list``: every player of a tournament round by name, with table and seat,
  for the wall;
- ``event_round_scoresheets``: every table's scoresheet for pen and paper, the players'
  names already on it (the printing app's own blank sheet, named);
- ``event_standings``: the standings as they stand, final once the event is closed.

Each is asked for with a small JSON request (``printout_request``) and drawn by a
print job (``printout_create`` -> ``printing.services.printjob_create``). The sources
are registered in ``TournamentsConfig.ready``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext

from printing.errors import PrintRequestError
from printing.models import PrintJob
from printing.render import Card, CardLine, ListColumn, Listing, Sheet
from printing.scoresheets import blank_sheet, filled_sheet
from printing.services import printjob_create
from scoring.engines.base import InvalidRecord
from scoring.engines.registry import ENGINES
from scoring.models import Game
from scoring.selectors import game_record
from tournaments.events.selectors import Draw, DrawTable, draw_for, folded, standings_for
from tournaments.events.signup_selectors import when_and_where
from tournaments.models import Event, TournamentRound
from tournaments.standings.adapter import metric_shown
from tournaments.standings.core.shown import columns_with_values

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# The kinds in the printing app's registry (``event_``: a scoresheet-only "table_cards"
# source may be registered by printing's own tests).
TABLE_CARDS = "event_table_cards"
SEATING_LIST = "event_seating_list"
ROUND_SCORESHEETS = "event_round_scoresheets"
STANDINGS = "event_standings"

ROUND_KINDS = (TABLE_CARDS, SEATING_LIST, ROUND_SCORESHEETS)
KINDS = (*ROUND_KINDS, STANDINGS)
KIND_LABELS = {
    TABLE_CARDS: gettext_lazy("Table cards"),
    SEATING_LIST: gettext_lazy("Seating list"),
    ROUND_SCORESHEETS: gettext_lazy("Scoresheets"),
    STANDINGS: gettext_lazy("Standings"),
}


# --------------------------------------------------------------------------- requests


def site_address(base_url: str = "") -> str:
    """Where players' phones reach the site: ``TABLESCORE_BASE_URL`` when it is set (behind
    a proxy the request may not know its public address), else the request's own."""
    configured = settings.TABLESCORE_BASE_URL
    address = (configured or base_url).strip().rstrip("/")
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    return address


def printout_request(
    *, event: Event, kind: str, round_number: int | None = None, base_url: str = ""
) -> dict[str, Any]:
    """The ``what`` of a print job for one of an event's printouts (checked).

    A round's printouts are of a published tournament round: the latest unless
    ``round_number`` is given. Table cards also need the site's address for their codes.
    """
    if kind not in KINDS:
        raise PrintRequestError(f"printout must be one of {', '.join(KINDS)}")
    what: dict[str, Any] = {"kind": kind, "event": event.pk}
    if kind in ROUND_KINDS:
        what["round"] = _published_round(event, round_number).number
    if kind == TABLE_CARDS:
        address = site_address(base_url)
        if not address:
            raise PrintRequestError(
                "table cards need the site's address for their codes: "
                "set TABLESCORE_BASE_URL (https://scores.example.org)"
            )
        what["base_url"] = address
    return what


def printout_create(
    *,
    event: Event,
    kind: str,
    round_number: int | None = None,
    paper: str | None = None,
    base_url: str = "",
) -> PrintJob:
    """The print job of one of an event's printouts (the same one when asked again)."""
    what = printout_request(event=event, kind=kind, round_number=round_number, base_url=base_url)
    return printjob_create(what=what, paper=paper)


def _published_round(event: Event, number: Any) -> TournamentRound:
    published = event.rounds.filter(status=TournamentRound.Status.PUBLISHED)
    if number is None:
        latest = published.order_by("-number").first()
        if latest is None:
            raise PrintRequestError(gettext("no tournament round is published yet"))
        return latest
    if not isinstance(number, int) or isinstance(number, bool):
        raise PrintRequestError(gettext("the tournament round is named by its number"))
    found = published.filter(number=number).first()
    if found is None:
        raise PrintRequestError(
            gettext("tournament round {number} is not published").format(number=number)
        )
    return found


def _event(what: Mapping[str, Any]) -> Event:
    event_id = what.get("event")
    event = Event.objects.filter(pk=event_id).first() if isinstance(event_id, int) else None
    if event is None:
        raise PrintRequestError(gettext("this event no longer exists"))
    return event


def _draw(what: Mapping[str, Any]) -> tuple[Event, Draw]:
    event = _event(what)
    round_ = _published_round(event, what.get("round"))
    draw = draw_for(event=event, round=round_)
    assert draw is not None  # a round was given
    return event, draw


def _games(draw: Draw) -> dict[int, Game]:
    ids = [t.game_id for t in draw.tables if t.game_id is not None]
    return {g.pk: g for g in Game.objects.filter(pk__in=ids).prefetch_related("seats")}


def _round_words(draw: Draw) -> str:
    return gettext("Tournament round {number} of {planned}").format(
        number=draw.round_number, planned=draw.rounds_planned
    )


class _EventSource:
    kind = ""
    noun: StrOrPromise = ""  # what the sheet is called, in the reader's language

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        event = Event.objects.filter(pk=what.get("event", 0)).values_list("name", flat=True).first()
        name = event or gettext("a removed event")
        if "round" in what:
            return gettext("{what} of {event}, tournament round {number}, {paper}").format(
                what=self.noun, event=name, number=what["round"], paper=paper_name
            )
        return gettext("{what} of {event}, {paper}").format(
            what=self.noun, event=name, paper=paper_name
        )

    def filename(self, what: Mapping[str, Any]) -> str:
        where = f"-round-{what['round']}" if "round" in what else ""
        name = self.kind.removeprefix("event_").replace("_", "-")
        return f"event-{what.get('event')}{where}-{name}.pdf"

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        event = what.get("event")
        if "round" in what:
            return gettext("Back to the round"), reverse(
                "tournaments:desk_round", args=[event, what["round"]]
            )
        return gettext("Back to the event"), reverse("tournaments:desk_event", args=[event])

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        # Every change players can see bumps the revision: a changed event prints afresh.
        revision = Event.objects.filter(pk=what.get("event", 0)).values_list("revision", flat=True)
        return {"revision": revision.first()}


# --------------------------------------------------------------------------- table cards


class _OptionWords:
    """The options in force at a table, in the words the scoresheets print them."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, ...]] = {}

    def __call__(self, game: Game, players: int) -> tuple[str, ...]:
        key = json.dumps([game.kind, players, game.options], sort_keys=True)
        if key not in self._known:
            self._known[key] = _named_blank(game, players).options
        return self._known[key]


def _named_blank(game: Game, players: int) -> Sheet:
    """The printing app's blank sheet of this table's game, under its options in force."""
    engine = ENGINES[game.kind]
    try:
        resolved = engine.resolve_options(dict(game.options), players)
    except InvalidRecord as invalid:
        raise PrintRequestError(
            gettext("Game #{game} has options that no longer apply: {problem}").format(
                game=game.pk, problem=invalid
            )
        ) from None
    return blank_sheet(game.kind, players, resolved)


def table_card(
    *,
    event_name: str,
    draw: Draw,
    table: DrawTable,
    game: Game,
    link: str,
    options: tuple[str, ...],
    when_where: str = "",
) -> Card:
    teams = any(seat.team for seat in table.seats)
    lines = []
    for seat in table.seats:
        notes = []
        if seat.team:
            notes.append(gettext("team {team}").format(team=seat.team))
        if seat.entrant_name != seat.name:
            notes.append(seat.entrant_name)
        if seat.seat == table.first_dealer:
            notes.append(gettext("deals first"))
        lines.append(
            CardLine(
                str(seat.seat),
                seat.name,
                " · ".join(notes),
                marked=seat.seat == table.first_dealer,
            )
        )
    facts = [
        (
            gettext("{game}, {players} players, in teams")
            if teams
            else gettext("{game}, {players} players")
        ).format(game=ENGINES[game.kind].title, players=len(table.seats)),
        gettext("{name} (seat {seat}) deals first").format(
            name=table.first_dealer_name, seat=table.first_dealer
        ),
    ]
    if when_where:
        facts.append(when_where)
    return Card(
        title=event_name,
        heading=gettext("Table {number}").format(number=table.number),
        kicker=_round_words(draw),
        lines=tuple(lines),
        facts=tuple(facts),
        notes_title=gettext("Options in force"),
        notes=options,
        link=link,
        link_caption=gettext(
            "Scan the code, or open this page, to enter and follow this table's score:"
        ),
        footer=f"Tablescore · {event_name} · "
        + gettext("tournament round {number}, table {table}").format(
            number=draw.round_number, table=table.number
        ),
    )


def table_link(base_url: str, token: str) -> str:
    return base_url + reverse("scoring:table", args=[token])


class TableCards(_EventSource):
    """``{"kind": "event_table_cards", "event", "round", "base_url"}``: a card per table."""

    kind = TABLE_CARDS
    noun = gettext_lazy("Table cards")

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Card], int]:
        event, draw = _draw(what)
        base_url = str(what.get("base_url") or "")
        if not site_address(base_url):
            raise PrintRequestError(gettext("table cards need the site's address for their codes"))
        return self._cards(event, draw, base_url), len(draw.tables)

    def _cards(self, event: Event, draw: Draw, base_url: str) -> Iterator[Card]:
        games = _games(draw)
        words = _OptionWords()
        for table in draw.tables:
            game = games.get(table.game_id or 0)
            if game is None:
                raise PrintRequestError(
                    gettext("table {number} has no game").format(number=table.number)
                )
            yield table_card(
                event_name=event.name,
                draw=draw,
                table=table,
                game=game,
                link=table_link(base_url, table.table_token),
                options=words(game, len(table.seats)),
                when_where=when_and_where(event),
            )


# --------------------------------------------------------------------------- seating list


def seating_list(draw: Draw, when_where: str = "") -> Listing:
    """Everyone seated (and every bye) in name order, with table and seat (from 1)."""
    teams = any(seat.team for table in draw.tables for seat in table.seats)
    named_teams = any(seat.entrant_name != seat.name for t in draw.tables for seat in t.seats)
    rows: list[tuple[str, tuple[str, ...]]] = []
    for table in draw.tables:
        for seat in table.seats:
            team = seat.team
            if named_teams:
                team = f"{seat.team} {seat.entrant_name}".strip()
            cells = (seat.name, str(table.number), str(seat.seat))
            rows.append((seat.name, cells + ((team,) if teams or named_teams else ())))
    bye = gettext("bye")
    for name in draw.byes:
        rows.append((name, (name, bye, "", "") if teams or named_teams else (name, bye, "")))
    rows.sort(key=lambda r: (folded(r[0]), r[0], r[1][1].zfill(4)))
    columns = [
        ListColumn(gettext("Name"), 4.0, bold=True),
        ListColumn(gettext("Table"), 1.1, "center", number=True, bold=True),
        ListColumn(gettext("Seat"), 1.0, "center", number=True),
    ]
    if teams or named_teams:
        columns.append(ListColumn(gettext("Team"), 3.0 if named_teams else 1.1, "center"))
    seated = sum(len(t.seats) for t in draw.tables)
    subtitle = (
        f"{draw.event_name} · "
        + (f"{when_where} · " if when_where else "")
        + f"{_round_words(draw)} · "
        + gettext("{players} players at {tables} tables").format(
            players=seated, tables=len(draw.tables)
        )
        + (
            " · "
            + ngettext("{count} bye", "{count} byes", len(draw.byes)).format(count=len(draw.byes))
            if draw.byes
            else ""
        )
        + " · "
        + gettext("seats are counted from 1, as on the table cards")
    )
    return Listing(
        title=gettext("Where to sit: tournament round {number}").format(number=draw.round_number),
        subtitle=subtitle,
        columns=tuple(columns),
        rows=tuple(cells for _, cells in rows),
        flow=2,
        size=12.0,
        footer=f"Tablescore · {draw.event_name} · "
        + gettext("seating, tournament round {number}").format(number=draw.round_number),
        empty=gettext("Nobody is seated in this tournament round."),
    )


class SeatingList(_EventSource):
    """``{"kind": "event_seating_list", "event", "round"}``: everyone by name, table and seat."""

    kind = SEATING_LIST
    noun = gettext_lazy("Seating list")

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Listing], int]:
        event, draw = _draw(what)
        return iter([seating_list(draw, when_and_where(event))]), 1


# --------------------------------------------------------------------------- scoresheets


def named_scoresheet(
    *, event_name: str, draw: Draw, table: DrawTable, game: Game, when_where: str = ""
) -> Sheet:
    """The printing app's blank sheet of this table's game with the players' names on it."""
    record = game_record(game)
    players = len(record.players)
    blank = _named_blank(game, players)
    # The printing app's filled sheet of the game before its first deal words the seats,
    # teams and signatures with the names; the blank sheet keeps its empty rows.
    named = filled_sheet(dataclasses.replace(record, rounds=(), extras={}))
    seats = tuple(
        dataclasses.replace(line, name=record.players[index])
        for index, line in enumerate(blank.seats)
    )
    return dataclasses.replace(
        blank,
        # The table first: read across the room when handing out.
        title=gettext("Table {number}").format(number=table.number) + f" · {blank.title}",
        subtitle=gettext("{subtitle}; {name} deals first").format(
            subtitle=named.subtitle, name=table.first_dealer_name
        ),
        meta=(
            (gettext("Event"), event_name),
            (gettext("Tournament round"), str(draw.round_number)),
        ),
        seats=seats,
        signatures=named.signatures,
        # When and where in the footer: the heading's facts are kept short enough to show whole.
        footer=f"Tablescore · {event_name} · "
        + (f"{when_where} · " if when_where else "")
        + gettext("tournament round {number}, table {table}").format(
            number=draw.round_number, table=table.number
        ),
    )


class RoundScoresheets(_EventSource):
    """``{"kind": "event_round_scoresheets", "event", "round"}``: every table's sheet, named."""

    kind = ROUND_SCORESHEETS
    noun = gettext_lazy("Scoresheets")

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Sheet], int]:
        event, draw = _draw(what)
        return self._sheets(event, draw), len(draw.tables)

    def _sheets(self, event: Event, draw: Draw) -> Iterator[Sheet]:
        games = _games(draw)
        for table in draw.tables:
            game = games.get(table.game_id or 0)
            if game is None:
                raise PrintRequestError(
                    gettext("table {number} has no game").format(number=table.number)
                )
            yield named_scoresheet(
                event_name=event.name,
                draw=draw,
                table=table,
                game=game,
                when_where=when_and_where(event),
            )


# --------------------------------------------------------------------------- standings


def metric_value(value: float | None) -> str:
    return metric_shown(value, missing="-")


def standings_list(event: Event) -> Listing:
    standings = standings_for(event=event)
    published = event.rounds.filter(status=TournamentRound.Status.PUBLISHED).count()
    final = event.status == Event.Status.CLOSED
    # A column with no value in any row (all dashes) is left out.
    kept = columns_with_values((row.values for row in standings.rows), len(standings.labels))
    columns = (
        ListColumn(gettext("Rank"), 0.8, "center", number=True, bold=True),
        ListColumn(gettext("Name"), 5.0, bold=True),
        *(ListColumn(standings.labels[i], 1.3, "right", number=True) for i in kept),
        ListColumn(gettext("Played"), 1.0, "right", number=True),
    )
    rows = tuple(
        (
            str(row.rank),
            row.name + (" " + gettext("(dropped)") if row.dropped else ""),
            *(metric_value(row.values[i]) for i in kept),
            str(row.played)
            + (
                " + " + ngettext("{count} bye", "{count} byes", row.byes).format(count=row.byes)
                if row.byes
                else ""
            ),
        )
        for row in standings.rows
    )
    if final:
        when = ngettext(
            "Final, after {count} tournament round",
            "Final, after {count} tournament rounds",
            published,
        ).format(count=published)
    else:
        when = gettext(
            "After {count} of {planned} tournament rounds, from the results confirmed so far"
        ).format(count=published, planned=event.rounds_planned)
    where = when_and_where(event)
    return Listing(
        title=(
            gettext("Final standings: {event}") if final else gettext("Standings: {event}")
        ).format(event=event.name),
        subtitle=(f"{where} · " if where else "")
        + f"{when} · {ENGINES[event.game].title} · "
        + gettext("ranked by {metrics}").format(
            metrics=gettext(", then ").join(label.lower() for label in standings.labels)
        ),
        columns=columns,
        rows=rows,
        size=11.0,
        footer=f"Tablescore · {event.name} · " + gettext("standings"),
        empty=gettext("No entrants yet."),
    )


class StandingsSheet(_EventSource):
    """``{"kind": "event_standings", "event"}``: the standings now (final once closed)."""

    kind = STANDINGS
    noun = gettext_lazy("Standings")

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Listing], int]:
        return iter([standings_list(_event(what))]), 1


TABLE_CARD_SOURCE = TableCards()
SEATING_LIST_SOURCE = SeatingList()
ROUND_SCORESHEET_SOURCE = RoundScoresheets()
STANDINGS_SOURCE = StandingsSheet()
SOURCES = (TABLE_CARD_SOURCE, SEATING_LIST_SOURCE, ROUND_SCORESHEET_SOURCE, STANDINGS_SOURCE)
