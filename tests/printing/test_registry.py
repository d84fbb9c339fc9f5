"""Sheet sources and printed games: found through registries, and nothing else knows a game."""

from __future__ import annotations

import ast
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from printing.errors import PrintRequestError
from printing.models import PrintJob
from printing.registry import SOURCES
from printing.render import Column, ColumnGroup, Row, Sheet
from printing.services import printjob_create
from scoring.engines.registry import ENGINES
from scoring.games.printed import PRINTED, printed_for

ROOT = Path(__file__).resolve().parents[2]


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return done.stdout.decode("utf-8")


class TableCards:
    """A source of sheets from outside the printing app, as the tournaments will add."""

    kind = "table_cards"

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Sheet], int]:
        tables = list(what["tables"])
        cards = (
            Sheet(
                title=f"Table {table}",
                groups=(ColumnGroup((Column("Seat", 40.0), Column("Player", 120.0)), "Seating"),),
                rows=tuple(Row(str(seat + 1), (str(seat + 1), "")) for seat in range(4)),
            )
            for table in tables
        )
        return cards, len(tables)

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        return f"{len(what['tables'])} table cards, {paper_name}"

    def filename(self, what: Mapping[str, Any]) -> str:
        return "table-cards.pdf"

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return "Back to the tables", "/tables/"


@pytest.fixture
def table_cards():
    source = TableCards()
    SOURCES.register(source)
    yield source
    SOURCES.unregister(source.kind)


def test_every_game_has_its_printed_sheet_and_nothing_more():
    assert set(PRINTED) == set(ENGINES)
    for key in ENGINES:
        assert printed_for(key) is PRINTED[key]


def test_scoresheets_are_registered_sources():
    assert {"blank", "games"} <= set(SOURCES.kinds())


@pytest.mark.django_db
def test_a_source_added_from_outside_prints_through_the_same_jobs(
    table_cards, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job = printjob_create(what={"kind": "table_cards", "tables": [1, 2, 3]}, paper="A4")
    job = PrintJob.objects.get(pk=job.pk)
    assert job.status == PrintJob.Status.DONE, job.error
    assert (job.progress_done, job.progress_total) == (3, 3)
    assert job.filename == "table-cards.pdf"
    assert job.about == "3 table cards, A4"
    text = pdf_text(bytes(job.pdf))
    assert all(f"Table {n}" in text for n in (1, 2, 3))


@pytest.mark.django_db
def test_the_job_page_leads_where_its_source_says(client, table_cards):
    job = PrintJob.objects.create(
        request_key="back", what={"kind": "table_cards", "tables": [1]}, status="done"
    )
    page = client.get(reverse("printing:print_job", args=[job.token])).content.decode()
    assert 'href="/tables/">Back to the tables</a>' in page


def test_a_kind_is_served_by_one_source_only(table_cards):
    with pytest.raises(ValueError, match="already registered"):
        SOURCES.register(TableCards())


@pytest.mark.django_db
def test_a_request_of_no_known_kind_is_refused():
    with pytest.raises(PrintRequestError, match="does not say what to print"):
        printjob_create(what={"kind": "posters"}, paper="A4")
    assert not PrintJob.objects.exists()


def python_files(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))]


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


@pytest.mark.parametrize(
    "path",
    [ROOT / "scoring" / "models.py", *python_files("scoring/games", "scoring/engines")],
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_scoring_models_and_games_never_import_printing(path):
    printing = {name for name in imported_modules(path) if name.split(".")[0] == "printing"}
    assert printing == set()


@pytest.mark.parametrize(
    "path",
    [
        *python_files("printing"),
        *sorted((ROOT / "templates" / "printing").glob("*.html")),
    ],
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_printing_names_no_game(path):
    """A game's columns, options and words live with the game, not in the printing app."""
    text = path.read_text(encoding="utf-8")
    named = [key for key in ENGINES if key in text or ENGINES[key].title in text]
    assert named == []
