"""The words of the Roller Derby engine that a person reads, marked for the catalogue (how
and why: ``scoring.games.kit``, beside ``OPTION_WORDS``)."""

from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext_lazy

WORDS = (
    # Options: their help.
    N_("A short game is 4 deals, a long game 8 deals."),
    N_("Roll one twelve-sided die (1-12) instead of two six-sided dice."),
    N_("The Roller may buy one or two Jokers after naming trump, each costing points."),
    N_("Points taken off the Roller's team's score for each Joker bought."),
    N_("The deal passes to the right and the Roller is the player right of the dealer."),
    N_("Before the final deal, a lead of more than this may end the game; empty: never."),
    N_("The Roller sees the partner's three cards before choosing which to give back."),
)

OPTION_LABELS = (
    pgettext_lazy("a game option", "Game length"),
    pgettext_lazy("a game option", "Dodecahedron"),
    pgettext_lazy("a game option", "Jokers for sale"),
    pgettext_lazy("a game option", "Joker cost"),
    pgettext_lazy("a game option", "Counter-clockwise"),
    pgettext_lazy("a game option", "Early finish gap"),
    pgettext_lazy("a game option", "Roller's privilege"),
)

COLUMNS = (
    pgettext_lazy("a printed column", "A/N"),
    pgettext_lazy("a printed column", "Dice"),
    pgettext_lazy("a printed column", "Die"),
    pgettext_lazy("a printed column", "Jokers"),
    pgettext_lazy("a printed column", "Made"),
    pgettext_lazy("a printed column", "Pen."),
    pgettext_lazy("a printed column", "Tricks"),
)
