"""The standings policy: defaults per game from its engine, metrics by name."""

from __future__ import annotations

import pytest

from scoring.engines.registry import ENGINES
from tournaments.standings.core import (
    METRIC_LABELS,
    Metric,
    default_rules,
    metrics_from_names,
    rules_problems,
)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_default_rules_are_sound(game):
    rules = default_rules(game)
    assert rules_problems(rules) == []
    assert Metric.HEAD_TO_HEAD in rules.metrics


@pytest.mark.parametrize(
    ("game", "first", "opponents"),
    [
        ("roolz", Metric.PLACEMENT_POINTS, Metric.BUCHHOLZ),  # 2 to 6 seats: sizes mix
        ("rummoli", Metric.PLACEMENT_POINTS, Metric.BUCHHOLZ),  # 2 to 8 seats
        ("rook_sluff", Metric.WINS, Metric.BUCHHOLZ),  # two teams, 4 to 10 seats
        ("roller_derby", Metric.WINS, Metric.OPPONENTS_STRENGTH),  # always two teams of two
    ],
)
def test_default_metrics_per_game(game, first, opponents):
    rules = default_rules(game)
    assert rules.metrics[0] == first
    assert opponents in rules.metrics


def test_metrics_from_names_keep_the_order_given():
    assert metrics_from_names(["wins", "head_to_head", "share"]) == (
        Metric.WINS,
        Metric.HEAD_TO_HEAD,
        Metric.SHARE,
    )
    with pytest.raises(ValueError, match="points"):
        metrics_from_names(["points"])


def test_every_metric_has_a_label():
    assert set(METRIC_LABELS) == set(Metric)
