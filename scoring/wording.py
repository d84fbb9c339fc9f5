"""Problems and phrases of the cores in the reader's language (the outer half of the one
mechanism described in ``scoring.engines.base``).

A template is looked up in the active language's catalogue (Django's gettext: the
language LocaleMiddleware chose for this request), each ``Phrase`` value the same way, a
``Seat`` shown as this reader counts seats, and only then are the places filled. A
message that came without values (a core not moved to templates yet) is its English text,
looked up as it is; seats in it are renumbered as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from common.phrases import Phrase, Seat, Words
from scoring.engines.base import Problem, deal_words, seats_from_one


def translated(template: str) -> str:
    """``template`` in the active language (itself when the catalogue has none)."""
    return gettext(template) if template else template


def phrase_text(template: str, values: Mapping[str, Any], *, seats_from: int = 0) -> str:
    """A template and its values as the reader reads them."""
    text = translated(template)
    if not values:
        return seats_from_one(text) if seats_from == 1 else text
    shown = {name: value_text(value, seats_from=seats_from) for name, value in values.items()}
    return text.format(**shown)


def value_text(value: Any, *, seats_from: int = 0) -> Any:
    if isinstance(value, Problem):
        return problem_text(value, seats_from=seats_from)
    if isinstance(value, Phrase | Words):
        return phrase_text(value.template, value.values, seats_from=seats_from)
    if isinstance(value, Seat):
        return int(value) + seats_from
    return value


def problem_text(problem: Problem, *, seats_from: int = 0) -> str:
    """One problem's message in the reader's language: ``seats_from`` 1 on a page (people
    count seats from 1), 0 in the API (its data counts from 0)."""
    text = phrase_text(problem.template, problem.values, seats_from=seats_from)
    return deal_words(text) if problem.of_deals else text


def problems_text(problems: Sequence[Problem], *, seats_from: int = 1) -> str:
    """Problems as one line for a notice."""
    return "; ".join(problem_text(p, seats_from=seats_from) for p in problems)


def problem_dict(problem: Problem) -> dict[str, Any]:
    """A problem as the JSON API answers it, its message in the reader's language."""
    return {"round": problem.round, "field": problem.field, "message": problem_text(problem)}


def said(phrase: Phrase | str) -> str:
    """A ``Phrase`` or ``Words`` in the reader's language; any other text (a name) is
    itself."""
    if isinstance(phrase, Phrase | Words):
        return phrase_text(phrase.template, phrase.values)
    return phrase
