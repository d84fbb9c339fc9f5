"""The plain data the seating engine takes and gives: no Django, no I/O, all immutable.

Entrant ids are plain ints chosen by the caller (database ids, or 0..N-1 in a dry run).
Seats are 0-based and clockwise; seat 0 deals first. A table is a tuple of entrant ids
in seat order, so the sides at a table are read from the seat order with
``TablePolicy.sides``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from common.phrases import N_, fill

EntrantId = int
Table = tuple[EntrantId, ...]
Sides = tuple[tuple[int, ...], ...]  # seat groups that score together at one table size

# The keys of ``formats.FORMATS``, for the type checker (a test holds the two equal).
Format = Literal["mixer", "swiss", "round_robin", "progressive"]


class SchedulingError(ValueError):
    """A request the engine cannot plan (a user mistake); ``field`` names the input at fault.

    ``template`` (marked with ``N_``) and ``values`` stay apart, for each reader's language
    (``tournaments.seating.adapter.refusal``); ``message`` and ``str()`` are the English."""

    def __init__(
        self,
        template: str,
        values: Mapping[str, Any] | None = None,
        *,
        field: str | None = None,
        round: int | None = None,
    ):
        self.template = template
        self.values = dict(values or {})
        self.field = field
        self.round = round
        self.message = fill(template, self.values)
        super().__init__(f"round {round}: {self.message}" if round else self.message)


def listed(sizes: Collection[int]) -> str:
    """Sizes as a message lists them: "4, 5", in increasing order."""
    return ", ".join(str(size) for size in sorted(sizes))


@dataclass(frozen=True)
class TablePolicy:
    """The game's table facts, as plain data.

    ``legal_sizes``: every number of players a table of this game may seat.
    ``preferred``: the size to use wherever the count allows; the sizes next to it in
    ``legal_sizes`` fill the remainder before any other size, and any legal size before
    a bye. ``sides``: for each size played in sides, the seat groups that score
    together (partners across at 4: ``{4: ((0, 2), (1, 3))}``); a size absent means individual
    play at that size.
    """

    legal_sizes: tuple[int, ...]
    preferred: int
    sides: Mapping[int, Sides] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.legal_sizes or any(size < 1 for size in self.legal_sizes):
            raise SchedulingError(N_("legal table sizes must be positive"), field="legal_sizes")
        if self.preferred not in self.legal_sizes:
            raise SchedulingError(
                N_("preferred table size {size} is not a legal size ({legal})"),
                {"size": self.preferred, "legal": listed(self.legal_sizes)},
                field="table_size",
            )
        for size, groups in self.sides.items():
            seats = sorted(seat for group in groups for seat in group)
            if seats != list(range(size)):
                raise SchedulingError(
                    N_("the sides at a table of {size} must cover seats 0..{last} once"),
                    {"size": size, "last": size - 1},
                    field="sides",
                )

    def sides_at(self, size: int) -> Sides:
        """Seat groups forming sides at a table of ``size``; () for individual play."""
        return tuple(self.sides.get(size, ()))

    def only(self, size: int) -> TablePolicy:
        """The same game played at exactly one size (the director's ``--table-size``)."""
        if size not in self.legal_sizes:
            raise SchedulingError(
                N_("table size {size} is not legal for this game (legal: {legal})"),
                {"size": size, "legal": listed(self.legal_sizes)},
                field="table_size",
            )
        return TablePolicy(legal_sizes=(size,), preferred=size, sides=self.sides)

    def within(self, sizes: Collection[int]) -> TablePolicy:
        """The same game played only at ``sizes`` (an event's allowed sizes, e.g. 4 or 5
        only). The preferred size stays when allowed, else the allowed size nearest to
        it (the smaller of two as near)."""
        chosen = tuple(sorted(set(sizes)))
        legal = listed(self.legal_sizes)
        if not chosen:
            raise SchedulingError(
                N_("allow at least one table size (legal: {legal})"),
                {"legal": legal},
                field="table_sizes",
            )
        wrong = [s for s in chosen if s not in self.legal_sizes]
        if wrong:
            raise SchedulingError(
                N_("table sizes {sizes} are not legal for this game (legal: {legal})")
                if len(wrong) > 1
                else N_("table size {sizes} is not legal for this game (legal: {legal})"),
                {"sizes": listed(wrong), "legal": legal},
                field="table_sizes",
            )
        preferred = min(chosen, key=lambda s: (abs(s - self.preferred), s))
        return TablePolicy(
            legal_sizes=chosen,
            preferred=preferred,
            sides={size: seats for size, seats in self.sides.items() if size in chosen},
        )


@dataclass(frozen=True)
class PlayedRound:
    """One tournament round already played: its tables (seat order), byes and winners.

    ``winners``: the entrants who won their table (the winning side in a partnership
    game, the top half in an individual game); only ``progressive`` reads it.
    """

    tables: tuple[Table, ...]
    byes: tuple[EntrantId, ...] = ()
    winners: frozenset[EntrantId] = frozenset()


@dataclass(frozen=True)
class Constraints:
    """What the director asks for, beyond the game's rules.

    ``keep_apart``: pairs never to seat at one table (family, partners in life);
    honoured whenever any legal round allows it, and counted in the report otherwise.
    ``fixed_table``: entrant -> table index (0-based) for access; such an entrant never
    gets a bye while another entrant could take it. ``fixed_teams``: entrants who always
    play as one side (partnership games) or one team (``round_robin``).
    """

    keep_apart: tuple[tuple[EntrantId, EntrantId], ...] = ()
    fixed_table: Mapping[EntrantId, int] = field(default_factory=dict)
    fixed_teams: tuple[tuple[EntrantId, ...], ...] = ()


@dataclass(frozen=True)
class Weights:
    """How much each kind of unfairness costs in the mixer's and swiss's search.

    The base cost is the sum over pairs of (times met)^2; ``partner`` multiplies the
    same sum over partners; ``seat`` the imbalance of seats and first dealer;
    ``gap`` the spread in standings at a table; ``keep_apart`` a broken keep-apart pair.
    """

    meet: int = 1
    partner: int = 4
    seat: int = 1
    gap: int = 0
    keep_apart: int = 10_000


@dataclass(frozen=True)
class RoundRequest:
    """Everything needed to seat the next round.

    ``entrants``: who plays this round (drops left out, late entries added; any order).
    ``history``: every round played so far, oldest first (ids of dropped entrants may
    appear). ``standings``: entrant ids best first (``swiss``; ``mixer`` with a
    ``gap`` weight). ``seed``: the same request and seed give the same plan.
    ``rounds_planned``: the event's length, when known (it picks the construction).
    ``scores``: each entrant's points in the standings (its first metric), when known:
    swiss keeps players of equal points together and the spread of points at a table
    as small as slicing the standings allows; without them swiss groups by tables won
    (``PlayedRound.winners``).
    """

    entrants: Sequence[EntrantId]
    policy: TablePolicy
    format: Format = "mixer"
    history: Sequence[PlayedRound] = ()
    standings: Sequence[EntrantId] = ()
    constraints: Constraints = field(default_factory=Constraints)
    weights: Weights = field(default_factory=Weights)
    seed: int = 0
    effort: int = 1  # scales the swap search; 0 means greedy fill only
    constructions: bool = True  # False: greedy fill and swaps only (for comparison)
    # How many rounds the event will have, when known: a short partnership event is
    # seated so that no two players meet twice (and so never partner twice); a
    # whist rotation is chosen only when more rounds are planned than that allows.
    rounds_planned: int | None = None
    # Search harder (mixer, known length, a full field at one table size, no
    # constraints): anneal the whole planned schedule for this many steps (0: never).
    search_steps: int = 0
    scores: Mapping[EntrantId, float] = field(default_factory=dict)

    @property
    def number(self) -> int:
        """The 1-based number of the round being planned."""
        return len(self.history) + 1


# Bounds on a split's facts read back from a stored report (which an imported document
# may hold): beyond them the report's English sentence is shown as it was stored.
MOST_PLAYERS = 1_000_000
MOST_SIZES = 64
_SPLIT_TABLES = re.compile(r"(?:\d{1,7}x\d{1,4}(?: \d{1,7}x\d{1,4})*)?")
_SPLIT_SIZES = re.compile(r"\d{1,4}(?: \d{1,4})*")


@dataclass(frozen=True)
class TableSplit:
    """Why a round has the tables it has, as facts: the players, the tables by size
    (``(size, how many)``, largest first), the byes, the sizes allowed, and whether no
    split into those sizes seats everyone (``fewest``: the byes are the fewest possible).
    The report stores them as plain values (``as_report``); its sentence is made from
    them in each reader's language (``sizes.split_sentence``)."""

    players: int
    tables: tuple[tuple[int, int], ...]
    byes: int
    allowed: tuple[int, ...]
    fewest: bool

    def as_report(self) -> dict[str, object]:
        return {
            "split_players": self.players,
            "split_tables": " ".join(f"{count}x{size}" for size, count in self.tables),
            "split_byes": self.byes,
            "split_allowed": " ".join(map(str, self.allowed)),
            "split_fewest": self.fewest,
        }

    @classmethod
    def from_report(cls, report: Mapping[str, object]) -> TableSplit | None:
        """The facts a report stored, or None when it holds none that make sense (a
        report stored before it kept them, or an imported one altered)."""
        players, byes, fewest = (
            report.get("split_players"),
            report.get("split_byes"),
            report.get("split_fewest"),
        )
        tables, allowed = report.get("split_tables"), report.get("split_allowed")
        if not (
            _count(players)
            and _count(byes)
            and isinstance(fewest, bool)
            and isinstance(tables, str)
            and _SPLIT_TABLES.fullmatch(tables)
            and isinstance(allowed, str)
            and _SPLIT_SIZES.fullmatch(allowed)
        ):
            return None
        by_size = tuple(
            (int(size), int(count)) for count, size in (part.split("x") for part in tables.split())
        )
        sizes = tuple(int(size) for size in allowed.split())
        if len(by_size) > MOST_SIZES or len(sizes) > MOST_SIZES:
            return None
        assert isinstance(players, int) and isinstance(byes, int)  # checked by _count
        return cls(players, by_size, byes, sizes, fewest)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MOST_PLAYERS


@dataclass(frozen=True)
class RoundReport:
    """How good one round is, for the director and the benchmark.

    ``repeated_pairs``: pairs at one table this round who had met before (a pair met
    twice before counts once). ``repeated_partners``: likewise for partners.
    ``lower_bound``: fewest repeated pairs any legal round could have given the
    history (a proven bound, not always reachable). ``bye_spread``: most minus fewest
    byes among this round's entrants, this round included. ``keep_apart_broken``:
    keep-apart pairs seated together. ``method``: which construction or search
    produced the round.
    """

    round: int
    repeated_pairs: int
    repeated_partners: int
    lower_bound: int
    bye_spread: int
    keep_apart_broken: int
    cost: int
    seconds: float
    method: str
    sizes: str = ""  # why these table sizes: "14 players: tables of 5, 5, 4 (sizes allowed: 4, 5)"
    split: TableSplit | None = None  # the facts that sentence is made from

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "repeated_pairs": self.repeated_pairs,
            "repeated_partners": self.repeated_partners,
            "lower_bound": self.lower_bound,
            "bye_spread": self.bye_spread,
            "keep_apart_broken": self.keep_apart_broken,
            "cost": self.cost,
            "seconds": round(self.seconds, 4),
            "method": str(self.method),
            "sizes": str(self.sizes),
            # The split's facts, from which the sentence is said again in each reader's
            # language; ``sizes`` keeps the English for any other reader.
            **(self.split.as_report() if self.split is not None else {}),
        }


@dataclass(frozen=True)
class RoundPlan:
    """The seating of one round: tables (seat-ordered entrant ids, table 0 first), byes."""

    tables: tuple[Table, ...]
    byes: tuple[EntrantId, ...]
    report: RoundReport

    def as_played(self, winners: frozenset[EntrantId] = frozenset()) -> PlayedRound:
        """This plan as a round of history, once played."""
        return PlayedRound(tables=self.tables, byes=self.byes, winners=winners)
