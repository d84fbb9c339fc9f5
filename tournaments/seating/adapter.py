"""The seating adapter: event rows -> plain seating inputs -> the pure core -> plain
values (written as rows by ``tournaments.events.services.seating_writes``).

The seating core (``tournaments.seating.core``) seats plain integer ids. Every entrant
becomes one id per seat it fills: a player one, a fixed team one per member, all kept
together as a fixed team. ``slot = entrant_id * SLOTS + member``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engines.base import Problem
from scoring.engines.registry import ENGINES
from scoring.wording import said
from tournaments.models import Bye, Entrant, Event, KeepApart, TableSeat, TournamentRound
from tournaments.seating.core import (
    Constraints,
    PlayedRound,
    RoundPlan,
    RoundReport,
    RoundRequest,
    SchedulingError,
    TablePolicy,
    plan_round,
    report_round,
)
from tournaments.seating.core.sizes import split_sentence
from tournaments.seating.core.types import TableSplit
from tournaments.seating.core.words import method_words

SLOTS = 64  # more members than any table seats


def slot(entrant_id: int, member: int = 0) -> int:
    return entrant_id * SLOTS + member


def unslot(value: int) -> tuple[int, int]:
    """(entrant id, member) of a seating id."""
    return divmod(value, SLOTS)


def entrant_slots(entrant: Entrant) -> tuple[int, ...]:
    return tuple(slot(entrant.pk, m) for m in range(max(1, len(entrant.members))))


def table_policy(
    game: str,
    table_size: int | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    allowed: Collection[int] = (),
) -> TablePolicy:
    """The game's table facts under the event's options, read from its engine, as plain
    seating data: legal sizes, the preferred size and which seats form sides.

    ``allowed``: the event's allowed sizes (empty: every size the game allows);
    ``table_size``: one size only (it must be among the allowed ones)."""
    engine = ENGINES[game]
    defaults = {spec.name: spec.default for spec in engine.option_specs()}
    resolved = {**defaults, **(options or {})}
    legal = tuple(sorted(engine.allowed_player_counts(resolved)))
    sides = {
        size: tuple(tuple(seats) for seats in teams.values())
        for size in legal
        if (teams := engine.teams(size, resolved))
    }
    preferred = engine.preferred_table_size if engine.preferred_table_size in legal else legal[0]
    policy = TablePolicy(legal_sizes=legal, preferred=preferred, sides=sides)
    if allowed:
        policy = policy.within(allowed)
    return policy.only(table_size) if table_size is not None else policy


def event_table_policy(event: Event) -> TablePolicy:
    """The event's table policy: its game under its options, at its allowed sizes."""
    return table_policy(
        event.game, event.table_size, options=event.options, allowed=event.table_sizes or ()
    )


# --------------------------------------------------------------------------- loading


@dataclass(frozen=True)
class SeatingInputs:
    """Everything the core needs for the next round, loaded from the rows."""

    request: RoundRequest
    entrants: Mapping[int, Entrant]  # by id, every entrant of the event


def played_rounds(
    event: Event, *, before: int, winners: Mapping[int, frozenset[int]] | None = None
) -> list[PlayedRound]:
    """Every published round numbered below ``before``, oldest first, as seating history."""
    seats = (
        TableSeat.objects.filter(
            table__round__event=event,
            table__round__number__lt=before,
            table__round__status=TournamentRound.Status.PUBLISHED,
        )
        .order_by("table__round__number", "table__number", "seat")
        .values_list("table__round__number", "table__number", "entrant_id", "member")
    )
    tables: dict[int, dict[int, list[int]]] = {}
    for number, table, entrant_id, member in seats:
        tables.setdefault(number, {}).setdefault(table, []).append(slot(entrant_id, member))
    byes: dict[int, list[int]] = {}
    for number, entrant_id, members in Bye.objects.filter(
        round__event=event,
        round__number__lt=before,
        round__status=TournamentRound.Status.PUBLISHED,
    ).values_list("round__number", "entrant_id", "entrant__members"):
        byes.setdefault(number, []).extend(
            slot(entrant_id, m) for m in range(max(1, len(members or [])))
        )
    numbers = sorted(set(tables) | set(byes))
    return [
        PlayedRound(
            tables=tuple(tuple(t) for _, t in sorted(tables.get(n, {}).items())),
            byes=tuple(byes.get(n, ())),
            winners=(winners or {}).get(n, frozenset()),
        )
        for n in numbers
    ]


