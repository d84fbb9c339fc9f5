"""Brackets: two-team elimination (single, double) and table elimination.

Plain data in, plain data out. A bracket is stored as its inputs; its state
(seats, what is ready, placements) and its layout are derived from them.
"""

from __future__ import annotations

from .changes import override_advancement, report_result, report_results
from .layout import (
    BracketLayout,
    LayoutColumn,
    LayoutMatch,
    LayoutSeat,
    LayoutSection,
    bracket_layout,
)
from .state import (
    BracketFatalError,
    BracketState,
    BracketUserError,
    Cut,
    DrawRule,
    Feed,
    GrandFinal,
    MatchView,
    Override,
    Placement,
    Result,
    Seeding,
    Status,
    cut_to_top,
    seed_field,
)
from .tables import TableBracket, TableRules, round_plan, table_elimination
from .two_team import (
    EliminationBracket,
    Format,
    double_elimination,
    single_elimination,
    standard_positions,
)

Bracket = EliminationBracket | TableBracket


def bracket_state(bracket: Bracket) -> BracketState:
    """Everything derived from a bracket's inputs: seats, ready matches, placements."""
    return bracket.state()


__all__ = [
    "Bracket",
    "BracketFatalError",
    "BracketLayout",
    "BracketState",
    "BracketUserError",
    "Cut",
    "DrawRule",
    "EliminationBracket",
    "Feed",
    "Format",
    "GrandFinal",
    "LayoutColumn",
    "LayoutMatch",
    "LayoutSeat",
    "LayoutSection",
    "MatchView",
    "Override",
    "Placement",
    "Result",
    "Seeding",
    "Status",
    "TableBracket",
    "TableRules",
    "bracket_layout",
    "bracket_state",
    "cut_to_top",
    "double_elimination",
    "override_advancement",
    "report_result",
    "report_results",
    "round_plan",
    "seed_field",
    "single_elimination",
    "standard_positions",
    "table_elimination",
]
