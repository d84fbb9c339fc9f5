"""The projector holds a slice of the draw and of the standings at a time and names the
next one; a player's rank is read from the ranks the standings kept at this revision."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import selectors, services
from tournaments.models import Event
from tournaments.web.public import views

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
TABLES = 3  # a slice of the draw, in these tests
ROWS = 5  # a slice of the standings, in these tests


@pytest.fixture
def event(director) -> Event:
    event = services.event_create(
        owner=director, name="Wall", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 29)), user=director
    )
    services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event), user=director
    )
    event.refresh_from_db()
    return event


@pytest.fixture
def small_slices(monkeypatch):
    monkeypatch.setattr(views, "PROJECTOR_TABLES", TABLES)
    monkeypatch.setattr(views, "PROJECTOR_ROWS", ROWS)


def projector(event: Event) -> str:
    return reverse("tournaments:projector", args=[event.public_token])


def tables_on(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="draw-table-(\d+)"', page)]


def rows_on(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr id="standing-(\d+)"', page)]


def next_of(page: str, panel: str) -> str | None:
    found = re.search(rf'data-panel="{panel}"[^>]*?data-next="([^"]+)"', page, re.S)
    return found.group(1).replace("&amp;", "&") if found else None


def test_a_small_event_fits_one_slice_with_no_next(client, event):
    page = client.get(projector(event)).content.decode()
    assert tables_on(page) == list(range(1, 8))
    assert len(rows_on(page)) == 28
    assert next_of(page, "draw") is None and next_of(page, "standings") is None
    assert "data-slice=" not in page


def test_the_slices_named_one_after_another_show_every_table_and_row(client, event, small_slices):
    page = client.get(projector(event)).content.decode()
    assert tables_on(page) == [1, 2, 3] and len(rows_on(page)) == ROWS
    assert 'data-slice="tables 1\N{EN DASH}3 of 7"' in page
    tables, rows = tables_on(page), rows_on(page)
    address = next_of(page, "draw")
    while address:
        part = client.get(address).content.decode()
        assert part.lstrip().startswith('<div class="panel panel-draw"')
        assert len(part.encode()) < len(page.encode())
        tables += tables_on(part)
        address = next_of(part, "draw")
    address = next_of(page, "standings")
    while address:
        part = client.get(address).content.decode()
        rows += rows_on(part)
        address = next_of(part, "standings")
    assert tables == list(range(1, 8))
    standings = selectors.standings_for(event=event)
    assert rows == [row.entrant_id for row in standings.rows]
    # The last slice leads back to the first for the panel's next turn.
    last = client.get(projector(event), {"part": "draw", "page": "3"}).content.decode()
    assert 'data-first="' in last and next_of(last, "draw") is None


def test_the_poll_brings_the_slices_shown(client, event, small_slices, director):
    table = event.rounds.get().tables.select_related("game").get(number=5)
    play_table(table)
    event.refresh_from_db()
    poll = client.get(
        projector(event),
        {"rev": "0", "draw_page": "2", "standings_page": "3"},
        **HX,
    ).content.decode()
    assert tables_on(poll) == [4, 5, 6]
    standings = selectors.standings_for(event=event)
    assert rows_on(poll) == [row.entrant_id for row in standings.rows[10:15]]
    shown = re.search(r'id="live" hx-get="[^"]*\?rev=([^&"]+)', poll)
    assert shown is not None
    assert client.get(projector(event), {"rev": shown.group(1)}, **HX).status_code == 204


def test_a_players_rank_follows_the_standings_of_each_revision(client, event, director):
    before = {row.entrant_id: row.rank for row in selectors.standings_for(event=event).rows}
    play_table(event.rounds.get().tables.select_related("game").get(number=1))
    event.refresh_from_db()
    after = selectors.standings_for(event=event)
    ranks = {row.entrant_id: row.rank for row in after.rows}
    assert ranks != before  # the ranks kept before the table was played are out of date
    for entrant_id, rank in ranks.items():
        assert selectors.rank_of(event=event, entrant_id=entrant_id) == rank
    # Read from what the standings kept: no query.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as asked:
        selectors.rank_of(event=event, entrant_id=after.rows[-1].entrant_id)
    assert len(asked) == 0
    winner = after.rows[0]
    page = client.get(
        reverse("tournaments:entrant", args=[event.public_token, winner.entrant_id])
    ).content.decode()
    assert f"Ranked <strong data-rank>{winner.rank}</strong>" in page


def test_a_rank_is_computed_when_no_standings_were_kept(client, event, director):
    play_table(event.rounds.get().tables.select_related("game").get(number=2))
    event.refresh_from_db()
    event.revision += 1000  # a revision no standings were computed at
    ranks = {row.entrant_id: row.rank for row in selectors.standings_for(event=event).rows}
    event.revision += 1
    for entrant_id, rank in ranks.items():
        assert selectors.rank_of(event=event, entrant_id=entrant_id) == rank
