"""Each bracket match shows its score (two-sided matches: both sides' totals) or its
table's finishing order (table matches), on the page, at projector size, on the
director's bracket page and on the printed bracket."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from printing.render.diagram import render_diagrams
from scoring.models import Game
from tests.tournaments.brackets.test_flow import (
    DERBY_OPENING,
    TEAMS,
    current_rows,
    finish_rummoli,
    play_derby,
)
from tests.tournaments.helpers import enter_and_confirm
from tournaments.brackets import services as brackets
from tournaments.brackets.selectors import bracket_for
from tournaments.brackets.sheet import bracket_diagram
from tournaments.events import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


def page_match(event, match_id):
    page = bracket_for(event=event)
    assert page is not None
    return next(m for s in page.sections for c in s.columns for m in c.matches if m.id == match_id)


def rummoli_tables(director):
    """Twelve Rummoli players in a bracket of tables of six, three of each going on."""
    event = services.event_create(owner=director, name="Rummoli Night", game="rummoli")
    names = [f"Player {n:02d}" for n in range(1, 13)]
    services.entrants_import_csv(event=event, text="\n".join(names), user=director)
    stage = brackets.stage_create(
        event=event, kind="tables", table_size=6, advance=3, draw_rule="higher_seed", user=director
    )
    return event, stage


def match_block(html: str, match_id: str, length: int = 2000) -> str:
    """The page's markup from the match's own element on."""
    return html[html.index(f'data-match="{match_id}"') :][:length]


def shows_scores(block: str, totals) -> bool:
    return all(
        f'<span class="bracket-score" aria-label="score {total}">{total}</span>' in block
        for total in totals
    )


def team_totals(game: Game, seats: list[int]) -> dict[int, int]:
    """Each entrant's total as the game's engine scored it (read at its first seat)."""
    game.refresh_from_db()
    found: dict[int, int] = {}
    for entrant, total in zip(seats, game.score_cache["totals"], strict=True):
        found.setdefault(entrant, total)
    return found


@pytest.fixture
def derby(director):
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:4]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", user=director)
    return event, stage


def test_a_match_not_yet_played_shows_no_score(derby):
    event, _ = derby
    match = page_match(event, "R1-1")
    assert [seat.total for seat in match.seats] == [None, None]


def test_a_match_in_play_shows_both_sides_running_totals(derby):
    event, stage = derby
    row = current_rows(stage)["R1-1"]
    enter_and_confirm(row.game, 1, DERBY_OPENING[0])
    expected = team_totals(row.game, row.seats)
    match = page_match(event, "R1-1")
    assert {seat.entrant_id: seat.total for seat in match.seats} == expected


def test_a_decided_match_shows_both_totals_on_the_page_and_projector(
    client, derby, django_capture_on_commit_callbacks
):
    event, stage = derby
    row = current_rows(stage)["R1-2"]
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(row.game, "B")
    expected = team_totals(row.game, row.seats)
    assert len(set(expected.values())) == 2  # a decided game: the totals differ
    match = page_match(event, "R1-2")
    shown = {seat.entrant_id: seat.total for seat in match.seats}
    assert shown == expected
    winner = next(seat for seat in match.seats if seat.advanced)
    assert winner.total == max(expected.values())
    assert all(seat.place is None for seat in match.seats)  # two sides: the score says it
    for address in (f"/e/{event.public_token}/bracket/", f"/e/{event.public_token}/bracket/?big=1"):
        html = client.get(address).content.decode()
        block = match_block(html, "R1-2")
        assert shows_scores(block, expected.values())


def test_a_table_match_shows_its_finishing_order(
    client, director, django_capture_on_commit_callbacks
):
    event, stage = rummoli_tables(director)
    row = current_rows(stage)["R1-T1"]
    order = list(range(len(row.seats)))[::-1]  # the last seat goes out first
    with django_capture_on_commit_callbacks(execute=True):
        finish_rummoli(row.game, order)
    match = page_match(event, "R1-T1")
    by_entrant = {seat.entrant_id: seat for seat in match.seats}
    expected_order = [row.seats[seat] for seat in order]
    assert [by_entrant[e].place for e in expected_order] == list(range(1, len(order) + 1))
    assert [by_entrant[e].place_text for e in expected_order[:3]] == ["1st", "2nd", "3rd"]
    # Listed in that order, best first.
    assert [seat.entrant_id for seat in match.seats] == expected_order
    went_on = {seat.entrant_id for seat in match.seats if seat.advanced}
    assert went_on == set(expected_order[:3])
    # The totals are the game's own.
    assert {e: s.total for e, s in by_entrant.items()} == team_totals(row.game, row.seats)
    html = client.get(f"/e/{event.public_token}/bracket/?big=1").content.decode()
    block = match_block(html, "R1-T1", 4000)
    assert block.count('class="bracket-place"') == len(order)


def test_an_overridden_table_match_shows_the_directors_finish(
    director, django_capture_on_commit_callbacks
):
    event, stage = rummoli_tables(director)
    row = current_rows(stage)["R1-T2"]
    finish = list(reversed(row.seats))
    brackets.bracket_override(
        event=event,
        match="R1-T2",
        finish=finish,
        reason="the table's phone was lost",
        user=director,
    )
    match = page_match(event, "R1-T2")
    places = {seat.entrant_id: seat.place for seat in match.seats}
    assert [places[e] for e in finish] == list(range(1, len(finish) + 1))
    assert all(seat.total is None for seat in match.seats)  # nothing was played


def printed_text(event, tmp_path) -> str:
    """The printed bracket as pdftotext reads it (one line a seat)."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (poppler-utils)")
    page = bracket_for(event=event)
    assert page is not None
    path = tmp_path / "bracket.pdf"
    path.write_bytes(render_diagrams([bracket_diagram(page)], "A4"))
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def test_the_printed_bracket_and_the_desk_show_both_totals(
    derby, director, tmp_path, django_capture_on_commit_callbacks
):
    event, stage = derby
    row = current_rows(stage)["R1-2"]
    with django_capture_on_commit_callbacks(execute=True):
        play_derby(row.game, "B")
    names = dict(event.entrants.values_list("pk", "name"))
    expected = {names[e]: total for e, total in team_totals(row.game, row.seats).items()}
    printed = printed_text(event, tmp_path)
    for name, total in expected.items():  # R1-2's line of each side: its name, then its total
        assert re.search(rf"{re.escape(name)}\s+{total}\b", printed), name
    desk = Client()
    desk.force_login(director)
    html = desk.get(f"/desk/{event.pk}/bracket/").content.decode()
    block = match_block(html, "R1-2")
    assert shows_scores(block, expected.values())


def test_the_printed_bracket_and_the_desk_show_a_tables_finishing_order(
    director, tmp_path, django_capture_on_commit_callbacks
):
    event, stage = rummoli_tables(director)
    row = current_rows(stage)["R1-T1"]
    order = list(range(len(row.seats)))[::-1]
    with django_capture_on_commit_callbacks(execute=True):
        finish_rummoli(row.game, order)
    by_pk = dict(event.entrants.values_list("pk", "name"))
    finishing = [by_pk[row.seats[seat]] for seat in order]
    printed = printed_text(event, tmp_path)
    for place, name in zip(("1st", "2nd", "3rd", "4th", "5th", "6th"), finishing, strict=True):
        assert re.search(rf"{place}\s+{name}", printed), name
    desk = Client()
    desk.force_login(director)
    html = desk.get(f"/desk/{event.pk}/bracket/").content.decode()
    block = match_block(html, "R1-T1", 4000)
    assert block.count('class="bracket-place"') == len(order)
