"""The rules card of Rook Sluff, in our own words (each line in the reader's language)."""

from django.utils.translation import gettext_lazy as _

from scoring.games.kit import RulesCard, RuleSection

RULES = RulesCard(
    summary=_("Two teams in alternate seats (6, 8 or 10 players) bid the tricks they will take."),
    sections=(
        RuleSection(
            _("A deal"),
            (
                _(
                    "There are 14 tricks a deal (11 with 10 players). Teams alternate round the "
                    "table: A in the first, third, fifth seats, B in the others."
                ),
                _(
                    "Before play each player bids the tricks they mean to take, from the "
                    "dealer's left. A bid of 0 is a Sluff: a promise to take no trick at all."
                ),
                _(
                    "After play, count the tricks each player took: together they make every "
                    "trick of the deal."
                ),
            ),
        ),
        RuleSection(
            _("Scoring"),
            (
                _("A team's bid is the sum of its players' bids, and so are its tricks."),
                _(
                    "A team that takes at least its bid scores 10 for each trick bid, plus 1 for "
                    "each trick over. A team that falls short scores nothing."
                ),
                _(
                    "Each sluffer who took no trick earns their team 50; a sluffer who took one "
                    "costs their team 50."
                ),
                _("Penalties are taken off the offender's team."),
            ),
        ),
        RuleSection(
            _("The end"),
            (_("After as many deals as there are players (or as agreed): the higher total wins."),),
        ),
    ),
)
