"""The rules card of Roller Derby, in our own words (each line in the reader's language)."""

from django.utils.translation import gettext_lazy as _

from scoring.games.kit import RulesCard, RuleSection

RULES = RulesCard(
    summary=_(
        "Four players in two teams; the dice set how many tricks the Roller's team must take."
    ),
    sections=(
        RuleSection(
            _("A deal"),
            (
                _(
                    "Partners sit across. The player left of the dealer is the Roller and rolls "
                    "the dice (two six-sided, or one twelve-sided): their sum is the target."
                ),
                _(
                    "The Roller's team tries to take exactly that many of the 13 tricks. Only "
                    "the Roller's team scores in a deal."
                ),
            ),
        ),
        RuleSection(
            _("Scoring"),
            (
                _("100, less 10 for each trick away from the target (never below 0)."),
                _("Jokers, when sold, cost their price each from that score."),
                _(
                    "All or nothing, once per team per game: 150 if the team makes its call, 0 "
                    "if not."
                ),
                _("Penalties are taken off the offender's team."),
            ),
        ),
        RuleSection(
            _("The end"),
            (
                _(
                    "After 4 deals (8 in a long game). If the teams are far apart before the "
                    "last deal (150 points unless chosen otherwise), the game may end there."
                ),
                _("The higher total wins; equal totals are a draw."),
            ),
        ),
    ),
)
