"""The server bench's summary: the three CPU figures and the two goals' verdicts."""

from __future__ import annotations

import pytest

from bench.server import API_ROUND_CPU_MS, FORM_OVER_API, cpu_goals, cpu_verdicts


@pytest.mark.parametrize(
    ("api", "form", "goals"),
    [
        (2.0, 3.9, (True, True)),
        (2.0, 4.1, (True, False)),
        (2.6, 5.0, (False, True)),
        (3.5, 11.4, (False, False)),
    ],
)
def test_each_goal_is_judged_on_its_own(api, form, goals):
    assert cpu_goals(api, form) == goals
    lines = cpu_verdicts(api, form, 0.7).splitlines()
    assert lines[1].endswith("met" if goals[0] else "SHORT")
    assert lines[2].endswith("met" if goals[1] else "SHORT")
    assert f"{form / api:.2f}x" in lines[2] and "0.70 ms" in lines[3]
    assert f"{api / 0.7:.2f}x" in lines[4] and lines[4].endswith("3.57x")


def test_the_goals_are_the_ones_the_bench_states():
    assert (API_ROUND_CPU_MS, FORM_OVER_API) == (2.5, 2.0)
