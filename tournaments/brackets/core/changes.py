"""Recording a table's result or a director's override, for any kind of bracket.

Both return a new bracket (its inputs plus the change); the caller stores it
and, for an override, writes the returned record to its audit trail.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from common.phrases import N_, Words

from .state import (
    A_RESULT,
    AN_OVERRIDE,
    BracketState,
    BracketUserError,
    DrawRule,
    Override,
    Result,
    Status,
    break_ties,
    check_changeable,
    check_finish,
)

# An override's reason: at most this many characters, and some of them visible.
REASON_LONGEST = 500
# Characters that show nothing: spaces and separators, controls, and format characters
# such as the zero-width space and joiners.
_INVISIBLE = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me", "Co", "Cn", "Cs"})


def reason_problem(reason: str) -> Words | None:
    """What is wrong with an override's reason, or None when it will do."""
    text = reason.strip()
    if not any(unicodedata.category(ch) not in _INVISIBLE for ch in text):
        return Words(N_("an override needs a reason"))
    if len(text) > REASON_LONGEST:
        return Words(N_("the reason is at most {most} characters"), {"most": REASON_LONGEST})
    if any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in text):
        return Words(N_("the reason holds characters that cannot be shown"))
    return None


class StoredBracket(Protocol):
    @property
    def seeds(self) -> tuple[str, ...]: ...
    @property
    def draw_rule(self) -> DrawRule: ...
    @property
    def seed(self) -> int: ...
    @property
    def results(self) -> tuple[Result, ...]: ...
    @property
    def overrides(self) -> tuple[Override, ...]: ...
    def state(self) -> BracketState: ...


B = TypeVar("B", bound=StoredBracket)


def _as_finish(finish: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple((item,) if isinstance(item, str) else tuple(item) for item in finish)


def report_result(bracket: B, result: Result, *, correction: bool = False) -> B:
    """The bracket with ``result`` recorded; its state then shows who advanced.

    A match that already has a result takes a new one only as a ``correction``,
    and only while no later match has been played with its outcome.
    """
    return report_results(bracket, [result], correction=correction)


def report_results(bracket: B, results: Sequence[Result], *, correction: bool = False) -> B:
    """The bracket with several results of matches that are ready together (one round)."""
    state = bracket.state()
    rank = {name: index for index, name in enumerate(bracket.seeds)}
    recorded: dict[str, Result] = {}
    for result in results:
        if result.match in recorded:
            raise BracketUserError(
                N_("the match is given two results at once"), field="match", match=result.match
            )
        view = check_changeable(state, result.match, what=A_RESULT)
        if view.status is Status.DONE and view.reported is not None and not correction:
            raise BracketUserError(
                N_("this match already has a result; send it as a correction to replace it"),
                field="match",
                match=result.match,
            )
        finish = check_finish(result.match, _as_finish(result.finish), view.entrants)
        cut = view.advance if view.advance else None
        break_ties(result.match, finish, rank, bracket.draw_rule, bracket.seed, cut=cut)
        recorded[result.match] = Result(result.match, finish)
    kept = tuple(r for r in bracket.results if r.match not in recorded)
    return replace(bracket, results=(*kept, *recorded.values()))  # type: ignore[type-var]


def override_advancement(bracket: B, override: Override) -> B:
    """The bracket with the director's ``override`` deciding a match's finish.

    The override ranks every entrant at the table with no ties; it wins over
    the reported result (kept for the record) and can be replaced by another
    override while no later match has been played.
    """
    if (problem := reason_problem(override.reason)) is not None:
        raise BracketUserError(
            problem.template, problem.values, field="reason", match=override.match
        )
    state = bracket.state()
    view = check_changeable(state, override.match, what=AN_OVERRIDE)
    finish = check_finish(override.match, _as_finish(override.finish), view.entrants)
    if any(len(group) > 1 for group in finish):
        raise BracketUserError(
            N_("an override must rank every entrant, with no ties"),
            field="finish",
            match=override.match,
        )
    kept = tuple(o for o in bracket.overrides if o.match != override.match)
    recorded = Override(match=override.match, finish=finish, reason=override.reason.strip())
    return replace(bracket, overrides=(*kept, recorded))  # type: ignore[type-var]
