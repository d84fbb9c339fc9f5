"""The standings policy: defaults per game from its engine, metrics by name."""

from __future__ import annotations

import pytest

from scoring.engines.registry import ENGINES
from tests.games import GAMES, expected
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


@pytest.mark.parametrize("game", GAMES)
def test_default_metrics_per_game(game):
    first, opponents = expected(game).STANDINGS
    rules = default_rules(game)
    assert rules.metrics[0] == Metric(first)
    assert Metric(opponents) in rules.metrics


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
