"""A 10,000-player event: the desk's pages, publishing a round in the background task and
the players' pages, each beside a plain read of the same rows.

Figures printed (on a throwaway database of their own):
- publishing round 1 (2,500 tables of 4) with the real publishing task, run in this
  process as a worker runs it: the whole time and the time per table, beside a plain
  read of the draft's tables and seats;
- the desk page, the desk's round pages (round 1 published, round 2 a draft; first page,
  a later page and a search), the players' pages (draw, standings, "where do I sit", a
  player's own page) and the projector (its page and each of its slices): time and
  size of one request through Django's test client, beside a plain read of the rows the
  page is made from, with this process's CPU for the request (what the load of other
  processes does not inflate) and its database queries; each page must answer in under
  1 s and weigh under 300 KB.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.figures import Row

PLAYERS = 10_000
TABLE_SIZE = 4
TURNS = 3
FASTEST = 1.0  # seconds a page may take
LIGHTEST = 300 * 1024  # bytes a page may weigh


def _best(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def side_by_side(page: Callable[[], object], read: Callable[[], object]) -> tuple[float, float]:
    """The best of a few turns of each, taken in turns so both meet the same load."""
    page_best = read_best = float("inf")
    for _ in range(TURNS):
        read_best = min(read_best, _best(read))
        page_best = min(page_best, _best(page))
    return page_best, read_best


def big_draft(owner: Any) -> tuple[Any, Any]:
    """10,000 entrants, checked in, and a draft round 1 of 2,500 tables, built in bulk."""
    from tournaments.models import Entrant, Event, Table, TableSeat, TournamentRound

    event = Event.objects.create(
        owner=owner, name="Big day", game="roolz", rounds_planned=3, table_size=TABLE_SIZE
    )
    entrants = Entrant.objects.bulk_create(
        Entrant(event=event, name=f"Player {i:05d}", checked_in=True) for i in range(PLAYERS)
    )
    draft = TournamentRound.objects.create(
        event=event, number=1, status=TournamentRound.Status.DRAFT
    )
    tables = Table.objects.bulk_create(
        Table(round=draft, number=t + 1) for t in range(PLAYERS // TABLE_SIZE)
    )
    stride = 7_919  # coprime with 10,000: neighbours by name sit apart
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=s, entrant=entrants[(t * TABLE_SIZE + s) * stride % PLAYERS])
        for t, table in enumerate(tables)
        for s in range(TABLE_SIZE)
    )
    return event, draft


def big_draft_round(event: Any, *, number: int) -> Any:
    """A draft round ``number`` of 2,500 tables, built in bulk (seated by another stride)."""
    from tournaments.models import Table, TableSeat, TournamentRound

    entrants = list(event.entrants.order_by("pk"))
    draft = TournamentRound.objects.create(
        event=event, number=number, status=TournamentRound.Status.DRAFT
    )
    tables = Table.objects.bulk_create(
        Table(round=draft, number=t + 1) for t in range(PLAYERS // TABLE_SIZE)
    )
    stride = 3_001  # coprime with 10,000
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=s, entrant=entrants[(t * TABLE_SIZE + s) * stride % PLAYERS])
        for t, table in enumerate(tables)
        for s in range(TABLE_SIZE)
    )
    return draft


def new_revision(event: Any) -> None:
    """The event's next revision, as a result coming in makes it."""
    from django.db.models import F

    from tournaments.models import Event

    Event.objects.filter(pk=event.pk).update(revision=F("revision") + 1)


def read_rows(event: Any) -> None:
    """The rows every page here is made from, read plainly: players, tables, seats."""
    from tournaments.models import Table, TableSeat

    list(event.entrants.values_list("pk", "name", "checked_in", "dropped"))
    list(Table.objects.filter(round__event=event).values_list("pk", "number", "game_id"))
    list(
        TableSeat.objects.filter(table__round__event=event).values_list(
            "table_id", "seat", "entrant_id", "entrant__name"
        )
    )


def publish_row(event: Any, draft: Any) -> Row:
    from tournaments.tasks import tournament_round_publish_task

    tables = PLAYERS // TABLE_SIZE
    read = min(_best(lambda: read_rows(event)) for _ in range(TURNS))
    started = time.perf_counter()
    answer = tournament_round_publish_task(event.pk, draft.pk)
    took = time.perf_counter() - started
    draft.refresh_from_db()
    assert answer == "done" and draft.status == "published", answer
    return Row(
        "big event",
        f"{PLAYERS} players: round 1 published by the background task ({tables} tables)",
        f"{took:.1f} s ({took / tables * 1000:.1f} ms a table)",
        f"a plain read of the draft's rows: {read * 1000:.0f} ms",
        "off the request",
        None,
        f"{took / read:.0f}x the read",
    )


