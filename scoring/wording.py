"""Problems and phrases of the cores in the reader's language (the outer half of the one
mechanism described in ``scoring.engines.base``).

A template is looked up in the active language's catalogue (Django's gettext: the
language LocaleMiddleware chose for this request), each ``Phrase`` value the same way, a
``Seat`` shown as this reader counts seats, and only then are the places filled. A
message that came without values (a core not moved to templates yet) is its English text,
looked up as it is; seats in it are renumbered as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, npgettext

from common.phrases import Phrase, Seat, Sentence, Words
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
        return phrase_said(value, seats_from=seats_from)
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
        return phrase_said(phrase)
    return phrase


def phrase_said(phrase: Phrase | Words, *, seats_from: int = 0) -> str:
    text = phrase_text(phrase.template, phrase.values, seats_from=seats_from)
    return text[:1].upper() + text[1:] if isinstance(phrase, Sentence) else text


def words(text: Phrase | str) -> str:
    """A text a core marked and a page shows (a field's label, its help): a ``Phrase`` or
    ``Words`` said in the reader's language, a plain marked template looked up as it is
    (itself when the catalogue has none)."""
    if isinstance(text, Phrase | Words):
        return phrase_said(text)
    return translated(text)


# A game's word for one round of play ("Deal", "Hand": ``Engine.round_word``) as a page says
# it in the reader's language, alone or counted (the reader's language says when it is
# plural: French counts 0 as one).
ROUND_WORDS: dict[str, Callable[[int], str]] = {
    "Deal": lambda count: npgettext("rounds of play", "deal", "deals", count),
    "Hand": lambda count: npgettext("rounds of play", "hand", "hands", count),
    "Round": lambda count: npgettext("rounds of play", "round", "rounds", count),
}


def said_word(word: object) -> str:
    """One round of play in the reader's language, in lower case ("donne")."""
    return said_words(word, 1)


def said_words(word: object, count: int = 2) -> str:
    """Rounds of play in the reader's language, in lower case ("donnes"), as many as
    ``count`` (by default more than one)."""
    known = ROUND_WORDS.get(str(word))
    if known is not None:
        return known(int(count))
    return str(word).lower() if int(count) == 1 else f"{str(word).lower()}s"


def number_said(text: str) -> str:
    """A number written out plainly ("70.63", "12") as the reader's language writes it
    (70,63 in French); anything else (a dash for no value) as it is."""
    try:
        number = Decimal(text)
    except InvalidOperation:
        return text
    return number_format(number)