def seating_inputs(
    event: Event,
    *,
    number: int,
    standings: Sequence[int] = (),
    scores: Mapping[int, float] | None = None,
    winners: Mapping[int, frozenset[int]] | None = None,
    effort: int = 1,
    seated: Collection[int] | None = None,
    entrants: Sequence[Entrant] | None = None,
) -> SeatingInputs:
    """Load round ``number``'s seating request: who plays (drops out, late entries in from
    the round they joined), the history, keep-apart pairs, fixed tables and teams.

    ``seated``: the entrant ids who play, as the event's availability says (or a saved
    draft's, for its report after a change by hand); None: everyone due to play.
    ``standings``: entrant ids best first; ``scores``: entrant id -> points on the
    standings' first metric (swiss keeps equal points together); ``winners``: round
    number -> entrant ids who won their table (read by swiss and progressive).
    ``entrants``: the event's entrants, when the caller read them already (else they are
    read here).
    """
    everyone = {e.pk: e for e in (event.entrants.all() if entrants is None else entrants)}
    playing = [
        e
        for e in everyone.values()
        if (e.pk in seated if seated is not None else not e.dropped and e.joined_round <= number)
    ]
    constraints = Constraints(
        keep_apart=tuple(
            (slot(a), slot(b))
            for a, b in KeepApart.objects.filter(event=event).values_list("first_id", "second_id")
            if a in everyone and b in everyone
        ),
        fixed_table={
            s: e.fixed_table - 1 for e in playing if e.fixed_table for s in entrant_slots(e)
        },
        fixed_teams=tuple(entrant_slots(e) for e in playing if len(e.members) > 1),
    )
    winner_slots = {
        n: frozenset(s for eid in ids if eid in everyone for s in entrant_slots(everyone[eid]))
        for n, ids in (winners or {}).items()
    }
    request = RoundRequest(
        entrants=[s for e in playing for s in entrant_slots(e)],
        policy=event_table_policy(event),
        format=event.format,  # type: ignore[arg-type]
        history=played_rounds(event, before=number, winners=winner_slots),
        standings=[s for eid in standings if eid in everyone for s in entrant_slots(everyone[eid])],
        scores={
            s: points
            for eid, points in (scores or {}).items()
            if eid in everyone
            for s in entrant_slots(everyone[eid])
        },
        constraints=constraints,
        seed=event.seed,
        effort=effort,
        rounds_planned=event.rounds_planned,
    )
    return SeatingInputs(request=request, entrants=everyone)


# --------------------------------------------------------------------------- planning


def plan_for(inputs: SeatingInputs) -> RoundPlan:
    """Ask the core (raises SchedulingError on a request it cannot plan)."""
    return plan_round(inputs.request)


def draft_tables(round_: TournamentRound) -> tuple[list[tuple[int, ...]], list[int]]:
    """A saved round as the core's tables (seat order) and byes, table 1 first."""
    tables: dict[int, list[int]] = {}
    for number, entrant_id, member in (
        TableSeat.objects.filter(table__round=round_)
        .order_by("table__number", "seat")
        .values_list("table__number", "entrant_id", "member")
    ):
        tables.setdefault(number, []).append(slot(entrant_id, member))
    byes = [
        s
        for entrant_id, members in Bye.objects.filter(round=round_).values_list(
            "entrant_id", "entrant__members"
        )
        for s in range(slot(entrant_id), slot(entrant_id) + max(1, len(members or [])))
    ]
    return [tuple(t) for _, t in sorted(tables.items())], byes


def report_for(
    request: RoundRequest, tables: Sequence[tuple[int, ...]], byes: Iterable[int], method: str
) -> RoundReport:
    """The core's quality report for a seating the director changed by hand."""
    return report_round(request, tables, byes, method=method)


# --------------------------------------------------------------------------- showing


def refusal(error: SchedulingError, *, field: str | None = None) -> Problem:
    """The core's refusal as a problem naming its round and field (``field`` instead of its
    own, when the caller's form names it otherwise), said in each reader's language."""
    return Problem(error.template, error.round, field or error.field, error.values)


def report_shown(report: Mapping[str, Any]) -> dict[str, Any]:
    """A round's stored report as its reader reads it: the sizes' sentence and the method
    in the active language (Django's, chosen for the request), the sizes' sentence made
    again from the split's facts; a report stored before it kept them (or whose facts make
    no sense) shows its English sentence as it was written."""
    shown = dict(report)
    split = TableSplit.from_report(report)
    if split is not None:
        shown["sizes"] = said(split_sentence(split))
    method = report.get("method")
    if isinstance(method, str) and method:
        shown["method"] = said(method_words(method))
    return shown


__all__ = [
    "SLOTS",
    "SchedulingError",
    "SeatingInputs",
    "draft_tables",
    "entrant_slots",
    "event_table_policy",
    "plan_for",
    "played_rounds",
    "refusal",
    "report_for",
    "report_shown",
    "seating_inputs",
    "slot",
    "table_policy",
    "unslot",
]
