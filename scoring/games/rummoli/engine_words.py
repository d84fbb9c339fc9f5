"""The words of the Rummoli engine that a person reads, marked for the catalogue (how
and why: ``scoring.games.kit``, beside ``OPTION_WORDS``)."""

from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext_lazy

WORDS = (
    # Options: their help.
    N_("Chips each player holds when the game begins."),
    N_("Chips each player puts on every one of the nine sections at the start of a hand."),
    N_(
        "Showdown: the best poker hand takes the poker pot. Betting: players bet into the pot "
        "first, then the best hand takes it."
    ),
    N_(
        "Pay what you can: a short player pays what they have and is out at 0 chips. Debt: "
        "chips may go below zero."
    ),
)

OPTION_LABELS = (
    pgettext_lazy("a game option", "Starting chips"),
    pgettext_lazy("a game option", "Ante"),
    pgettext_lazy("a game option", "Poker method"),
    pgettext_lazy("a game option", "showdown"),
    pgettext_lazy("a game option", "betting"),
    pgettext_lazy("a game option", "Running out of chips"),
    pgettext_lazy("a game option", "pay what you can"),
    pgettext_lazy("a game option", "debt"),
)

COLUMNS = (
    pgettext_lazy("a printed column", "Cards left"),
    pgettext_lazy("a printed column", "Out"),
    pgettext_lazy("a printed column", "Pay cards"),
    pgettext_lazy("a printed column", "Poker"),
    pgettext_lazy("a printed column", "Widow"),
)
