"""The rules card of Roolz, in our own words (each line in the reader's language)."""

import re
from functools import partial

from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engines.base import OptionSpec
from scoring.engines.roolz import Roolz
from scoring.games.kit import RulesCard, RuleSection, option_words


def _counts(counts: tuple[int, ...]) -> str:
    *rest, last = counts
    if not rest:
        return str(last)
    return gettext("{some} or {last}").format(some=", ".join(map(str, rest)), last=last)


def _by_count(spec: OptionSpec) -> str:
    """An option the rules give only some table sizes, as the engine describes it."""
    option = re.sub(r"\s*\(.*\)$", "", option_words(spec.label))
    return gettext("{option}: with {counts} players only.").format(
        option=option, counts=_counts(spec.player_counts or ())
    )


BY_COUNT = tuple(
    lazy(partial(_by_count, spec), str)() for spec in Roolz().option_specs() if spec.player_counts
)

RULES = RulesCard(
    summary=_(
        "A bidding game for 2 to 6 players: six suits, two Roolerz, 300 points in every deal."
    ),
    sections=(
        RuleSection(
            _("A deal"),
            (
                _(
                    "The deal passes to the left. Bidding starts left of the dealer and goes "
                    "round in steps of 5, from 170 up to 300; a player who passes is out of the "
                    "bidding."
                ),
                _(
                    "The highest bidder takes the widow, then discards as many cards, never a "
                    "point card."
                ),
                _(
                    "Point cards: each 15 is worth 15, each 14 and each 10 is 10, each 5 is 5, "
                    "each Rooler 30: 300 in all."
                ),
            ),
        ),
        RuleSection(
            _("Sides"),
            (
                _(
                    "Four players: partners sit across (team A against team B). Six: three "
                    "teams of two, or two teams of three, as chosen at the start."
                ),
                _(
                    "Two or three players keep their own scores; with three, the other two play "
                    "together against the bidder."
                ),
                _(
                    "Five players: the bidder calls a card and its holder is the partner for "
                    "the deal. If that card is in the low hand the bidder plays alone against "
                    "four (a twofer)."
                ),
            ),
        ),
        RuleSection(
            _("Scoring"),
            (
                _(
                    "The bidding side scores the points it took if they reach the bid; "
                    "otherwise it loses the bid (scores can go below zero)."
                ),
                _("Every other side scores the points it took."),
                _("A side that takes every trick gets 100 more (a twofer that does: 200 more)."),
                _("Penalties are taken off the offender's side."),
            ),
        ),
        RuleSection(
            _("Options for some table sizes"),
            (
                *BY_COUNT,
                _("A game of another size is not offered them, and a record using one is refused."),
            ),
        ),
        RuleSection(
            _("The end"),
            (
                _(
                    "The game ends after the deal in which a side reaches the target (1000 "
                    "unless chosen otherwise): the highest total wins; a tie at the top plays on."
                ),
            ),
        ),
    ),
)
