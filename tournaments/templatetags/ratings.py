"""Ratings beside names on the desk: ``{% entrant_ratings event as ratings %}`` then
``{{ ratings|rating_of:entrant.pk }}`` (empty when the entrant has no rating)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.club.selectors import entrant_ratings as read_ratings

register = template.Library()


@register.simple_tag(name="entrant_ratings")
def entrant_ratings(event: Any) -> dict[int, str]:
    return read_ratings(event=event)


@register.filter(name="rating_of")
def rating_of(ratings: dict[int, str] | None, entrant_id: Any) -> str:
    return (ratings or {}).get(entrant_id, "")
