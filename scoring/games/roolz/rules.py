"""The rules card of Roolz, in our own words."""

from scoring.engines.roolz import Roolz
from scoring.games.kit import RulesCard, RuleSection


def _counts(counts: tuple[int, ...]) -> str:
    *rest, last = counts
    return f"{', '.join(map(str, rest))} or {last}" if rest else str(last)


# Options the rules give only some table sizes, as the engine describes them.
BY_COUNT = tuple(
    f"{spec.label.split(' (')[0]}: with {_counts(spec.player_counts)} players only."
    for spec in Roolz().option_specs()
    if spec.player_counts
)

RULES = RulesCard(
    summary="A bidding game for 2 to 6 players: six suits, two Roolerz, 300 points in every deal.",
    sections=(
        RuleSection(
            "A deal",
            (
                "The deal passes to the left. Bidding starts left of the dealer and goes round "
                "in steps of 5, from 170 up to 300; a player who passes is out of the bidding.",
                "The highest bidder takes the widow, then discards as many cards, never a point "
                "card.",
                "Point cards: each 15 is worth 15, each 14 and each 10 is 10, each 5 is 5, "
                "each Rooler 30: 300 in all.",
            ),
        ),
        RuleSection(
            "Sides",
            (
                "Four players: partners sit across (team A against team B). Six: three teams "
                "of two, or two teams of three, as chosen at the start.",
                "Two or three players keep their own scores; with three, the other two play "
                "together against the bidder.",
                "Five players: the bidder calls a card and its holder is the partner for the "
                "deal. If that card is in the low hand the bidder plays alone against four "
                "(a twofer).",
            ),
        ),
        RuleSection(
            "Scoring",
            (
                "The bidding side scores the points it took if they reach the bid; otherwise "
                "it loses the bid (scores can go below zero).",
                "Every other side scores the points it took.",
                "A side that takes every trick gets 100 more (a twofer that does: 200 more).",
                "Penalties are taken off the offender's side.",
            ),
        ),
        RuleSection(
            "Options for some table sizes",
            (
                *BY_COUNT,
                "A game of another size is not offered them, and a record using one is refused.",
            ),
        ),
        RuleSection(
            "The end",
            (
                "The game ends after the deal in which a side reaches the target (1000 unless "
                "chosen otherwise): the highest total wins; a tie at the top plays on.",
            ),
        ),
    ),
)
