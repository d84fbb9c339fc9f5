"""The one error a tournament change raises when the director asked for something it cannot do.

Its ``problems`` name the field (and the round, where there is one), for the page to show
next to that field. Anything else raised by a tournament service is a bug.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