def page_row(
    client: Client,
    event: Any,
    label: str,
    address: str,
    data: dict[str, str] | None = None,
    before: Callable[[], object] | None = None,
) -> Row:
    """One page's figures; ``before`` runs ahead of each request, outside the figures."""
    sizes: list[int] = []
    cpu: list[float] = []  # this process's CPU a request, load on the machine aside
    queries: list[int] = []

    def page() -> None:
        if before is not None:
            before()
        started = time.process_time()
        with CaptureQueriesContext(connection) as asked:
            response = client.get(address, data or {})
        cpu.append(time.process_time() - started)
        queries.append(len(asked))
        assert response.status_code == 200, (address, response.status_code)
        sizes.append(len(response.content))

    took, read = side_by_side(page, lambda: read_rows(event))
    size = sizes[-1]
    return Row(
        "big event",
        f"{PLAYERS} players: {label}",
        f"{took * 1000:.0f} ms, {size / 1024:.0f} KB",
        f"a plain read of the same rows: {read * 1000:.0f} ms; this process's CPU "
        f"{min(cpu) * 1000:.0f} ms, {max(queries)} queries",
        "under 1 s and 300 KB",
        took < FASTEST and size < LIGHTEST,
        f"{took / read:.1f}x the read",
    )


def run() -> list[Row]:
    # The test client's host; static files as the suite serves them (none collected here).
    with override_settings(
        ALLOWED_HOSTS=["testserver"],
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        return _run()


def _run() -> list[Row]:
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        owner = get_user_model().objects.create_user("bench-director", is_staff=True)
        event, draft = big_draft(owner)
        rows = [publish_row(event, draft)]
        desk = Client()
        desk.force_login(owner)
        token = event.public_token
        big_draft_round(event, number=2)
        published = reverse("tournaments:desk_round", args=[event.pk, 1])
        drafted = reverse("tournaments:desk_round", args=[event.pk, 2])
        desk_pages = [
            ("the desk page", reverse("tournaments:desk_event", args=[event.pk]), None),
            ("the desk's round page (published), page 1", published, None),
            ("the desk's round page (published), page 20", published, {"page": "20"}),
            ("the desk's round page (published), a name", published, {"q": "Player 09999"}),
            ("the desk's round page (draft), page 1", drafted, None),
            ("the desk's round page (draft), two tables", drafted, {"q": "17, 2345"}),
        ]
        for label, address, data in desk_pages:
            try:
                rows.append(page_row(desk, event, label, address, data))
            except AssertionError as error:
                rows.append(Row("big event", f"{PLAYERS} players: {label}", f"FAILED {error}"))
        players = Client()
        someone = event.entrants.order_by("pk").values_list("pk", flat=True)[PLAYERS // 2]
        projector = reverse("tournaments:projector", args=[token])
        pages = [
            ("the draw, page 1", reverse("tournaments:draw", args=[token]), None),
            ("the draw, last page", reverse("tournaments:draw", args=[token]), {"page": "50"}),
            ("the standings, page 1", reverse("tournaments:standings", args=[token]), None),
            (
                "where do I sit (a name typed)",
                reverse("tournaments:seat_search", args=[token]),
                {"q": "Player 09999"},
            ),
            (
                "a player's own page (the ranks kept by the standings)",
                reverse("tournaments:entrant", args=[token, someone]),
                None,
            ),
            ("the projector", projector, None),
            ("the projector, a slice of the draw", projector, {"part": "draw", "page": "25"}),
            (
                "the projector, a slice of the standings",
                projector,
                {"part": "standings", "page": "50"},
            ),
        ]
        for label, address, data in pages:
            try:
                rows.append(page_row(players, event, label, address, data))
            except AssertionError as error:  # one page's failure keeps the others' figures
                rows.append(Row("big event", f"{PLAYERS} players: {label}", f"FAILED {error}"))
        rows.append(
            page_row(
                players,
                event,
                "a player's own page (a new revision: no ranks kept)",
                reverse("tournaments:entrant", args=[token, someone]),
                before=lambda: new_revision(event),
            )
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return rows
