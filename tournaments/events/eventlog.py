"""The event log as the desk shows it: every change, who made it, when, before and after.

Two sources, read together newest first: the director's changes (``EventLog``) and what
happened at the event's tables (each game's ``RoundEvent``: deals entered, confirmed,
corrected, games ended or reopened). A line names the tables and players it touches, so
the desk filters by table, player and kind. Changes waiting for an answer at a table
(open ``ChangeRequest``) are read apart, for the desk to show on top.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, gettext_noop, pgettext

from scoring.models import ChangeRequest, RoundEvent
from scoring.wording import said
from tournaments.errors import read_stored
from tournaments.models import Entrant, Event, EventLog, Table
from tournaments.services.change import ActingUser

# What each director's change is called on the desk (an unknown action shows as it is).
KIND_LABELS: Mapping[str, str] = {
    "event_create": gettext_noop("Event created"),
    "event_import": gettext_noop("Event imported"),
    "event_close": gettext_noop("Event closed"),
    "event_away_scoring": gettext_noop("Away scoring changed"),
    "event_table_sizes": gettext_noop("Table sizes changed"),
    "event_staff_add": gettext_noop("Staff added"),
    "event_staff_remove": gettext_noop("Staff removed"),
    "entrant_add": gettext_noop("Player registered"),
    "entrant_add_late": gettext_noop("Late entry"),
    "entrants_import_csv": gettext_noop("Players imported"),
    "entrant_check_in": gettext_noop("Check-in"),
    "entrants_check_in_all": gettext_noop("Checked in together"),
    "entrants_check_in_these": gettext_noop("Checked in together"),
    "entrant_link_reissue": gettext_noop("Player's link reissued"),
    "entrant_drop": gettext_noop("Player dropped"),
    "entrant_return": gettext_noop("Drop taken back"),
    "entrant_self_check_in": gettext_noop("Check-in from their own link"),
    "entrant_self_drop": gettext_noop("Dropped out from their own link"),
    "entrant_drop_ask": gettext_noop("Asked to drop out"),
    "entrant_drop_ask_withdraw": gettext_noop("Took back their drop"),
    "entrant_drop_decline": gettext_noop("Kept in (drop declined)"),
    "event_self_service": gettext_noop("Players' own check-in and drops set"),
    "keep_apart_add": gettext_noop("Kept apart"),
    "round_generate": gettext_noop("Round seated"),
    "round_generation_queued": gettext_noop("Seating queued"),
    "round_generation_done": gettext_noop("Seating done"),
    "round_generation_failed": gettext_noop("Seating failed"),
    "round_swap": gettext_noop("Players swapped"),
    "round_publish": gettext_noop("Round published"),
    "round_undo": gettext_noop("Round taken back"),
    "round_generation_running": gettext_noop("Seating under way"),
    "round_generation_restarted": gettext_noop("Seating sent again"),
    "round_clock_start": gettext_noop("Clock started"),
    "round_clock_pause": gettext_noop("Clock paused"),
    "round_clock_resume": gettext_noop("Clock resumed"),
    "round_clock_extend": gettext_noop("Clock extended"),
    "result_correct": gettext_noop("Result corrected"),
    "result_undo": gettext_noop("Last deal undone"),
    "result_remove": gettext_noop("Deal removed"),
    "result_end": gettext_noop("Game ended at the totals"),
    "table_request_answer": gettext_noop("Table's request answered"),
    "bracket_create": gettext_noop("Bracket made"),
    "bracket_game_create": gettext_noop("Bracket match started"),
    "bracket_override": gettext_noop("Bracket result set by the director"),
    "bracket_replay": gettext_noop("Bracket match replayed"),
    "bracket_result": gettext_noop("Bracket result"),
    "bracket_result_corrected": gettext_noop("Bracket result corrected"),
    "bracket_result_refused": gettext_noop("Bracket result refused"),
    "event_schedule": gettext_noop("Date, time and venue set"),
    "signup_settings": gettext_noop("Sign-up settings changed"),
    "registration_create": gettext_noop("Signed up"),
    "registration_approve": gettext_noop("Sign-up approved"),
    "registration_refuse": gettext_noop("Sign-up refused"),
    "registration_edit": gettext_noop("Sign-up edited"),
    "registration_move": gettext_noop("Waiting list reordered"),
    "registration_withdraw": gettext_noop("Sign-up withdrawn"),
    "registration_remove": gettext_noop("Sign-up removed by the desk"),
    "registration_moved_up": gettext_noop("Moved up from the waiting list"),
    "announcement_add": gettext_noop("Announcement made"),
    "announcement_remove": gettext_noop("Announcement removed"),
}


def kind_label(kind: str) -> str:
    """What a change is called on the desk: its label, or (a change without one) its
    name in words ("round_clock_pause" reads "Round clock pause"), never the raw name."""
    label = KIND_LABELS.get(kind)
    return gettext(label) if label else kind.replace("_", " ").strip().capitalize()


TABLE_KIND = "table"  # the kind every table event is filtered by
PAGE_SIZE = 50
# Keys of a log line's before/after that hold entrant ids.
ENTRANT_KEYS = ("id", "ids", "first", "second", "swapped", "away", "still_playing")


@dataclass(frozen=True)
class LogLine:
    at: datetime
    kind: str  # the director's action, or TABLE_KIND
    label: str
    who: str
    what: str
    before: Any
    after: Any
    table_ids: frozenset[int]
    entrant_ids: frozenset[int]


@dataclass(frozen=True)
class LogPage:
    lines: tuple[LogLine, ...]
    page: int
    pages: int
    total: int


def _ids(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _ids(item)


def _entrants_of(*documents: Any) -> frozenset[int]:
    found: set[int] = set()
    for document in documents:
        if isinstance(document, Mapping):
            for key in ENTRANT_KEYS:
                found.update(_ids(document.get(key)))
    return frozenset(found)


def _who(user: ActingUser, seat: int | None = None, device: str = "") -> str:
    if user is not None:
        return str(user.get_username())
    if seat is not None:
        who = gettext("seat {number}").format(number=seat + 1)
        return who + (f" ({device})" if device else "")
    return device or "—"


def _said(document: Any) -> Any:
    """A log line's before or after as its reader reads it: the lines skipped from a player
    list said in the reader's language (kept as their template and values; an entry stored
    before they were kept so shows its English as it was written)."""
    if not isinstance(document, Mapping) or not isinstance(document.get("skipped"), list):
        return document
    return {**document, "skipped": [said(read_stored(note)) for note in document["skipped"]]}


def _director_lines(event: Event, table_of_game: Mapping[int, int]) -> list[LogLine]:
    names = dict(event.entrants.values_list("pk", "name"))
    lines = []
    for row in EventLog.objects.filter(event=event).select_related("user"):
        before, after = row.before, row.after
        entrants = _entrants_of(before, after)
        tables: set[int] = set()
        for document in (before, after):
            if isinstance(document, Mapping):
                tables.update(_ids(document.get("table")))
                tables.update(table_of_game.get(g, 0) for g in _ids(document.get("games")))
        tables.discard(0)
        what = ", ".join(names[e] for e in sorted(entrants) if e in names)
        if isinstance(after, Mapping) and "round" in after:
            what = gettext("round {number}").format(number=after["round"]) + (
                f": {what}" if what else ""
            )
        lines.append(
            LogLine(
                at=row.at,
                kind=row.action,
                label=kind_label(row.action),
                who=(
                    pgettext("a log's actor", "{person} (own link)").format(person=what)
                    if row.user is None
                    and isinstance(after, Mapping)
                    and after.get("by") == "own link"
                    else _who(row.user)
                ),
                what=what,
                before=_said(before),
                after=_said(after),
                table_ids=frozenset(tables),
                entrant_ids=entrants,
            )
        )
    return lines


def _table_lines(event: Event, tables: Mapping[int, tuple[int, int, int]]) -> list[LogLine]:
    """What happened at the tables; ``tables``: game id -> (table pk, round, number)."""
    seated: dict[int, set[int]] = {}
    for table_id, entrant_id in Entrant.objects.filter(
        event=event, table_seats__table__in=[t for t, _, _ in tables.values()]
    ).values_list("table_seats__table", "pk"):
        seated.setdefault(table_id, set()).add(entrant_id)
    lines = []
    for row in (
        RoundEvent.objects.filter(game__in=list(tables))
        .exclude(action=RoundEvent.Action.CREATE)
        .select_related("user")
    ):
        table_id, round_number, number = tables[row.game_id]
        deal = (
            gettext(", deal {number}").format(number=row.round_number) if row.round_number else ""
        )
        lines.append(
            LogLine(
                at=row.at,
                kind=TABLE_KIND,
                label=row.get_action_display(),
                who=pgettext("a log's actor", "{person} (own link)").format(person=row.person)
                if row.person
                else _who(row.user, row.seat, row.device),
                what=gettext("round {round}, table {table}").format(
                    round=round_number, table=number
                )
                + deal,
                before=row.before,
                after=row.after,
                table_ids=frozenset({table_id}),
                entrant_ids=frozenset(seated.get(table_id, ())),
            )
        )
    return lines


def event_tables(
    event: Event, games: Collection[int] | None = None
) -> dict[int, tuple[int, int, int]]:
    """Game id -> (table pk, tournament round, table number) of the event's tables (of
    those playing ``games`` when given)."""
    tables = Table.objects.filter(round__event=event, game__isnull=False)
    if games is not None:
        tables = tables.filter(game_id__in=games)
    return {
        game: (pk, round_number, number)
        for pk, game, round_number, number in tables.values_list(
            "pk", "game_id", "round__number", "number"
        )
    }


def log_page(
    event: Event,
    *,
    kind: str = "",
    table: int | None = None,
    entrant: int | None = None,
    page: int = 1,
) -> LogPage:
    """One page of the event's log, newest first, filtered by kind, table pk, entrant id."""
    tables = event_tables(event)
    lines: list[LogLine] = []
    if kind != TABLE_KIND:
        lines += _director_lines(event, {g: t for g, (t, _, _) in tables.items()})
    if not kind or kind == TABLE_KIND:
        wanted = {g: t for g, t in tables.items() if t[0] == table} if table is not None else tables
        lines += _table_lines(event, wanted)
    if kind and kind != TABLE_KIND:
        lines = [line for line in lines if line.kind == kind]
    if table is not None:
        lines = [line for line in lines if table in line.table_ids]
    if entrant is not None:
        lines = [line for line in lines if entrant in line.entrant_ids]
    lines.sort(key=lambda line: line.at, reverse=True)
    pages = max(1, -(-len(lines) // PAGE_SIZE))
    page = min(max(1, page), pages)
    shown = lines[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    return LogPage(lines=tuple(shown), page=page, pages=pages, total=len(lines))


@dataclass(frozen=True)
class Waiting:
    """A change asked for at a table, waiting for an answer."""

    round_number: int
    table_number: int
    table_id: int
    label: str
    asked_at: datetime
    to_desk: bool  # waiting for a director (answered on the desk), not for another phone


def waiting_requests(event: Event) -> list[Waiting]:
    """Changes asked for at the event's tables and not yet answered, oldest first."""
    asked = list(
        ChangeRequest.objects.filter(
            game__event_table__round__event=event, status=ChangeRequest.Status.OPEN
        ).order_by("-to_desk", "created_at")
    )
    tables = event_tables(event, games={r.game_id for r in asked})
    return [
        Waiting(
            round_number=tables[r.game_id][1],
            table_number=tables[r.game_id][2],
            table_id=tables[r.game_id][0],
            label=r.get_kind_display(),
            asked_at=r.created_at,
            to_desk=r.to_desk,
        )
        for r in asked
    ]


def kinds(event: Event) -> list[tuple[str, str]]:
    """The kinds the event's log holds, for the filter: (value, label)."""
    present = set(EventLog.objects.filter(event=event).values_list("action", flat=True))
    named = sorted(((k, kind_label(k)) for k in present), key=lambda pair: pair[1])
    return [(TABLE_KIND, gettext("At the tables")), *named]


__all__ = [
    "KIND_LABELS",
    "PAGE_SIZE",
    "TABLE_KIND",
    "LogLine",
    "LogPage",
    "Waiting",
    "event_tables",
    "kind_label",
    "kinds",
    "log_page",
    "waiting_requests",
]
