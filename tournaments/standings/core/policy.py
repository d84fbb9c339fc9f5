"""The standings policy, what the director chooses: the ordered metrics, how byes
score, the placement scales.

Standings sort entrants by the first metric, then break ties with the next, and
so on (as Tabbycat does); entrants still equal on every metric share a rank.
Every metric is "higher is better".

The metrics themselves (keys, labels, how each is found) are in ``metrics``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from common.phrases import N_
from scoring.engines.base import Problem
from scoring.engines.registry import ENGINES
from tournaments.standings.core.metrics import ROUND_METRICS, Metric
from tournaments.standings.core.scales import DEFAULT_SCALES, Scale, scale_problems


class ByeMethod(StrEnum):
    """How a bye scores the round-by-round metrics.

    - ``own_average``: the entrant's mean over the rounds they played (when they
      have played none yet, the round's table average);
    - ``fixed``: the director's value for each metric (``ByeRule.fixed``; a
      metric left out scores its ``bye_fixed``: 0, except placement points, which
      score the default scales' mean of 4, an average result);
    - ``table_average``: the mean over the round's counted tables of each
      table's mean per player (0 when no table of the round counts yet).
    """

    OWN_AVERAGE = "own_average"
    FIXED = "fixed"
    TABLE_AVERAGE = "table_average"


class ByeOpponents(StrEnum):
    """What a bye adds to the metrics from opponents' strength (Buchholz).

    - ``none``: nothing (a bye is a round with no opponents);
    - ``virtual_opponent``: a round against an opponent as strong as the entrant
      (FIDE's virtual opponent for unplayed rounds).
    """

    NONE = "none"
    VIRTUAL_OPPONENT = "virtual_opponent"


@dataclass(frozen=True)
class ByeRule:
    method: ByeMethod = ByeMethod.OWN_AVERAGE
    fixed: Mapping[Metric, float] = field(default_factory=dict)
    opponents: ByeOpponents = ByeOpponents.NONE


@dataclass(frozen=True)
class StandingsRules:
    """The director's choice: metrics in order, byes, and the strength used by opponent metrics.

    ``scales`` replaces the default placement scale for the sizes it names.
    """

    metrics: tuple[Metric, ...]
    byes: ByeRule = ByeRule()
    strength_of: Metric = Metric.PLACEMENT_POINTS
    scales: Mapping[int, Scale] = field(default_factory=dict)

    def scale(self, size: int) -> Scale | None:
        return self.scales.get(size) or DEFAULT_SCALES.get(size)


def rules_problems(rules: StandingsRules) -> list[Problem]:
    """Every mistake in the director's rules, naming the field."""
    problems: list[Problem] = []
    if not rules.metrics:
        problems.append(Problem(N_("choose at least one metric"), field="metrics"))
    seen: set[str] = set()
    for metric in rules.metrics:
        if metric not in Metric.__members__.values():
            problems.append(
                Problem(N_("unknown metric {metric}"), None, "metrics", {"metric": repr(metric)})
            )
        elif metric in seen:
            problems.append(
                Problem(N_("metric {metric} is chosen twice"), None, "metrics", {"metric": metric})
            )
        seen.add(metric)
    if rules.strength_of not in ROUND_METRICS:
        allowed = ", ".join(ROUND_METRICS)
        problems.append(
            Problem(
                N_("strength must be one of {allowed}"), None, "strength_of", {"allowed": allowed}
            )
        )
    if rules.byes.method not in ByeMethod.__members__.values():
        problems.append(
            Problem(
                N_("unknown bye method {method}"), None, "byes", {"method": repr(rules.byes.method)}
            )
        )
    if rules.byes.opponents not in ByeOpponents.__members__.values():
        problems.append(
            Problem(
                N_("unknown bye rule for opponents {rule}"),
                None,
                "byes",
                {"rule": repr(rules.byes.opponents)},
            )
        )
    for metric in rules.byes.fixed:
        if metric not in ROUND_METRICS:
            problems.append(
                Problem(
                    N_("a bye cannot give a value for {metric}"), None, "byes", {"metric": metric}
                )
            )
    problems.extend(
        Problem(words.template, None, "scales", words.values)
        for words in scale_problems(rules.scales)
    )
    return problems


def _rules(*metrics: Metric, strength_of: Metric = Metric.PLACEMENT_POINTS) -> StandingsRules:
    return StandingsRules(metrics=tuple(metrics), strength_of=strength_of)


def default_rules(game: str) -> StandingsRules:
    """The default standings rules of a game (by its registry key), as its engine states
    them: games always played in fixed teams rank on wins, the others on placement."""
    engine = ENGINES[game]
    return _rules(
        *metrics_from_names(engine.standings_metrics),
        strength_of=Metric(engine.standings_strength),
    )


def metrics_from_names(names: Sequence[str]) -> tuple[Metric, ...]:
    """Metrics from their names (as a form or a saved event gives them); unknown names raise."""
    return tuple(Metric(name) for name in names)
