"""What every bracket shares: errors, seeding, results, match views and placements.

A bracket is stored as its inputs (the format, the seeded field, its options,
the results reported and the director's overrides); everything else (who sits
at which table, what is ready, who placed where) is derived from those inputs
by :func:`bracket_state`, so the stored truth never drifts from the rules.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from common.phrases import N_, Words, fill

# --------------------------------------------------------------------------- errors


class BracketUserError(ValueError):
    """A request the director can fix: shown next to the field it names.

    ``template`` (marked with ``N_``) and ``values`` stay apart for each reader's language
    (see ``scoring.engines.base``); ``message`` is the English text."""

    def __init__(
        self,
        template: str,
        values: Mapping[str, Any] | None = None,
        *,
        field: str | None = None,
        match: str | None = None,
    ):
        self.template = template
        self.values = dict(values or {})
        self.message = fill(template, self.values)
        self.field = field
        self.match = match
        super().__init__(f"{match}: {self.message}" if match else self.message)


class BracketFatalError(RuntimeError):
    """A bug in the bracket logic itself: never shown as a user mistake, never swallowed."""


# --------------------------------------------------------------------------- choices


class Seeding(StrEnum):
    """How the field is put in seed order."""

    STANDINGS = "standings"  # as given: the standings order of a qualifying stage
    RANDOM = "random"  # shuffled by a recorded seed
    MANUAL = "manual"  # the director's order


class DrawRule(StrEnum):
    """Who advances when a table ends level; chosen before the stage starts."""

    HIGHER_SEED = "higher_seed"  # the better seed goes through
    RANDOM = "random"  # a drawn lot, reproducible from the bracket's seed
    REPLAY = "replay"  # the table plays again: a level result is refused


class GrandFinal(StrEnum):
    """How a double elimination ends."""

    NONE = "none"  # no final: the winners' champion wins, the losers' champion is second
    SINGLE = "single"  # one game between the two champions
    RESET = "reset"  # a second game only when the losers' champion wins the first


# --------------------------------------------------------------------------- seeding


def _check_names(entrants: Sequence[str], field: str) -> None:
    seen: set[str] = set()
    for name in entrants:
        if not isinstance(name, str) or not name:
            raise BracketUserError(N_("every entrant needs a non-empty name"), field=field)
        if name in seen:
            raise BracketUserError(
                N_("entrant {name} is listed twice"), {"name": repr(name)}, field=field
            )
        seen.add(name)


def seed_field(
    entrants: Sequence[str],
    method: Seeding,
    *,
    seed: int = 0,
    order: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """Put ``entrants`` in seed order (first = top seed).

    ``STANDINGS`` keeps the given order, ``RANDOM`` shuffles with ``seed``,
    ``MANUAL`` takes ``order``, which must name every entrant exactly once.
    """
    _check_names(entrants, "entrants")
    if method is Seeding.STANDINGS:
        return tuple(entrants)
    if method is Seeding.RANDOM:
        shuffled = list(entrants)
        random.Random(f"seeding:{seed}").shuffle(shuffled)
        return tuple(shuffled)
    if method is Seeding.MANUAL:
        if order is None:
            raise BracketUserError(N_("manual seeding needs the director's order"), field="order")
        _check_names(order, "order")
        missing = [name for name in entrants if name not in set(order)]
        extra = [name for name in order if name not in set(entrants)]
        if missing or extra:
            if not extra:
                template = N_("the seed order must name every entrant once: missing {missing}")
            elif not missing:
                template = N_("the seed order must name every entrant once: not entered {extra}")
            else:
                template = N_(
                    "the seed order must name every entrant once: missing {missing}; "
                    "not entered {extra}"
                )
            raise BracketUserError(
                template,
                {"missing": ", ".join(missing), "extra": ", ".join(extra)},
                field="order",
            )
        return tuple(order)
    raise BracketFatalError(f"unknown seeding method {method!r}")


@dataclass(frozen=True)
class Cut:
    """A two-stage event's cut: the top of the qualifying standings go on to the bracket."""

    qualified: tuple[str, ...]  # in standings order, ready to be the bracket's seeds
    out: tuple[str, ...]


