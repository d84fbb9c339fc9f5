"""The bracket for the wall: a landscape PDF that fits its page, read as text and as a picture."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from printing.registry import SOURCES
from printing.render.diagram import diagram_scale, page_size, render_diagrams
from tests.tournaments.brackets.test_flow import TEAMS, current_rows, play_derby
from tournaments.brackets import services as brackets
from tournaments.brackets.selectors import bracket_for
from tournaments.brackets.sheet import BRACKET_SHEETS, bracket_diagram
from tournaments.events import services

pytestmark = pytest.mark.django_db

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LEGIBLE = 8.5  # the smallest a name prints, in points: read from a step away


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x")


def need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (poppler-utils)")


def bracket_event(director, count: int, kind: str = "single"):
    event = services.event_create(owner=director, name="Spring Cup", game="rummoli")
    names = [f"Zoë Łukasz {n:03d}" for n in range(1, count + 1)]
    services.entrants_import_csv(event=event, text="\n".join(names), user=director)
    brackets.stage_create(event=event, kind=kind, user=director)
    return event


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "bracket.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def page_sizes(pdf: bytes, tmp_path: Path) -> list[tuple[float, float]]:
    path = tmp_path / "sizes.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "99", str(path)], check=True, capture_output=True, text=True
    ).stdout
    sizes = []
    for line in out.splitlines():
        if "size:" in line and "Page" in line:
            numbers = line.split("size:")[1].split("pts")[0].split("x")
            sizes.append((float(numbers[0]), float(numbers[1])))
    return sizes


@pytest.mark.parametrize(
    ("count", "kind", "pages", "smallest"),
    [
        (8, "single", 1, LEGIBLE),
        (32, "single", 1, LEGIBLE),
        (64, "single", 2, LEGIBLE),
        (128, "single", 4, 7.5),  # seven rounds side by side
        (16, "double", 1, 7.0),  # the losers' bracket is drawn under the winners'
    ],
)
def test_bracket_sheet_fits_landscape_with_legible_names(
    director, tmp_path, count, kind, pages, smallest
):
    need("pdftotext")
    event = bracket_event(director, count, kind)
    page = bracket_for(event=event)
    assert page is not None
    diagram = bracket_diagram(page)
    assert len(diagram.pages) == pages
    for drawn in diagram.pages:
        scale = diagram_scale(diagram, drawn, "A4")
        names = [t for t in drawn.texts if t.size == 10.0]
        assert names, "every page holds names"
        assert 10.0 * scale >= smallest, (
            f"names print at {10.0 * scale:.1f} pt ({drawn.width:.0f} x {drawn.height:.0f})"
        )
    pdf = render_diagrams([diagram], "A4")
    width, height = page_size(diagram, "A4")
    assert page_sizes(pdf, tmp_path) == [(round(width), round(height))] * pages or all(
        w > h for w, h in page_sizes(pdf, tmp_path)
    )
    text = pdf_text(pdf, tmp_path)
    assert "Spring Cup: bracket" in text
    # Every entrant of the first round is printed, top seed first.
    assert "Zoë Łukasz 001" in text
    assert f"Zoë Łukasz {count:03d}" in text
    assert text.count("page 1 of") == 1


def test_bracket_sheet_through_the_registry_shows_the_champion(
    director, tmp_path, django_capture_on_commit_callbacks
):
    need("pdftoppm")
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:8]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", third_place=True, user=director)
    for _ in range(3):
        for row in current_rows(stage).values():
            if row.game.status != "finished":
                with django_capture_on_commit_callbacks(execute=True):
                    play_derby(row.game, "B")
    assert "bracket" in SOURCES.kinds()
    what = BRACKET_SHEETS.request(event=event)
    source = SOURCES.for_request(what)
    assert source.describe(what, "A4") == "The bracket of Derby Cup, A4 landscape"
    sheets, total = source.sheets(what)
    pdf = render_diagrams(list(sheets), "A4")
    assert total == 1
    text = pdf_text(pdf, tmp_path)
    page = bracket_for(event=event)
    assert page is not None and page.champion
    assert f"Champion: {page.champion}" in text
    for title in ("Quarterfinals", "Semifinals", "Final", "Third place"):
        assert title in text
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "bracket-8.pdf").write_bytes(pdf)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            str(ARTIFACTS / "bracket-8.pdf"),
            str(ARTIFACTS / "bracket-8"),
        ],
        check=True,
    )
    assert list(ARTIFACTS.glob("bracket-8*.png"))
