"""Template tags of the phone pages: the games on offer, listed from the registry; the
round clock of an event's table, asked of the one explicit hook."""

from collections.abc import Callable
from typing import Any

from django import template
from django.utils.translation import npgettext

from scoring import selectors
from scoring.entry.forms import GameChoice, game_choices

register = template.Library()


@register.simple_tag(name="game_choices")
def game_choices_tag() -> list[GameChoice]:
    return game_choices()


@register.inclusion_tag("scoring/_clock.html")
def table_clock(game: Any) -> dict[str, Any]:
    """The round clock above a tournament table's scoreboard (nothing on casual games),
    asked of ``settings.TABLESCORE_TABLE_CLOCK_HOOK`` (see ``scoring.selectors``)."""
    return {
        "clock": selectors.table_clock(
            game_id=game.pk, is_tournament_game=getattr(game, "is_tournament_game", False)
        )
    }


@register.simple_tag
def table_clock_key(game: Any) -> str:
    """The clock's key the live part carries, for the poll to send back."""
    return selectors.table_clock_key(
        game_id=game.pk, is_tournament_game=getattr(game, "is_tournament_game", False)
    )


# A game's word for one round of play ("Deal", "Hand": ``Engine.round_word``) as a page says
# it in the reader's language, alone or counted (the reader's language says when it is
# plural: French counts 0 as one).
ROUND_WORDS: dict[str, Callable[[int], str]] = {
    "Deal": lambda count: npgettext("rounds of play", "deal", "deals", count),
    "Hand": lambda count: npgettext("rounds of play", "hand", "hands", count),
    "Round": lambda count: npgettext("rounds of play", "round", "rounds", count),
}


@register.filter
def said_word(word: object) -> str:
    """One round of play in the reader's language, in lower case ("donne")."""
    return said_words(word, 1)


@register.filter
def said_words(word: object, count: int = 2) -> str:
    """Rounds of play in the reader's language, in lower case ("donnes"), as many as
    ``count`` (by default more than one)."""
    known = ROUND_WORDS.get(str(word))
    if known is not None:
        return known(int(count))
    return str(word).lower() if int(count) == 1 else f"{str(word).lower()}s"
