"""What the director chooses: the ordered metrics, how byes score, the placement scales.

Standings sort entrants by the first metric, then break ties with the next, and
so on (as Tabbycat does); entrants still equal on every metric share a rank.
Every metric is "higher is better".

Metrics counted round by round (a bye scores them as the bye rule says):

- ``placement_points``: points for the finishing place from a scale fair across
  table sizes (see ``scales``); tied sides share the mean of the places spanned.
- ``game_points``: the final game totals, added up (a team's total for each member).
- ``share``: the share of the table's points, scaled so that an even share is
  1 at any table size: sides x (side's points - floor) / (sum of every side's
  points - floor x sides), where the floor is the lowest side's points when
  that is negative and 0 otherwise. Raising every side by the same amount keeps
  shares between 0 and 1 when totals go negative (bids that were set), and a table whose
  sides all end level (the sum is then 0) gives everyone an even share.
- ``wins``: a first place alone counts 1; a first place shared by k sides
  counts 1/k each.
- ``firsts``: the number of tables finished first, shared or not.

Metrics from table-mates (byes add nothing to them):

- ``opponents_strength``: over every table played, the sum of the strength of
  every opponent at the table (every table-mate outside one's own team, not
  one opponent per table); an opponent met twice counts twice.
- ``buchholz``: over every table played, the mean strength of that table's
  opponents, added up; fair when table sizes mix (a table of 10 does not count
  three times a table of 4).
- ``median_buchholz``: ``buchholz`` without its highest and its lowest round
  (only when at least three rounds were played).

A bye adds nothing to these unless the bye rule's ``opponents`` is
``virtual_opponent`` (FIDE's tie-break rule for unplayed rounds): then each bye
counts, in ``buchholz`` and ``median_buchholz``, as a round against a virtual
opponent whose strength equals the entrant's own at the end.

A strength is the opponent's standing on ``strength_of`` (a metric counted
round by round, byes included).

- ``head_to_head``: breaks a tie between exactly two entrants who met as
  opponents at a counted table: the one who finished ahead of the other more
  often ranks higher (1 against 0). Any other tie, or two entrants who never
  met or came out even, stays tied (no value).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from scoring.engines.base import Problem
from scoring.engines.registry import ENGINES
from tournaments.standings.core.scales import DEFAULT_SCALES, Scale, scale_problems


class Metric(StrEnum):
    PLACEMENT_POINTS = "placement_points"
    GAME_POINTS = "game_points"
    SHARE = "share"
    WINS = "wins"
    FIRSTS = "firsts"
    OPPONENTS_STRENGTH = "opponents_strength"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    HEAD_TO_HEAD = "head_to_head"


ROUND_METRICS: tuple[Metric, ...] = (
    Metric.PLACEMENT_POINTS,
    Metric.GAME_POINTS,
    Metric.SHARE,
    Metric.WINS,
    Metric.FIRSTS,
)
OPPONENT_METRICS: tuple[Metric, ...] = (
    Metric.OPPONENTS_STRENGTH,
    Metric.BUCHHOLZ,
    Metric.MEDIAN_BUCHHOLZ,
)

METRIC_LABELS: Mapping[Metric, str] = {
    Metric.PLACEMENT_POINTS: "Placement points",
    Metric.GAME_POINTS: "Game points",
    Metric.SHARE: "Share of table points",
    Metric.WINS: "Wins",
    Metric.FIRSTS: "Firsts",
    Metric.OPPONENTS_STRENGTH: "Opponents' strength",
    Metric.BUCHHOLZ: "Buchholz",
    Metric.MEDIAN_BUCHHOLZ: "Median Buchholz",
    Metric.HEAD_TO_HEAD: "Head to head",
}


class ByeMethod(StrEnum):
    """How a bye scores the round-by-round metrics.

    - ``own_average``: the entrant's mean over the rounds they played (when they
      have played none yet, the round's table average);
    - ``fixed``: the director's value for each metric (``ByeRule.fixed``; a
      metric left out scores 0 there, except placement points, which score the
      default scales' mean of 4, an average result);
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
        problems.append(Problem("choose at least one metric", field="metrics"))
    seen: set[str] = set()
    for metric in rules.metrics:
        if metric not in Metric.__members__.values():
            problems.append(Problem(f"unknown metric {metric!r}", field="metrics"))
        elif metric in seen:
            problems.append(Problem(f"metric {metric} is chosen twice", field="metrics"))
        seen.add(metric)
    if rules.strength_of not in ROUND_METRICS:
        allowed = ", ".join(ROUND_METRICS)
        problems.append(Problem(f"strength must be one of {allowed}", field="strength_of"))
    if rules.byes.method not in ByeMethod.__members__.values():
        problems.append(Problem(f"unknown bye method {rules.byes.method!r}", field="byes"))
    if rules.byes.opponents not in ByeOpponents.__members__.values():
        problems.append(
            Problem(f"unknown bye rule for opponents {rules.byes.opponents!r}", field="byes")
        )
    for metric in rules.byes.fixed:
        if metric not in ROUND_METRICS:
            problems.append(Problem(f"a bye cannot give a value for {metric}", field="byes"))
    problems.extend(Problem(message, field="scales") for message in scale_problems(rules.scales))
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
