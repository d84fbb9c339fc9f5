"""A player list is read whole: a header row is no player, and no line is skipped silently."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tournaments.events import services
from tournaments.events.player_list import read_player_list

HX = {"HTTP_HX_REQUEST": "true"}


def test_a_header_row_is_recognised_and_not_registered():
    listed = read_player_list("Name,Member 1,Member 2\nThe Aces,Ann,Ben\nCat\n")
    assert [p.name for p in listed.players] == ["The Aces", "Cat"]
    assert listed.skipped == ("line 1 names the columns (Name, Member 1, Member 2)",)


def test_a_player_called_like_a_column_later_in_the_list_is_a_player():
    listed = read_player_list("Ann\nname\n")
    assert [p.name for p in listed.players] == ["Ann", "name"]


def test_numbered_players_are_players():
    listed = read_player_list("Player 01\nPlayer 02\n")
    assert [p.name for p in listed.players] == ["Player 01", "Player 02"]
    assert listed.skipped == ()


def test_every_blank_or_empty_name_line_is_reported_by_number():
    listed = read_player_list("Ann\n\n ,  \n,Uma,Vic\nBen\n\n")
    assert [p.name for p in listed.players] == ["Ann", "Ben"]
    assert listed.skipped == ("line 2 is blank", "line 3 is blank", "line 6 is blank")
    assert listed.mistakes == ((4, "the name is empty"),)


@given(
    st.lists(
        st.one_of(
            st.just(""),
            st.just("# note"),
            st.text(alphabet="abcdefgh ", min_size=1, max_size=8).map(str.strip),
        ),
        max_size=20,
    )
)
def test_every_line_is_accounted_for(lines):
    """Property: each line is a player, a skipped line or a mistake, exactly once."""
    listed = read_player_list("".join(line + "\n" for line in lines))
    numbers = [p.line for p in listed.players]
    numbers += [int(note.split()[1]) for note in listed.skipped]
    numbers += [n for n, _ in listed.mistakes]
    assert sorted(numbers) == list(range(1, len(lines) + 1))


@pytest.mark.django_db
def test_the_desk_previews_then_registers_and_names_mistakes(client):
    director = get_user_model().objects.create_user("d", password="pw", is_staff=True)
    client.force_login(director)
    event = services.event_create(owner=director, name="Cup", game="roolz")
    address = reverse("tournaments:entrants_csv", args=[event.pk])
    page = client.post(address, {"text": "name\nAnn\n\n,Uma\n"}, **HX).content.decode()
    assert "Nobody was registered" in page
    assert "Line 4: the name is empty" in page
    assert event.entrants.count() == 0
    page = client.post(address, {"text": "player\nAnn\n\nBen\n"}, **HX).content.decode()
    assert "2 players to register" in page
    assert "line 1 names the columns (player); line 3 is blank" in page
    assert event.entrants.count() == 0
    page = client.post(address, {"text": "player\nAnn\n\nBen\n", "register": "1"}, **HX)
    assert sorted(event.entrants.values_list("name", flat=True)) == ["Ann", "Ben"]
