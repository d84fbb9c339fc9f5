"""A large event's players' pages stay light: the draw and the standings a page at a
time, with search that finds anyone on any page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.models import TableSeat
from tournaments.web.public.views import SEATS_FOUND, STANDINGS_PAGE, TABLES_PAGE

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
BIG = 2_000
LIGHTEST = 300 * 1024  # what a players' page of any event may weigh
TABLES = BIG // 4


@pytest.fixture
def big(director):
    event = services.event_create(
        owner=director, name="Big night", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:05d}" for n in range(BIG)), user=director
    )
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    return event


def tables_on(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="draw-table-(\d+)"', page)]


def test_the_draw_shows_a_page_of_tables_and_pages_through_all(client, big):
    address = reverse("tournaments:draw", args=[big.public_token])
    response = client.get(address)
    assert len(response.content) < LIGHTEST
    first = response.content.decode()
    assert tables_on(first) == list(range(1, TABLES_PAGE + 1))
    pages = TABLES // TABLES_PAGE
    assert f"Tables 1\N{EN DASH}{TABLES_PAGE} of {TABLES}, page 1 of {pages}" in first
    seen = []
    for number in range(1, pages + 1):
        page = client.get(address, {"page": str(number)})
        assert len(page.content) < LIGHTEST
        seen += tables_on(page.content.decode())
    assert seen == list(range(1, TABLES + 1))  # every table once, in order
    # A page past the end, or no number at all, is an ordinary page, never an error.
    assert tables_on(client.get(address, {"page": "999"}).content.decode())[-1] == TABLES
    assert tables_on(client.get(address, {"page": "x"}).content.decode())[0] == 1


def test_the_draw_polls_the_page_it_shows(client, big):
    address = reverse("tournaments:draw", args=[big.public_token])
    page = client.get(address, {"page": "3"}).content.decode()
    assert "&amp;page=3" in page
    services.event_away_scoring_set(event=big, away_scoring="bye", user=None)  # a new revision
    live = client.get(address, {"rev": "0", "page": "3"}, **HX).content.decode()
    assert tables_on(live)[0] == 2 * TABLES_PAGE + 1


def test_where_do_i_sit_finds_a_player_on_any_page(client, big):
    last = big.entrants.get(name=f"Player {BIG - 1:05d}")
    seat = TableSeat.objects.select_related("table").get(entrant=last)
    found = client.get(
        reverse("tournaments:seat_search", args=[big.public_token]),
        {"q": f"player {BIG - 1:05d}"},
        **HX,
    ).content.decode()
    assert f"Player {BIG - 1:05d}" in found
    assert (
        f"Table <strong>{seat.table.number}</strong> · seat <strong>{seat.seat + 1}</strong>"
        in found
    )


def test_where_do_i_sit_lists_the_first_players_by_name_and_asks_for_more(client, big):
    address = reverse("tournaments:seat_search", args=[big.public_token])
    broad = client.get(address, {"q": "PLAYER 00"}, **HX).content.decode()  # 100 match
    names = re.findall(r'class="found-name">(Player \d+)<', broad)
    assert names == [f"Player {n:05d}" for n in range(SEATS_FOUND)]
    assert "More players match" in broad
    narrow = client.get(address, {"q": "player 0001"}, **HX).content.decode()  # 10 match
    assert len(re.findall(r'class="found-name"', narrow)) == 10
    assert "More players match" not in narrow


def rows_on(page: str) -> list[str]:
    return re.findall(r'id="standing-(\d+)"', page)


def test_the_standings_show_a_page_of_players_with_search(client, big):
    address = reverse("tournaments:standings", args=[big.public_token])
    response = client.get(address)
    assert len(response.content) < LIGHTEST
    first = response.content.decode()
    assert len(rows_on(first)) == STANDINGS_PAGE
    pages = BIG // STANDINGS_PAGE
    assert f"Players 1\N{EN DASH}{STANDINGS_PAGE} of {BIG}, page 1 of {pages}" in first
    seen: list[str] = []
    for number in range(1, pages + 1):
        seen += rows_on(client.get(address, {"page": str(number)}).content.decode())
    assert sorted(seen) == sorted(str(pk) for pk in big.entrants.values_list("pk", flat=True))

    found = client.get(address, {"q": "PLAYER 01234"}).content.decode()
    wanted = big.entrants.get(name="Player 01234")
    assert rows_on(found) == [str(wanted.pk)]
    assert "1 player matches" in found
    nobody = client.get(address, {"q": "Nobody here"}).content.decode()
    assert rows_on(nobody) == [] and "Nobody called" in nobody
    # The live part polls the same page of the same search.
    assert "&amp;q=PLAYER%2001234" in found
