"""The formats table: every format is one module behind one entry, and the type agrees."""

from __future__ import annotations

from typing import get_args

import pytest

from tournaments.seating.core import FORMATS, RoundRequest, SchedulingError, TablePolicy, plan_round
from tournaments.seating.core.formats import Seated, Seating
from tournaments.seating.core.types import Format

POLICY = TablePolicy(legal_sizes=(4,), preferred=4, sides={4: ((0, 2), (1, 3))})


def test_the_format_type_names_exactly_the_formats_in_the_table():
    assert list(get_args(Format)) == list(FORMATS)


@pytest.mark.parametrize("key", list(FORMATS))
def test_each_format_lives_in_a_module_of_its_own_name(key):
    assert FORMATS[key].__module__ == f"tournaments.seating.core.formats.{key}"


def test_the_planner_seats_by_the_table_entry(monkeypatch):
    """A format added to the table is accepted and is what the planner calls for its key."""
    calls: list[Seating] = []

    def by_id(seating: Seating) -> Seated:
        calls.append(seating)
        ids = sorted(seating.request.entrants)
        return Seated(tables=[tuple(ids[:4])], byes=ids[4:], method="by id")

    monkeypatch.setitem(FORMATS, "by_id", by_id)
    request = RoundRequest(entrants=(5, 3, 9, 1, 7), policy=POLICY, format="by_id")  # type: ignore[arg-type]
    plan = plan_round(request)
    assert plan.tables == ((1, 3, 5, 7),)
    assert plan.byes == (9,)
    assert plan.report.method == "by id"
    assert [c.request.entrants for c in calls] == [(5, 3, 9, 1, 7)]


def test_a_format_not_in_the_table_is_refused_naming_the_field():
    with pytest.raises(SchedulingError) as refused:
        plan_round(RoundRequest(entrants=(1, 2, 3, 4), policy=POLICY, format="knockout"))  # type: ignore[arg-type]
    assert refused.value.field == "format"
    assert "mixer, swiss, round_robin, progressive" in str(refused.value)
