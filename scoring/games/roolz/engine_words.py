"""The words of the Roolz engine that a person reads, marked for the catalogue (how
and why: ``scoring.games.kit``, beside ``OPTION_WORDS``)."""

from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext_lazy

WORDS = (
    # Options: their help.
    N_("The game ends after a round in which someone reaches this score."),
    N_("You can only win the game in a round where your side bid and made it."),
    N_(
        "No fixed teams: the bidder calls a card and its holder is the partner for that round; "
        "scores are kept individually."
    ),
    N_(
        "teams: two teams of three; two_calls: the bidder calls two cards, scores kept "
        "individually; three_pairs: three teams of two, bidding starts at 110."
    ),
    N_(
        "The bidder may discard point cards, so a side can take every trick without holding "
        "all 300 points."
    ),
    N_(
        "Blanks score 20 (15 with 5-6 players) and Roolerz the same; a round still holds 300 "
        "points."
    ),
    N_("The first trump played breaks both trumps."),
    N_("Trump may be led without being broken first."),
    N_("A player out of the led suit who holds trump must trump."),
    N_("The dealer names a number of cards everyone passes before trumps are named."),
    N_("Whoever holds the blank card leads it to the first trick."),
    N_(
        "A player whose highest card is 12 or lower may call a misdeal (never on the strength "
        "of a low hand) and the cards are dealt again. The rules allow this with 2, 3 or 4 "
        "players only, so it is not offered with 5 or 6. At every table size a dealing error is "
        "still recorded as a misdeal: nobody scores and the same dealer deals again."
    ),
)

OPTION_LABELS = (
    pgettext_lazy("a game option", "Target score"),
    pgettext_lazy("a game option", "Win only on a made bid"),
    pgettext_lazy("a game option", "Called partner (4 players)"),
    pgettext_lazy("a game option", "Six-player game"),
    pgettext_lazy("a game option", "teams"),
    pgettext_lazy("a game option", "two calls"),
    pgettext_lazy("a game option", "three pairs"),
    pgettext_lazy("a game option", "Point cards may be discarded"),
    pgettext_lazy("a game option", "Blank cards score"),
    pgettext_lazy("a game option", "One trump breaks both"),
    pgettext_lazy("a game option", "Lead trump any time"),
    pgettext_lazy("a game option", "No sloughing"),
    pgettext_lazy("a game option", "Pass cards"),
    pgettext_lazy("a game option", "Blank card leads"),
    pgettext_lazy("a game option", "Misdeals on weak hands"),
)

COLUMNS = (
    pgettext_lazy("a printed column", "All tricks"),
    pgettext_lazy("a printed column", "Bid"),
    pgettext_lazy("a printed column", "Bidder"),
    pgettext_lazy("a printed column", "Partner"),
    pgettext_lazy("a printed column", "Partners"),
    pgettext_lazy("a printed column", "Penalty"),
    pgettext_lazy("a printed column", "Won"),
)
