"""Template tags of the phone pages: the games on offer, listed from the registry; the
round clock of an event's table, asked of the one explicit hook."""

from typing import Any

from django import template

from scoring.entry.forms import GameChoice, game_choices
from scoring.selectors import round_clock, round_clock_key

register = template.Library()


@register.simple_tag(name="game_choices")
def game_choices_tag() -> list[GameChoice]:
    return game_choices()


@register.inclusion_tag("scoring/_clock.html")
def table_clock(game: Any) -> dict[str, Any]:
    """The round clock above a tournament table's scoreboard (nothing on casual games),
    asked of ``settings.TABLESCORE_TABLE_CLOCK_HOOK`` (see ``scoring.selectors``)."""
    return {
        "clock": round_clock(
            game_id=game.pk, is_tournament_game=getattr(game, "is_tournament_game", False)
        )
    }


@register.simple_tag
def table_clock_key(game: Any) -> str:
    """The clock's key the live part carries, for the poll to send back."""
    return round_clock_key(
        game_id=game.pk, is_tournament_game=getattr(game, "is_tournament_game", False)
    )
