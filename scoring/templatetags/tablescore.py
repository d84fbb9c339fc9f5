"""Template tags of the phone pages: the games on offer, listed from the registry."""

from django import template

from scoring.entry.forms import GameChoice, game_choices

register = template.Library()


@register.simple_tag(name="game_choices")
def game_choices_tag() -> list[GameChoice]:
    return game_choices()
