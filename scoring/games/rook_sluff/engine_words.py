"""The words of the Rook Sluff engine that a person reads, marked for the catalogue (how
and why: ``scoring.games.kit``, beside ``OPTION_WORDS``)."""

from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext_lazy

WORDS = (
    # Options: their help.
    N_(
        "How many deals the game lasts (1 to 60). Leave empty for one deal per player, so that "
        "everyone deals once."
    ),
    N_(
        "Points a team gains for each Sluff that takes no trick, and loses for each Sluff that "
        "takes a trick."
    ),
    N_(
        "Four players with one 56-card Rook deck (birds removed): 14 tricks a deal, teams of "
        "two, much like Spades."
    ),
)

OPTION_LABELS = (
    pgettext_lazy("a game option", "Deals"),
    pgettext_lazy("a game option", "Sluff bonus"),
    pgettext_lazy("a game option", "Single deck (4 players)"),
)

COLUMNS = (
    pgettext_lazy("a printed column", "Bid"),
    pgettext_lazy("a printed column", "Pen."),
    pgettext_lazy("a printed column", "Took"),
)
