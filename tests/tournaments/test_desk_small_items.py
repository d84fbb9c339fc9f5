"""The smaller things a real night tripped on, each with the case that showed it."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.printouts.sources import standings_list
from tournaments.standings.core.shown import columns_with_values, metric_text


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


# --------------------------------------------------------------------------- figures


def test_a_value_halfway_rounds_up():
    assert metric_text(70.625) == "70.63"
    assert metric_text(70.624) == "70.62"
    assert metric_text(0.125) == "0.13"
    assert metric_text(99.995) == "100"
    assert metric_text(12.0) == "12"
    assert metric_text(None) == "\N{EN DASH}"
    assert metric_text(None, missing="-") == "-"


@given(st.integers(min_value=-(10**9), max_value=10**9))
def test_thousandths_round_half_up_as_written(thousandths):
    value = thousandths / 1000
    written = Decimal(thousandths) / 1000
    expected = written.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    shown = metric_text(value)
    assert Decimal(shown) == expected


def test_a_column_with_no_value_in_any_row_is_left_out():
    rows = [(3.0, None, 1.0), (2.0, None, None)]
    assert columns_with_values(rows, 3) == [0, 2]
    assert columns_with_values([], 3) == [0, 1, 2]


# --------------------------------------------------------------------------- pages


@pytest.mark.django_db
def test_the_standings_pages_and_printout_leave_out_an_all_dash_column(director, client):
    event = services.event_create(
        owner=director,
        name="N",
        game="roolz",
        options=ROOLZ_OPTIONS,
        standings_metrics=["placement_points", "head_to_head"],
    )
    services.entrants_import_csv(event=event, text="Ann\nBen\nCat\nDan", user=director)
    for name in ("standings", "projector"):
        page = client.get(reverse(f"tournaments:{name}", args=[event.public_token]))
        text = page.content.decode()
        assert "Placement points" in text, name
        assert "Head to head" not in text, name
    listing = standings_list(event)
    assert [c.heading for c in listing.columns] == ["Rank", "Name", "Placement points", "Played"]
