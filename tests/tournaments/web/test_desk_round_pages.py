"""The desk's round page a page of tables at a time, with a search by table numbers and
names; every action it offers still reaches any table of the round."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import selectors, services
from tournaments.models import TableSeat, TournamentRound
from tournaments.web.desk import views

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
PLAYERS = 28  # seven tables of four
PAGE = 3  # tables a page, in these tests


@pytest.fixture
def seven_tables(director):
    event = services.event_create(
        owner=director, name="Seven tables", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, PLAYERS + 1)), user=director
    )
    return event


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(views, "ROUND_TABLES_PAGE", PAGE)


def address(event, number=1):
    return reverse("tournaments:desk_round", args=[event.pk, number])


def tables_on(page: str) -> list[int]:
    """The tables the draw of a round's page shows, in order."""
    return [int(n) for n in re.findall(r'id="draw-table-(\d+)"', page)]


def live_tables_on(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr class="state-\w+" id="table-(\d+)"', page)]


def seat_of(event, name: str, number: int = 1) -> TableSeat:
    return TableSeat.objects.select_related("table", "entrant").get(
        table__round__event=event, table__round__number=number, entrant__name=name
    )


def test_a_small_round_shows_every_table_without_pager_or_search(desk, seven_tables, director):
    services.tournament_round_generate(event=seven_tables, user=director)
    page = desk.get(address(seven_tables)).content.decode()
    assert tables_on(page) == list(range(1, 8))
    assert 'id="table-search"' not in page
    assert "Pages of tables" not in page
    assert len(re.findall(r"<option value=\"\d+\">", page)) == 2 * PLAYERS


def test_the_published_round_pages_its_tables(desk, seven_tables, director, small_pages):
    services.tournament_round_publish(
        event=seven_tables,
        round=services.tournament_round_generate(event=seven_tables),
        user=director,
    )
    first = desk.get(address(seven_tables)).content.decode()
    assert tables_on(first) == [1, 2, 3] and live_tables_on(first) == [1, 2, 3]
    assert 'id="table-search"' in first
    assert "Tables 1\N{EN DASH}3 of 7, page 1 of 3." in first
    last = desk.get(address(seven_tables), {"page": "3"}).content.decode()
    assert tables_on(last) == [7] and live_tables_on(last) == [7]
    # A page past the end is the last; a page that is not a number is the first.
    assert tables_on(desk.get(address(seven_tables), {"page": "99"}).content.decode()) == [7]
    assert tables_on(desk.get(address(seven_tables), {"page": "two"}).content.decode()) == [
        1,
        2,
        3,
    ]


def test_the_search_finds_tables_by_number_and_name(desk, seven_tables, director, small_pages):
    services.tournament_round_publish(
        event=seven_tables,
        round=services.tournament_round_generate(event=seven_tables),
        user=director,
    )
    page = desk.get(address(seven_tables), {"q": "7, 5"}).content.decode()
    assert tables_on(page) == [5, 7]
    assert "2 tables found" in page
    seat = seat_of(seven_tables, "Player 17")
    page = desk.get(address(seven_tables), {"q": "player 17"}).content.decode()
    assert tables_on(page) == [seat.table.number]
    page = desk.get(address(seven_tables), {"q": "Nobody here"}).content.decode()
    assert tables_on(page) == [] and "No table of this round matches" in page
    # The live part's poll keeps the search.
    live = desk.get(
        address(seven_tables), {"part": "live", "rev": "old", "q": "7, 5"}, **HX
    ).content.decode()
    assert live_tables_on(live) == [5, 7]
    assert "q=7%2C%205" in live


def test_a_table_on_a_later_page_has_its_results_link(desk, seven_tables, director, small_pages):
    round_ = services.tournament_round_publish(
        event=seven_tables,
        round=services.tournament_round_generate(event=seven_tables),
        user=director,
    )
    table = round_.tables.get(number=7)
    page = desk.get(address(seven_tables), {"page": "3"}).content.decode()
    results = reverse("tournaments:desk_table", args=[seven_tables.pk, table.pk])
    assert f'href="{results}"' in page
    assert desk.get(results).status_code == 200


def test_undo_is_refused_on_every_page_once_any_table_has_a_deal(
    desk, seven_tables, director, small_pages
):
    round_ = services.tournament_round_publish(
        event=seven_tables,
        round=services.tournament_round_generate(event=seven_tables),
        user=director,
    )
    assert "Undo round 1" in desk.get(address(seven_tables)).content.decode()
    play_table(round_.tables.select_related("game").get(number=7))
    assert "Undo round 1" not in desk.get(address(seven_tables)).content.decode()


def test_two_players_on_different_pages_swap_through_a_search(
    desk, seven_tables, director, small_pages
):
    services.tournament_round_generate(event=seven_tables, user=director)
    by_table = {
        s.table.number: s
        for s in TableSeat.objects.filter(table__round__event=seven_tables, seat=0).select_related(
            "table", "entrant"
        )
    }
    first, second = by_table[1], by_table[7]
    page = desk.get(address(seven_tables)).content.decode()
    assert f'<option value="{second.entrant_id}">' not in page  # table 7 is on page 3
    page = desk.get(address(seven_tables), {"q": "1, 7"}).content.decode()
    assert f'<option value="{first.entrant_id}">' in page
    assert f'<option value="{second.entrant_id}">' in page
    answer = desk.post(
        reverse("tournaments:round_swap", args=[seven_tables.pk, 1]),
        {"first": first.entrant_id, "second": second.entrant_id, "q": "1, 7", "page": "1"},
        **HX,
    ).content.decode()
    assert "swapped places" in answer
    assert tables_on(answer) == [1, 7]  # the same search answers
    assert seat_of(seven_tables, first.entrant.name).table.number == 7
    assert seat_of(seven_tables, second.entrant.name).table.number == 1


def test_a_draft_waiting_for_many_tables_names_the_first_twenty(desk, director):
    event = services.event_create(
        owner=director, name="Ninety-six", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:03d}" for n in range(96)), user=director
    )
    round_ = services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event), user=director
    )
    play_table(round_.tables.select_related("game").get(number=1))  # 23 tables still play
    services.tournament_round_generate(event=event, user=director, go_on=True)
    page = desk.get(address(event, 2)).content.decode()
    assert page.count('<ul class="still-playing"><li>') == 1
    assert len(re.findall(r"<li>Round 1, table \d+:", page)) == 20
    assert "And 3 more tables." in page


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    asked=st.lists(st.integers(min_value=0, max_value=12), max_size=5),
    names=st.lists(st.integers(min_value=1, max_value=PLAYERS), max_size=3),
)
def test_the_search_finds_exactly_the_tables_named(seven_tables_drafted, asked, names):
    """Whatever numbers and names are asked, the tables found are those of these numbers
    and the tables where these players sit, in order, each once."""
    round_ = seven_tables_drafted
    query = ", ".join([str(n) for n in asked] + [f"player {n:02d}" for n in names])
    sitting = {
        name: table
        for name, table in TableSeat.objects.filter(table__round=round_).values_list(
            "entrant__name", "table__number"
        )
    }
    expected = {n for n in asked if 1 <= n <= 7} | {sitting[f"Player {n:02d}"] for n in names}
    found = selectors.table_numbers_found(round=round_, query=query)
    if not asked and not names:
        expected = set(range(1, 8))  # no search: every table
    assert found == sorted(expected)


@pytest.fixture
def seven_tables_drafted(seven_tables, director) -> TournamentRound:
    return services.tournament_round_generate(event=seven_tables, user=director)
