"""Standings of an event: pure computation from plain results (no Django).

``compute_standings(event, rules)`` ranks an event's entrants by the ordered
metrics the director chose (``policy``); each metric is one entry of ``Metric``
(``metrics``: key, label, kind, value); ``default_rules`` gives each game's defaults
(its engine states them) and ``scales`` the placement points that stay fair when table
sizes mix.
"""

from tournaments.standings.core.metrics import (
    METRIC_LABELS,
    OPPONENT_METRICS,
    ROUND_METRICS,
    MeetingMetric,
    Metric,
    MetricSpec,
    OpponentMetric,
    RoundMetric,
)
from tournaments.standings.core.policy import (
    ByeMethod,
    ByeOpponents,
    ByeRule,
    StandingsRules,
    default_rules,
    metrics_from_names,
    rules_problems,
)
from tournaments.standings.core.ranking import Standing, Standings, compute_standings
from tournaments.standings.core.results import (
    Entrant,
    EntrantId,
    EventResults,
    InvalidResults,
    RoundResults,
    SeatResult,
    TableResult,
    places_from_totals,
    results_problems,
    table_from_game,
)
from tournaments.standings.core.scales import (
    DEFAULT_SCALES,
    SCALE_MEAN,
    default_scale,
    scale_mean,
    shared_points,
    unbalanced_sizes,
)

__all__ = [
    "DEFAULT_SCALES",
    "METRIC_LABELS",
    "OPPONENT_METRICS",
    "ROUND_METRICS",
    "SCALE_MEAN",
    "ByeMethod",
    "ByeOpponents",
    "ByeRule",
    "Entrant",
    "EntrantId",
    "EventResults",
    "InvalidResults",
    "MeetingMetric",
    "Metric",
    "MetricSpec",
    "OpponentMetric",
    "RoundMetric",
    "RoundResults",
    "SeatResult",
    "Standing",
    "Standings",
    "StandingsRules",
    "TableResult",
    "compute_standings",
    "default_rules",
    "default_scale",
    "metrics_from_names",
    "places_from_totals",
    "results_problems",
    "rules_problems",
    "scale_mean",
    "shared_points",
    "table_from_game",
    "unbalanced_sizes",
]
