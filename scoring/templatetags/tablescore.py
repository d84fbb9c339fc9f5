"""Template tags of the phone pages: the games on offer, listed from the registry; the
round clock of an event's table, asked of the one explicit hook."""

from typing import Any

from django import template
from django.conf import settings
from django.utils.module_loading import import_string

from scoring.entry.forms import GameChoice, game_choices

register = template.Library()


@register.simple_tag(name="game_choices")
def game_choices_tag() -> list[GameChoice]:
    return game_choices()


@register.inclusion_tag("scoring/_clock.html")
def table_clock(game: Any) -> dict[str, Any]:
    """The round clock above a tournament table's scoreboard (nothing on casual games).

    Scoring knows nothing of events: ``settings.TABLESCORE_TABLE_CLOCK_HOOK`` names a
    function ``hook(*, game_id: int)`` answering the clock (``state``, ``seconds_left``,
    ``label``) or None.
    """
    path = getattr(settings, "TABLESCORE_TABLE_CLOCK_HOOK", "")
    if not path or not getattr(game, "is_tournament_game", False):
        return {"clock": None}
    return {"clock": import_string(path)(game_id=game.pk)}
