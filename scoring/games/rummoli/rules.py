"""The rules card of Rummoli, in our own words (each line in the reader's language)."""

from functools import partial

from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engines.rummoli import deal_phrase, most_cards_held
from scoring.games.kit import RulesCard, RuleSection
from scoring.wording import said


def _deal_line(players: int) -> str:
    """How the 52 cards fall at a table of ``players``: "6 players: three hands of 8 and..."."""
    return gettext("{players} players: {deal}.").format(
        players=players, deal=said(deal_phrase(players))
    )


DEAL_BY_COUNT = tuple(lazy(partial(_deal_line, n), str)() for n in range(2, 9))

RULES = RulesCard(
    summary=_(
        "A chip game for 2 to 8 players on a board of nine sections; chips in hand are the score."
    ),
    sections=(
        RuleSection(
            _("A hand"),
            (
                _("Everyone still in puts one chip (the ante) on each of the nine sections."),
                _("The widow: the dealer may swap hands with it, or sell it to another player."),
                _(
                    "Poker: the best poker hand takes the poker section; a split shares it, and "
                    "an odd chip stays. Nobody winning leaves it for the next hand."
                ),
                _(
                    "Pay cards: whoever lays the 10♠, J♦, Q♣, K♥, A♠, both A♦ and K♦, or 7-8-9 "
                    "of one suit takes that section. A section nobody claims carries over."
                ),
                _(
                    "Going out: the first to play every card takes the centre (Rummoli), and "
                    "each other player pays them one chip per card left. If nobody can go out, "
                    "everyone pays their cards into the centre instead."
                ),
            ),
        ),
        RuleSection(
            _("The deal and the cards left"),
            (
                _(
                    "The 52 cards are dealt one at a time to the players still in and the widow "
                    "(one hand more), so the hands are:"
                ),
                *DEAL_BY_COUNT,
                format_lazy(
                    _(
                        "Whoever takes the widow keeps its size, and the hand set aside is one of "
                        "the deal's: so with 6 players at most three players can end a hand still "
                        "holding {cards} cards."
                    ),
                    cards=most_cards_held(6),
                ),
                _(
                    "The poker winner leads the first card, so they end with at most one card "
                    "less than the largest hand, and a deadlock always comes after at least that "
                    "card (with 2 players a deadlock leaves them 34 cards at most, never 18 and "
                    "17)."
                ),
            ),
        ),
        RuleSection(
            _("Running out of chips"),
            (
                _(
                    "A player pays what they can; at 0 before a hand they are out of the game "
                    "(unless debts were allowed at the start)."
                ),
            ),
        ),
        RuleSection(
            _("The end"),
            (
                _(
                    "When you stop, the chips left on the board go to one player (by the cut, or "
                    "the last poker hand). Most chips wins."
                ),
            ),
        ),
    ),
)
