"""The rules card of Rummoli, in our own words."""

from scoring.engines.rummoli import deal_text, most_cards_held
from scoring.games.kit import RulesCard, RuleSection

DEAL_BY_COUNT = tuple(f"{n} players: {deal_text(n)}." for n in range(2, 9))

RULES = RulesCard(
    summary=(
        "A chip game for 2 to 8 players on a board of nine sections; chips in hand are the score."
    ),
    sections=(
        RuleSection(
            "A hand",
            (
                "Everyone still in puts one chip (the ante) on each of the nine sections.",
                "The widow: the dealer may swap hands with it, or sell it to another player.",
                "Poker: the best poker hand takes the poker section; a split shares it, and an "
                "odd chip stays. Nobody winning leaves it for the next hand.",
                "Pay cards: whoever lays the 10♠, J♦, Q♣, K♥, A♠, both A♦ and K♦, or 7-8-9 "
                "of one suit takes that section. A section nobody claims carries over.",
                "Going out: the first to play every card takes the centre (Rummoli), and each "
                "other player pays them one chip per card left. If nobody can go out, everyone "
                "pays their cards into the centre instead.",
            ),
        ),
        RuleSection(
            "The deal and the cards left",
            (
                "The 52 cards are dealt one at a time to the players still in and the widow "
                "(one hand more), so the hands are:",
                *DEAL_BY_COUNT,
                "Whoever takes the widow keeps its size, and the hand set aside is one of the "
                "deal's: so with 6 players at most three players can end a hand still holding "
                f"{most_cards_held(6)} cards.",
                "The poker winner leads the first card, so they end with at most one card less "
                "than the largest hand, and a deadlock always comes after at least that card "
                "(with 2 players a deadlock leaves them 34 cards at most, never 18 and 17).",
            ),
        ),
        RuleSection(
            "Running out of chips",
            (
                "A player pays what they can; at 0 before a hand they are out of the game "
                "(unless debts were allowed at the start).",
            ),
        ),
        RuleSection(
            "The end",
            (
                "When you stop, the chips left on the board go to one player (by the cut, or "
                "the last poker hand). Most chips wins.",
            ),
        ),
    ),
)
