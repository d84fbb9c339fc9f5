"""The bracket on the wall: slides that each fit a projector's screen, the matches being
played first ("now playing"), every match on a slide of the whole bracket, the places
beside it or on slides of their own; the page public and live (204 while unchanged)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.brackets.test_flow import TEAMS, current_rows, play_derby
from tournaments.brackets import selectors as brackets_read
from tournaments.brackets import services as brackets
from tournaments.brackets.core import (
    EliminationBracket,
    Format,
    Status,
    TableBracket,
    TableRules,
    bracket_layout,
)
from tournaments.brackets.core.layout import LayoutColumn, LayoutSection
from tournaments.brackets.selectors import (
    WALL_COLUMN_HEIGHT,
    WALL_COLUMNS,
    WALL_PLACES_BESIDE,
    BracketPage,
    PagePlace,
    _page_match,
    bracket_wall,
    wall_match_height,
)
from tournaments.events import services


def page_of(bracket: EliminationBracket | TableBracket) -> BracketPage:
    """The core's bracket as a page, without names or games (entrants are their seeds)."""
    state = bracket.state()
    layout = bracket_layout(state, bracket.seeds)
    two_team = isinstance(bracket, EliminationBracket)
    sections = tuple(
        LayoutSection(
            s.key,
            s.title,
            tuple(
                LayoutColumn(
                    c.round,
                    c.title,
                    tuple(_page_match(m, {}, {}, {}, two_team, state) for m in c.matches),
                )
                for c in s.columns
            ),
        )
        for s in layout.sections
    )
    return BracketPage(
        event_name="Cup",
        kind="tables" if not two_team else str(bracket.format),
        kind_title="",
        draw_rule="",
        sections=sections,
        placements=(),
        complete=layout.complete,
        champion="",
        cut="",
        revision=0,
        widest_column=layout.widest_column,
        rounds=0,
    )


def assert_fits_and_covers(page: BracketPage) -> None:
    wall = bracket_wall(page)
    every = [m.id for s in page.sections for c in s.columns for m in c.matches]
    on_slides = [
        m.id for slide in wall.slides if not slide.now for c in slide.columns for m in c.matches
    ]
    assert sorted(on_slides) == sorted(every)  # each match once on the whole bracket's slides
    playing = [
        m.id
        for s in page.sections
        for c in s.columns
        for m in c.matches
        if m.status == Status.READY
    ]
    now = [m.id for slide in wall.slides if slide.now for c in slide.columns for m in c.matches]
    assert sorted(now) == sorted(playing)
    assert wall.playing == len(playing)
    for slide in wall.slides:
        assert 1 <= len(slide.columns) + len(slide.places) <= WALL_COLUMNS
        for column in slide.columns:
            assert sum(wall_match_height(m) for m in column.matches) <= WALL_COLUMN_HEIGHT
    if playing:
        assert wall.slides[0].now and wall.slides[0].label == "Now playing"
    rounds = {(s.title, c.title) for s in page.sections for c in s.columns}
    shown = {(c.section, c.title) for slide in wall.slides for c in slide.columns}
    assert shown == rounds


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=80),
    double=st.booleans(),
    third_place=st.booleans(),
)
def test_every_two_team_bracket_fits_its_slides(size, double, third_place):
    seeds = tuple(f"e{n}" for n in range(size))
    bracket = EliminationBracket(
        format=Format.DOUBLE if double else Format.SINGLE, seeds=seeds, third_place=third_place
    )
    assert_fits_and_covers(page_of(bracket))


@settings(max_examples=25, deadline=None)
@given(
    size=st.integers(min_value=3, max_value=90),
    table_size=st.integers(min_value=3, max_value=8),
    advance=st.integers(min_value=1, max_value=2),
    placement_tables=st.booleans(),
)
def test_every_table_bracket_fits_its_slides(size, table_size, advance, placement_tables):
    rules = TableRules(table_size=table_size, advance=advance, legal_sizes=tuple(range(2, 9)))
    seeds = tuple(f"e{n}" for n in range(size))
    try:
        bracket = TableBracket(seeds=seeds, rules=rules, placement_tables=placement_tables)
        page = page_of(bracket)
    except Exception:  # a shape the core refuses is never a stage
        return
    assert_fits_and_covers(page)


def test_places_beyond_the_panel_go_on_slides_of_their_own():
    bracket = EliminationBracket(format=Format.SINGLE, seeds=tuple(f"e{n}" for n in range(64)))
    page = page_of(bracket)
    places = tuple(PagePlace(str(n), f"Player {n}") for n in range(1, 65))
    wall = bracket_wall(replace(page, placements=places))
    assert len(wall.places) == WALL_PLACES_BESIDE - 1
    assert wall.more_places == 64 - len(wall.places)
    own = [slide for slide in wall.slides if slide.places]
    shown = [p.name for slide in own for column in slide.places for p in column]
    assert [p.name for p in wall.places] + shown == [p.name for p in places]
    assert own[0].label == f"Places {len(wall.places) + 1}\N{EN DASH}64"


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


@pytest.fixture
def event(director):
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:16]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    return event


@pytest.mark.django_db
def test_now_playing_follows_the_tables(director, event, django_capture_on_commit_callbacks):
    stage = brackets.stage_create(event=event, kind="double", user=director)
    wall = brackets_read.bracket_wall_for(event=event)
    assert wall is not None
    now = [m.id for s in wall.slides if s.now for c in s.columns for m in c.matches]
    assert len(now) == 8 and all(match.startswith("W1-") for match in now)
    assert all(c.title for s in wall.slides for c in s.columns)
    first = now[0]
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(current_rows(stage)[first].game, "A")
    wall = brackets_read.bracket_wall_for(event=event)
    assert wall is not None
    later = [m.id for s in wall.slides if s.now for c in s.columns for m in c.matches]
    assert first not in later and len(later) == 7


@pytest.mark.django_db
def test_the_wall_page_is_public_and_live(client, director, event):
    response = client.get(f"/e/{event.public_token}/bracket/wall/")
    assert response.status_code == 200
    assert "not drawn yet" in response.content.decode()
    brackets.stage_create(event=event, kind="double", user=director)
    event.refresh_from_db()
    html = client.get(f"/e/{event.public_token}/bracket/wall/").content.decode()
    assert "Now playing" in html and 'data-slide="bracket-1"' in html
    assert "<script>" not in html and " style=" not in html  # the pages' policy
    # A round's heading names its part of the bracket once.
    assert '<span class="wall-section">Winners&#x27; bracket</span> Round 1' in html
    assert "<h2>Grand final</h2>" in html and "<h2>Grand final, second game</h2>" in html
    live = f"/e/{event.public_token}/bracket/wall/live/"
    assert client.get(live, {"rev": event.revision}).status_code == 204
    changed = client.get(live, {"rev": event.revision - 1})
    assert changed.status_code == 200 and 'id="wall-board"' in changed.content.decode()
    for address in (f"/e/{event.public_token}/bracket/", f"/e/{event.public_token}/projector/"):
        assert f"/e/{event.public_token}/bracket/wall/" in client.get(address).content.decode()
    client.force_login(director)
    desk = client.get(f"/desk/{event.pk}/bracket/").content.decode()
    assert f"/e/{event.public_token}/bracket/wall/" in desk
    assert client.get("/e/nope/bracket/wall/").status_code == 404
