"""Names a spreadsheet would run come out of standings.csv as text, and exact in the JSON."""

from __future__ import annotations

import csv
import io
import json

import pytest

from common.csvsafe import FORMULA_STARTS
from tests.tournaments.web.conftest import publish_next
from tests.tournaments.web.test_desk import url
from tournaments.events import services

pytestmark = pytest.mark.django_db

HOSTILE = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1:A2)"]


@pytest.fixture
def hostile_event(director):
    event = services.event_create(owner=director, name="=HYPERLINK(1)", game="rummoli")
    for name in [*HOSTILE, "Ann", "Ben", "Cat", "Dan"]:
        services.entrant_add(event=event, name=name, user=director)
    publish_next(event, director)
    return event


def test_formula_names_are_text_in_the_standings_csv(desk, hostile_event):
    response = desk.get(url("standings_csv", hostile_event.pk))
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS), row
    names = sorted(row[1] for row in rows[1:])
    # Each name keeps its text behind the apostrophe that makes it text.
    assert names == sorted(["'" + n for n in HOSTILE] + ["Ann", "Ben", "Cat", "Dan"])


def test_the_json_export_keeps_names_exact(desk, hostile_event):
    data = json.loads(desk.get(url("event_json", hostile_event.pk)).content)
    assert data["event"]["name"] == "=HYPERLINK(1)"
    assert sorted(e["name"] for e in data["entrants"]) == sorted(
        [*HOSTILE, "Ann", "Ben", "Cat", "Dan"]
    )
