"""The club's refusals: a change the director asked for that cannot be made."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.engines.base import Problem


class ClubError(Exception):
    """A change the director asked for that cannot be made; ``problems`` name the field."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @classmethod
    def single(cls, template: str, *, field: str | None = None, **values: Any) -> ClubError:
        """One problem: ``template`` marked with ``N_``, filled with ``values`` for each
        reader (see scoring.engines.base)."""
        return cls([Problem(template, field=field, values=values)])
