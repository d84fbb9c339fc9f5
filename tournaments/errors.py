"""The one error a tournament change raises when the director asked for something it cannot do.

Its ``problems`` name the field (and the round, where there is one), for the page to show
next to that field. Anything else raised by a tournament service is a bug.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from common.phrases import Phrase, Seat, Words
from scoring.engines.base import Problem


class TournamentError(Exception):
    """A change the director asked for that cannot be made; ``problems`` name the field."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @classmethod
    def single(
        cls,
        template: str,
        *,
        field: str | None = None,
        round_number: int | None = None,
        **values: Any,
    ) -> TournamentError:
        """One problem: ``template`` marked with ``N_``, filled with ``values`` for each
        reader (see scoring.engines.base)."""
        return cls([Problem(template, round_number, field, values)])


def refuse(problems: list[Problem]) -> None:
    """Raise the problems found by a check, if there are any."""
    if problems:
        raise TournamentError(problems)


def listed(phrases: Iterable[Phrase | str], separator: str = ", ") -> Phrase:
    """Phrases (or names) joined by commas, each said in the reader's language: the joining
    template is no sentence of its own, so the catalogue has none and it stays as it is."""
    items = list(phrases)
    return Phrase(
        separator.join(f"{{item{i}}}" for i in range(len(items))),
        {f"item{i}": item for i, item in enumerate(items)},
    )


def stored_value(value: Any) -> Any:
    """A problem's value as JSON keeps it: words as their template and values (said again
    in each reader's language when read back), a seat as its number, anything else as it is
    when JSON takes it, else its text."""
    if isinstance(value, Problem):
        return {"template": value.template, "values": stored_values(value.values)}
    if isinstance(value, Phrase | Words):
        return {"template": value.template, "values": stored_values(value.values)}
    if isinstance(value, Seat):
        return int(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def stored_values(values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: stored_value(value) for name, value in values.items()}


def stored_problems(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    """Problems as a stored record keeps them (a failed job's refusal): each template with
    its values apart, so that it is shown in the language of whoever reads it later."""
    return [
        {
            "template": p.template,
            "values": stored_values(p.values),
            "field": p.field,
            "round": p.round,
        }
        for p in problems
    ]


def _read_value(value: Any) -> Any:
    if isinstance(value, Mapping) and isinstance(value.get("template"), str):
        values = value.get("values")
        return Phrase(
            value["template"],
            {k: _read_value(v) for k, v in values.items()} if isinstance(values, Mapping) else {},
        )
    return value


def read_stored(value: Any) -> Any:
    """A value kept by ``stored_value``: words kept as their template and values become a
    phrase again (said in the reader's language), anything else (an English text stored
    before words were kept so) stays as it is."""
    return _read_value(value)


def read_problems(stored: Any) -> list[Problem]:
    """Problems kept by ``stored_problems`` (anything else: none)."""
    if not isinstance(stored, list):
        return []
    found = []
    for item in stored:
        if not isinstance(item, Mapping) or not isinstance(item.get("template"), str):
            continue
        values = item.get("values")
        round_number = item.get("round")
        field = item.get("field")
        found.append(
            Problem(
                item["template"],
                round_number if isinstance(round_number, int) else None,
                field if isinstance(field, str) else None,
                {k: _read_value(v) for k, v in values.items()}
                if isinstance(values, Mapping)
                else {},
            )
        )
    return found
