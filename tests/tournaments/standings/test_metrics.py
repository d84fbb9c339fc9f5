"""The metrics as specs: every name callers use is read from the one entry per metric."""

from __future__ import annotations

import pytest

from tournaments.standings.core import (
    METRIC_LABELS,
    OPPONENT_METRICS,
    ROUND_METRICS,
    ByeMethod,
    ByeRule,
    Entrant,
    EventResults,
    MeetingMetric,
    Metric,
    OpponentMetric,
    RoundMetric,
    RoundResults,
    StandingsRules,
    compute_standings,
    table_from_game,
)
from tournaments.standings.core.metrics import SidesAtRound
from tournaments.standings.core.scales import SCALE_MEAN, default_scale


def test_the_names_callers_use_are_read_from_the_specs():
    assert dict(METRIC_LABELS) == {m: m.spec.label for m in Metric}
    assert tuple(m for m in Metric if isinstance(m.spec, RoundMetric)) == ROUND_METRICS
    assert tuple(m for m in Metric if isinstance(m.spec, OpponentMetric)) == OPPONENT_METRICS
    kinds = (RoundMetric, OpponentMetric, MeetingMetric)
    assert all(isinstance(m.spec, kinds) for m in Metric)


def test_keys_and_labels_are_each_used_once():
    assert len({m.value for m in Metric}) == len(Metric)
    labels = [m.label for m in Metric]
    assert len(set(labels)) == len(labels) and all(labels)
    assert Metric("share") is Metric.SHARE and Metric.SHARE == "share"


# Two sides tied first on 30, one third on -10 (the floor), at a table of three sides;
# then a table of two whose sides end level on 0.
ROUND = SidesAtRound()
ROUND.add_table([30.0, 30.0, -10.0], [1, 1, 3], default_scale(3))
ROUND.add_table([0.0, 0.0], [1, 1], default_scale(2))


@pytest.mark.parametrize(
    ("metric", "values"),
    [
        (Metric.PLACEMENT_POINTS, [5.5, 5.5, 1.0, 4.0, 4.0]),
        (Metric.GAME_POINTS, [30.0, 30.0, -10.0, 0.0, 0.0]),
        (Metric.SHARE, [1.5, 1.5, 0.0, 1.0, 1.0]),
        (Metric.WINS, [0.5, 0.5, 0.0, 0.5, 0.5]),
        (Metric.FIRSTS, [1.0, 1.0, 0.0, 1.0, 1.0]),
    ],
)
def test_each_round_metric_values_each_side_at_the_rounds_tables(metric, values):
    assert isinstance(metric.spec, RoundMetric)
    assert metric.spec.value(ROUND) == values


def test_a_fixed_bye_scores_each_round_metric_its_own_default():
    """Placement points score the scales' mean, every other metric 0, unless given."""
    event = EventResults(
        entrants=(Entrant(1, "Ann"), Entrant(2, "Ben"), Entrant(3, "Cat")),
        rounds=(
            RoundResults(
                number=1,
                tables=(table_from_game(number=1, entrants=[1, 2], totals=[10, 4]),),
                byes=(3,),
            ),
        ),
    )
    rules = StandingsRules(metrics=ROUND_METRICS, byes=ByeRule(method=ByeMethod.FIXED))
    bye = next(row for row in compute_standings(event, rules).rows if row.entrant == 3)
    expected = {m: (SCALE_MEAN if m is Metric.PLACEMENT_POINTS else 0.0) for m in ROUND_METRICS}
    assert dict(bye.values) == expected
    assert {m: m.spec.bye_fixed for m in ROUND_METRICS} == expected  # type: ignore[union-attr]