def cut_to_top(standings: Sequence[str], size: int) -> Cut:
    """Take the top ``size`` of a standings order (best first) into the bracket."""
    _check_names(standings, "standings")
    if size < 2:
        raise BracketUserError(N_("a cut must keep at least 2 entrants"), field="cut")
    if size > len(standings):
        raise BracketUserError(
            N_(
                "a cut to the top {size} needs at least {size} entrants in the standings;"
                " there are {count}"
            ),
            {"size": size, "count": len(standings)},
            field="cut",
        )
    return Cut(qualified=tuple(standings[:size]), out=tuple(standings[size:]))


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Result:
    """A table's finish: groups of entrants in finishing order, ties in one group.

    ``(("ann",), ("bob", "cy"), ("dee",))`` is Ann first, Bob and Cy level, Dee last.
    """

    match: str
    finish: tuple[tuple[str, ...], ...]

    @staticmethod
    def ranked(match: str, *order: str) -> Result:
        """A finish with no ties, best first."""
        return Result(match=match, finish=tuple((name,) for name in order))

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(name for group in self.finish for name in group)


@dataclass(frozen=True)
class Override:
    """The director's decision that replaces a table's finish for advancing.

    Kept with the bracket so the caller can show and audit it: the reported
    result (if any) stays recorded next to the finish that was used instead.
    """

    match: str
    finish: tuple[tuple[str, ...], ...]
    reason: str


def check_finish(
    match: str, finish: Sequence[Sequence[str]], entrants: Sequence[str], field: str = "finish"
) -> tuple[tuple[str, ...], ...]:
    """The finish as tuples, or a user error when it does not name the table exactly."""
    groups = tuple(tuple(group) for group in finish)
    if any(not group for group in groups):
        raise BracketUserError(N_("a finish cannot hold an empty group"), field=field, match=match)
    named = [name for group in groups for name in group]
    if sorted(named) != sorted(entrants) or len(set(named)) != len(named):
        raise BracketUserError(
            N_("the finish must name each entrant at the table exactly once: {entrants}"),
            {"entrants": ", ".join(sorted(entrants))},
            field=field,
            match=match,
        )
    return groups


def break_ties(
    match: str,
    finish: Sequence[Sequence[str]],
    seed_rank: dict[str, int],
    rule: DrawRule,
    seed: int,
    *,
    cut: int | None = None,
) -> tuple[str, ...]:
    """A strict order from a finish with ties, by the rule chosen before the stage.

    ``cut`` is how many go on from the table; under the replay rule only a tie
    across the cut sends the table back to play (None: every place counts).
    """
    order: list[str] = []
    for group in finish:
        if len(group) == 1:
            order.extend(group)
            continue
        straddles = cut is None or len(order) < cut < len(order) + len(group)
        tied = sorted(group, key=lambda name: seed_rank[name])
        if rule is DrawRule.REPLAY and straddles:
            raise BracketUserError(
                N_(
                    "the table ended level; under this stage's replay rule it plays again:"
                    " report the replay's result"
                ),
                field="finish",
                match=match,
            )
        if rule is DrawRule.RANDOM:
            random.Random(f"lot:{seed}:{match}:{','.join(tied)}").shuffle(tied)
        order.extend(tied)
    return tuple(order)


# --------------------------------------------------------------------------- derived views


class Status(StrEnum):
    WAITING = "waiting"  # a side is not known yet
    READY = "ready"  # every seat known, no result yet: the table can play
    DONE = "done"  # played (or decided by the director)
    BYE = "bye"  # one entrant only: goes through without playing
    EMPTY = "empty"  # nobody reached this match (byes on both sides)
    NOT_NEEDED = "not_needed"  # a grand final reset after the winners' champion won


FINISHED = frozenset({Status.DONE, Status.BYE, Status.EMPTY, Status.NOT_NEEDED})


@dataclass(frozen=True)
class Feed:
    """A seat filled from another match: its ``place``-th finisher (1 = winner)."""

    match: str
    place: int


