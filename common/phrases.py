"""Words in the reader's language, for the pure cores (no Django): a message template
marked with ``N_`` and its values kept apart until a reader's layer says them. The whole
mechanism is described once, in ``scoring.engines.base``; the pieces live here, where
every core (the engines, the bracket drawing, the season's table) may use them without
depending on another app."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["N_", "Phrase", "Seat", "Sentence", "Words", "english", "fill", "listed"]


def N_(template: str) -> str:
    """Marks a message template for the catalogue and returns it unchanged (see above)."""
    return template


class Seat(int):
    """A seat among a problem's values: counted from 0 as in the data; the outer layer shows
    it as its readers count (from 1 on a page, from 0 in the API)."""


@dataclass(frozen=True)
class Phrase:
    """A marked template and its values, translated as a whole: a value of a problem that
    is words itself ("the opponents", "team A"), or a phrase a caller composes."""

    template: str
    values: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        return fill(self.template, self.values)


class Words(str):
    """A phrase that is also its English text: for a core whose callers keep plain strings
    (titles and labels of a drawing). Compares, prints and joins as the English; the outer
    layer reads ``template`` and ``values`` and says it in the reader's language."""

    template: str
    values: Mapping[str, Any]

    def __new__(cls, template: str, values: Mapping[str, Any] | None = None) -> Words:
        given = dict(values or {})
        made = super().__new__(cls, fill(template, given))
        made.template = template
        made.values = given
        return made


class Sentence(Words):
    """Words read as a sentence: its first letter a capital in every language (the outer
    layer capitalizes what the reader's language says)."""

    def __new__(cls, template: str, values: Mapping[str, Any] | None = None) -> Sentence:
        given = dict(values or {})
        text = fill(template, given)
        made = str.__new__(cls, text[:1].upper() + text[1:])
        made.template = template
        made.values = given
        return made


def listed(parts: Sequence[Any], separator: str = "; ", *, sentence: bool = False) -> Words:
    """Parts said one after another, each in the reader's language (a ``Phrase``, ``Words``
    or a name), between separators that are no language's words ("; ", ", "): a line of
    several facts, as a deal's summary is; a ``Sentence`` when ``sentence``."""
    places = {f"part{index}": part for index, part in enumerate(parts)}
    escaped = separator.replace("{", "{{").replace("}", "}}")
    kind = Sentence if sentence else Words
    return kind(escaped.join("{" + name + "}" for name in places), places)


def fill(template: str, values: Mapping[str, Any]) -> str:
    """The English text: the template's places filled with the values (a template with no
    values is its own text, braces and all)."""
    if not values:
        return template
    return template.format(**{name: english(value) for name, value in values.items()})


def english(value: Any) -> Any:
    if isinstance(value, Words):
        return str.__str__(value)
    if isinstance(value, Phrase):
        return str(value)
    if isinstance(value, Seat):
        return int(value)
    message = getattr(value, "message", None)  # a nested problem, said in English
    return message if isinstance(message, str) else value
