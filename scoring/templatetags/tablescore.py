"""Template tags of the phone pages: the games on offer, listed from the registry; the
round clock of an event's table, asked of the one explicit hook."""

from typing import Any

from django import template

from scoring import selectors
from scoring.entry import fields
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


@register.filter
def said_word(word: object) -> str:
    """One round of play in the reader's language, in lower case ("donne")."""
    return fields.said_word(word)


@register.filter
def said_words(word: object, count: int = 2) -> str:
    """Rounds of play in the reader's language, in lower case ("donnes"), as many as
    ``count`` (by default more than one)."""
    return fields.said_words(word, count)