@dataclass(frozen=True)
class MatchView:
    """One match (or table) as derived from the bracket's inputs."""

    id: str
    section: str  # "main", "winners", "losers", "grand_final", "third_place", "places 13-24"
    round: int  # the column it is drawn in, 1-based, counted in its section
    number: int  # 1-based position in its column
    seats: tuple[str | None, ...]  # entrants, None for a bye or a seat not known yet
    feeds: tuple[Feed | None, ...]  # where each seat comes from (None: seeded directly)
    status: Status
    advance: int  # how many go on from this table (0 at a final table)
    finish: tuple[str, ...] = ()  # the strict finish used for advancing, when decided
    reported: tuple[tuple[str, ...], ...] | None = None  # the result as reported
    override: Override | None = None

    @property
    def feeding_matches(self) -> tuple[str, ...]:
        seen: list[str] = []
        for feed in self.feeds:
            if feed is not None and feed.match not in seen:
                seen.append(feed.match)
        return tuple(seen)

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(name for name in self.seats if name is not None)


@dataclass(frozen=True)
class Placement:
    """Where an entrant finished: a single place, or a shared range (5-8)."""

    entrant: str
    first: int
    last: int


def placements_from_tiers(tiers: Iterable[tuple[str, float]]) -> tuple[Placement, ...]:
    """Places from tiers (higher = better): equal tiers share a range of places."""
    ordered = sorted(tiers, key=lambda item: -item[1])
    placements: list[Placement] = []
    index = 0
    while index < len(ordered):
        tier = ordered[index][1]
        group = [name for name, t in ordered[index:] if t == tier]
        first, last = index + 1, index + len(group)
        placements.extend(Placement(name, first, last) for name in group)
        index += len(group)
    return tuple(placements)


@dataclass(frozen=True)
class BracketState:
    """Everything derived from a bracket's inputs."""

    matches: tuple[MatchView, ...]
    placements: tuple[Placement, ...]  # complete only when ``complete``
    complete: bool

    def match(self, match_id: str) -> MatchView:
        for view in self.matches:
            if view.id == match_id:
                return view
        raise BracketUserError(
            N_("there is no match {match} in this bracket"),
            {"match": repr(match_id)},
            field="match",
        )

    @property
    def ready(self) -> tuple[MatchView, ...]:
        return tuple(view for view in self.matches if view.status is Status.READY)

    @property
    def champion(self) -> str | None:
        if not self.complete:
            return None
        winners = [p.entrant for p in self.placements if p.first == 1 and p.last == 1]
        return winners[0] if len(winners) == 1 else None


# --------------------------------------------------------------------------- changes


def effective_finishes(
    results: Sequence[Result], overrides: Sequence[Override]
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The finish each match advances by: the director's override, else the result."""
    finishes = {result.match: result.finish for result in results}
    finishes.update({override.match: override.finish for override in overrides})
    return finishes


def decided_dependents(state: BracketState, match_id: str) -> list[str]:
    """Matches fed by ``match_id`` that already have a result or an override."""
    return [
        view.id
        for view in state.matches
        if match_id in view.feeding_matches
        and (view.reported is not None or view.override is not None)
    ]


# A match's status as a refusal names it.
STATUS_WORDS = {
    Status.WAITING: N_("the match is waiting (a side is not known yet)"),
    Status.READY: N_("the match is ready"),
    Status.DONE: N_("the match is done"),
    Status.BYE: N_("the match is a bye"),
    Status.EMPTY: N_("the match is empty"),
    Status.NOT_NEEDED: N_("the match is not needed"),
}
A_RESULT = N_("a result")
AN_OVERRIDE = N_("an override")


def check_changeable(state: BracketState, match_id: str, *, what: str) -> MatchView:
    """The match, when ``what`` (``A_RESULT``, ``AN_OVERRIDE``) may be recorded for it now."""
    view = state.match(match_id)
    if view.status not in (Status.READY, Status.DONE):
        raise BracketUserError(
            N_("{what} cannot be recorded: {status}"),
            {"what": Words(what), "status": Words(STATUS_WORDS[view.status])},
            field="match",
            match=match_id,
        )
    later = decided_dependents(state, match_id)
    if later:
        raise BracketUserError(
            N_("{what} cannot change this match: {later} already played with its outcome"),
            {"what": Words(what), "later": ", ".join(later)},
            field="match",
            match=match_id,
        )
    return view
