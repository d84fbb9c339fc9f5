"""The players' pages: no login, the event's public token, polling on the revision."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.helpers import play_table
from tests.tournaments.web.conftest import NAMES, publish_next
from tournaments import hooks
from tournaments.events import selectors, services
from tournaments.models import Event, TableSeat

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def public_urls(event: Event) -> list[str]:
    ann = event.entrants.get(name="Ann")
    token = event.public_token
    return [
        url("draw", token),
        url("standings", token),
        url("entrant", token, ann.pk),
        url("projector", token),
    ]


def test_every_players_page_opens_without_a_login(client, event, director):
    publish_next(event, director)
    for address in public_urls(event):
        response = client.get(address)
        assert response.status_code == 200, address
        assert 'hx-trigger="every 2s' in response.content.decode(), address


def test_players_pages_open_before_the_draw_is_out(client, event):
    for address in public_urls(event):
        assert client.get(address).status_code == 200, address
    assert "The draw is not out yet" in client.get(url("draw", event.public_token)).content.decode()


def test_a_wrong_token_is_not_found(client, event):
    for address in public_urls(event):
        wrong = address.replace(event.public_token, "nope" + event.public_token[4:])
        assert client.get(wrong).status_code == 404, wrong
    assert client.get(url("seat_search", "nope")).status_code == 404


def test_a_player_of_another_event_is_not_found(client, event, director):
    other = services.event_create(owner=director, name="Other", game="roolz")
    stranger = services.entrant_add(event=other, name="Stranger")
    assert client.get(url("entrant", event.public_token, stranger.pk)).status_code == 404


def test_the_draw_shows_every_table_and_seat(client, event, director):
    round_ = publish_next(event, director)
    page = client.get(url("draw", event.public_token)).content.decode()
    assert "Round 1" in page
    for seat in TableSeat.objects.filter(table__round=round_).select_related("entrant", "table"):
        assert seat.entrant.name in page
        assert f'id="draw-table-{seat.table.number}"' in page


def test_a_draft_is_not_shown_to_players(client, event):
    services.tournament_round_generate(event=event)
    page = client.get(url("draw", event.public_token)).content.decode()
    assert "The draw is not out yet" in page
    assert "Ann" not in page


@pytest.mark.parametrize("query", ["lea", "LÉA", "  Lé", "éa"])
def test_where_do_i_sit_ignores_case_and_accents(client, event, director, query):
    publish_next(event, director)
    seat = TableSeat.objects.select_related("table").get(entrant__name="Léa")
    response = client.get(url("seat_search", event.public_token), {"q": query}, **HX)
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="found"')
    assert "Léa" in page
    assert f"Table <strong>{seat.table.number}</strong>" in page
    assert f"seat <strong>{seat.seat + 1}</strong>" in page


def test_where_do_i_sit_without_scripts(client, event, director):
    publish_next(event, director)
    page = client.get(url("seat_search", event.public_token), {"q": "ann"}).content.decode()
    assert "<html" in page
    assert 'class="found-seat"' in page


def test_a_name_not_in_the_draw_says_so(client, event, director):
    publish_next(event, director)
    page = client.get(url("seat_search", event.public_token), {"q": "zed"}, **HX).content.decode()
    assert "Nobody called “zed” is seated" in page


def test_a_very_long_query_is_cut_short(client, event, director):
    publish_next(event, director)
    response = client.get(url("seat_search", event.public_token), {"q": "a" * 5000}, **HX)
    assert response.status_code == 200


def shown_rev(client, address: str) -> str:
    """The revision a page polls with, as its live part's address holds it."""
    found = re.search(
        r'id="live" hx-get="[^"]*\?rev=([^&"]+)', client.get(address).content.decode()
    )
    assert found, address
    return found.group(1)


def test_polls_answer_204_until_the_revision_changes(client, event, director):
    round_ = publish_next(event, director)
    shown = {address: shown_rev(client, address) for address in public_urls(event)}
    for address, rev in shown.items():
        assert client.get(address, {"rev": rev}, **HX).status_code == 204, address
    play_table(round_.tables.select_related("game").first())
    hooks.table_game_changed(game_id=round_.tables.first().game_id)
    for address, rev in shown.items():
        response = client.get(address, {"rev": rev}, **HX)
        assert response.status_code == 200, address
        assert response.content.decode().lstrip().startswith('<section id="live"'), address


def test_standings_show_the_confirmed_results(client, event, director):
    round_ = publish_next(event, director)
    for table in round_.tables.select_related("game"):
        play_table(table)
    page = client.get(url("standings", event.public_token)).content.decode()
    view = selectors.standings_for(event=event)
    assert "Placement points" in page
    first = view.rows[0]
    assert f'id="standing-{first.entrant_id}"' in page
    assert page.index(f"standing-{view.rows[0].entrant_id}") < page.index(
        f"standing-{view.rows[-1].entrant_id}"
    )
    for name in NAMES:
        assert name in page


def test_a_players_own_page(client, event, director):
    round_ = publish_next(event, director)
    ann = event.entrants.get(name="Ann")
    seat = TableSeat.objects.select_related("table__game").get(entrant=ann, table__round=round_)
    page = client.get(url("entrant", event.public_token, ann.pk)).content.decode()
    assert f"Table <strong>{seat.table.number}</strong>" in page
    assert url("draw", event.public_token) in page
    # The table's view link, never its entry link (which only the table card holds).
    assert reverse("scoring:table_view", args=[seat.table.game.view_token]) in page
    assert seat.table.game.table_token not in page
    play_table(seat.table)
    page = client.get(url("entrant", event.public_token, ann.pk)).content.decode()
    assert "Done" in page
    assert "finished <strong>" in page
    assert "Round 1: now" not in page


def test_the_projector_holds_draw_and_standings(client, event, director):
    publish_next(event, director)
    page = client.get(url("projector", event.public_token)).content.decode()
    assert 'data-panel="draw"' in page
    assert 'data-panel="standings"' in page
    assert "js/tournaments.js" in page
    assert f"/e/{event.public_token}/" in page
