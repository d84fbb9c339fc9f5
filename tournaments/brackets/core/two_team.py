"""Two-team elimination: single (with an optional third-place match) and double.

Seeds take the standard positions (1 v N, then 1 and 2 can only meet in the
final), so in a field that is not a power of two the byes fall to the top
seeds and never face each other. A bye is a seat with nobody in it; a match
with one entrant sends it on without playing, one with none sends nobody on,
which is how byes flow through a losers' bracket.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from common.phrases import N_

from .state import (
    FINISHED,
    BracketFatalError,
    BracketState,
    BracketUserError,
    DrawRule,
    Feed,
    GrandFinal,
    MatchView,
    Override,
    Result,
    Status,
    _check_names,
    break_ties,
    check_finish,
    effective_finishes,
    placements_from_tiers,
)

MIN_FIELD = 2
MAX_FIELD = 1024


class Format(StrEnum):
    SINGLE = "single"
    DOUBLE = "double"


def standard_positions(size: int) -> tuple[int, ...]:
    """Seed numbers (1-based) down a bracket of ``size`` lines: 8 gives 1 8 4 5 2 7 3 6."""
    if size < 1 or size & (size - 1):
        raise BracketFatalError(f"bracket size {size} is not a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return tuple(order)


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


@dataclass(frozen=True)
class MatchSpec:
    """One match of the fixed structure: where its seats come from, what its places are worth."""

    id: str
    section: str
    round: int
    number: int
    sources: tuple[int | Feed, ...]  # an int is a seed index (0 = top seed); past the field: a bye
    tiers: tuple[float | None, ...]  # per place: the final tier when the run ends here
    reset: bool = False  # a grand final reset: played only when the first final was an upset


@dataclass(frozen=True)
class EliminationBracket:
    """A two-team elimination as stored: its inputs only."""

    format: Format
    seeds: tuple[str, ...]  # best first
    third_place: bool = False
    grand_final: GrandFinal = GrandFinal.RESET
    draw_rule: DrawRule = DrawRule.HIGHER_SEED
    seed: int = 0  # for drawn lots
    results: tuple[Result, ...] = field(default=())
    overrides: tuple[Override, ...] = field(default=())

    def specs(self) -> tuple[MatchSpec, ...]:
        if self.format is Format.SINGLE:
            return single_specs(len(self.seeds), third_place=self.third_place)
        return double_specs(len(self.seeds), grand_final=self.grand_final)

    def state(self) -> BracketState:
        return resolve(self)


def _check_field(seeds: Sequence[str]) -> None:
    _check_names(seeds, "seeds")
    if len(seeds) < MIN_FIELD:
        raise BracketUserError(
            N_("an elimination needs at least {least} entrants; there are {count}"),
            {"least": MIN_FIELD, "count": len(seeds)},
            field="seeds",
        )
    if len(seeds) > MAX_FIELD:
        raise BracketUserError(
            N_("an elimination takes at most {most} entrants; there are {count}"),
            {"most": MAX_FIELD, "count": len(seeds)},
            field="seeds",
        )


def single_elimination(
    seeds: Sequence[str],
    *,
    third_place: bool = False,
    draw_rule: DrawRule = DrawRule.HIGHER_SEED,
    seed: int = 0,
) -> EliminationBracket:
    """A single elimination of ``seeds`` (best first)."""
    _check_field(seeds)
    if third_place and len(seeds) < 3:
        raise BracketUserError(
            N_("a third-place match needs at least 3 entrants"), field="third_place"
        )
    return EliminationBracket(
        format=Format.SINGLE,
        seeds=tuple(seeds),
        third_place=third_place,
        draw_rule=draw_rule,
        seed=seed,
    )


def double_elimination(
    seeds: Sequence[str],
    *,
    grand_final: GrandFinal = GrandFinal.RESET,
    draw_rule: DrawRule = DrawRule.HIGHER_SEED,
    seed: int = 0,
) -> EliminationBracket:
    """A double elimination of ``seeds`` (best first)."""
    _check_field(seeds)
    return EliminationBracket(
        format=Format.DOUBLE,
        seeds=tuple(seeds),
        grand_final=grand_final,
        draw_rule=draw_rule,
        seed=seed,
    )


# --------------------------------------------------------------------------- structures


def _winners_bracket(entrants: int, prefix: str, section: str) -> list[MatchSpec]:
    """The main tree; every place tier left open for the caller to fill."""
    size = bracket_size(entrants)
    positions = standard_positions(size)
    specs: list[MatchSpec] = []
    rounds = size.bit_length() - 1
    for number in range(1, size // 2 + 1):
        top, bottom = positions[2 * number - 2], positions[2 * number - 1]
        specs.append(
            MatchSpec(
                f"{prefix}1-{number}", section, 1, number, (top - 1, bottom - 1), (None, None)
            )
        )
    for rnd in range(2, rounds + 1):
        for number in range(1, size // 2**rnd + 1):
            sources = (
                Feed(f"{prefix}{rnd - 1}-{2 * number - 1}", 1),
                Feed(f"{prefix}{rnd - 1}-{2 * number}", 1),
            )
            specs.append(
                MatchSpec(f"{prefix}{rnd}-{number}", section, rnd, number, sources, (None, None))
            )
    return specs


def _with_tiers(spec: MatchSpec, winner: float | None, loser: float | None) -> MatchSpec:
    return replace(spec, tiers=(winner, loser))


def single_specs(entrants: int, *, third_place: bool) -> tuple[MatchSpec, ...]:
    """Rounds R1..Rr; losers of round j share a tier j; the final and third place rank fully."""
    tree = _winners_bracket(entrants, "R", "main")
    rounds = tree[-1].round
    specs: list[MatchSpec] = []
    for spec in tree:
        if spec.round == rounds:
            specs.append(_with_tiers(spec, 10 * rounds + 9, 10 * rounds + 8))
        elif spec.round == rounds - 1 and third_place:
            specs.append(_with_tiers(spec, None, None))
        else:
            specs.append(_with_tiers(spec, None, 10 * spec.round))
    if third_place:
        semis = [spec.id for spec in tree if spec.round == rounds - 1]
        specs.append(
            MatchSpec(
                "3P",
                "third_place",
                rounds,
                1,
                (Feed(semis[0], 2), Feed(semis[1], 2)),
                (10 * (rounds - 1) + 5, 10 * (rounds - 1) + 4),
            )
        )
    return tuple(specs)


DropIn = Callable[[int, int, int], int]


def drop_in_match(winners_round: int, number: int, count: int) -> int:
    """Which match of winners' round ``winners_round`` (2 or more) sends its loser into
    losers' match ``number`` of that drop-in round, which has ``count`` matches.

    Neighbours swapped, in every drop-in round: losers' match 1 takes the loser of
    W<j>-2, match 2 the loser of W<j>-1, match 3 that of W<j>-4, and so on (a lone match
    takes the one loser). The survivor arriving at losers' match n comes out of the
    same part of the draw as W<j>-n (every loser below it in the winners' bracket, and
    those dropped in earlier, which stayed in that part); W<j>-n's neighbour played
    none of them. So a dropped player's first losers' match is never a rematch of a
    winners' bracket match, whatever the results, until the losers' final (which
    takes the winners' final's loser, who may have met anyone). At 8, 16 and 32
    entrants this is the only order that does so (each drop-in round must keep every
    pair of neighbours' losers in the part of the draw they came from, and may not
    send a loser back to its own part); the orders that spread losers further (round 2
    reversed, round 3 shifted by half) leave such rematches at 32 entrants.
    """
    if count < 1 or not 1 <= number <= count:
        raise BracketFatalError(f"losers' match {number} of {count} does not exist")
    if count == 1:
        return 1
    return ((number - 1) ^ 1) + 1


CHAMPION_TIER = 1000.0
RUNNER_UP_TIER = 999.0


def double_specs(
    entrants: int, *, grand_final: GrandFinal, drop_in: DropIn = drop_in_match
) -> tuple[MatchSpec, ...]:
    """Winners' bracket W, losers' bracket L, then the grand final GF (and its reset GF2).

    Losers of winners' round j > 1 drop into losers' round 2(j-1) in the order
    ``drop_in`` gives (``drop_in_match`` unless a comparison asks for another).
    """
    winners = _winners_bracket(entrants, "W", "winners")
    rounds = winners[-1].round
    specs = [_with_tiers(spec, None, None) for spec in winners]
    losers: list[MatchSpec] = []
    if rounds >= 2:
        size = bracket_size(entrants)
        for number in range(1, size // 4 + 1):
            sources = (Feed(f"W1-{2 * number - 1}", 2), Feed(f"W1-{2 * number}", 2))
            losers.append(MatchSpec(f"L1-{number}", "losers", 1, number, sources, (None, 1)))
        for j in range(2, rounds + 1):
            drop_round = 2 * (j - 1)
            count = size // 2**j
            for number in range(1, count + 1):
                dropped = drop_in(j, number, count)
                sources = (Feed(f"L{drop_round - 1}-{number}", 1), Feed(f"W{j}-{dropped}", 2))
                losers.append(
                    MatchSpec(
                        f"L{drop_round}-{number}",
                        "losers",
                        drop_round,
                        number,
                        sources,
                        (None, drop_round),
                    )
                )
            if j < rounds:
                pair_round = drop_round + 1
                for number in range(1, count // 2 + 1):
                    sources = (
                        Feed(f"L{drop_round}-{2 * number - 1}", 1),
                        Feed(f"L{drop_round}-{2 * number}", 1),
                    )
                    losers.append(
                        MatchSpec(
                            f"L{pair_round}-{number}",
                            "losers",
                            pair_round,
                            number,
                            sources,
                            (None, pair_round),
                        )
                    )
        lb_champion = Feed(losers[-1].id, 1)
    else:
        lb_champion = Feed(winners[-1].id, 2)
    final_id = winners[-1].id
    if grand_final is GrandFinal.NONE:
        specs[-1] = _with_tiers(specs[-1], CHAMPION_TIER, None)
        if losers:
            losers[-1] = _with_tiers(losers[-1], RUNNER_UP_TIER, losers[-1].tiers[1])
        else:
            specs[-1] = _with_tiers(specs[-1], CHAMPION_TIER, RUNNER_UP_TIER)
        return tuple(specs + losers)
    champions = (Feed(final_id, 1), lb_champion)
    if grand_final is GrandFinal.SINGLE:
        final = MatchSpec("GF", "grand_final", 1, 1, champions, (CHAMPION_TIER, RUNNER_UP_TIER))
        return (*specs, *losers, final)
    first = MatchSpec("GF", "grand_final", 1, 1, champions, (CHAMPION_TIER, RUNNER_UP_TIER))
    second = MatchSpec(
        "GF2",
        "grand_final",
        2,
        1,
        (Feed("GF", 1), Feed("GF", 2)),
        (CHAMPION_TIER, RUNNER_UP_TIER),
        reset=True,
    )
    return (*specs, *losers, first, second)


# --------------------------------------------------------------------------- resolving


def resolve(bracket: EliminationBracket) -> BracketState:
    """Every match's seats, status and finish, and the placements once complete."""
    seeds = bracket.seeds
    rank = {name: index for index, name in enumerate(seeds)}
    finishes = effective_finishes(bracket.results, bracket.overrides)
    reported = {result.match: result.finish for result in bracket.results}
    overrides = {override.match: override for override in bracket.overrides}
    outcomes: dict[str, tuple[str | None, ...]] = {}
    views: list[MatchView] = []
    tiers: dict[str, float] = {}
    first_final_seats: tuple[str | None, ...] = ()
    specs = bracket.specs()
    known_ids = {spec.id for spec in specs}
    for match_id in finishes:
        if match_id not in known_ids:
            raise BracketFatalError(f"a stored result names no match of this bracket: {match_id}")
    for spec in specs:
        seats: list[str | None] = []
        feeds: list[Feed | None] = []
        known = True
        for source in spec.sources:
            if isinstance(source, Feed):
                feeds.append(source)
                if source.match in outcomes:
                    seats.append(outcomes[source.match][source.place - 1])
                else:
                    known = False
                    seats.append(None)
            else:
                feeds.append(None)
                seats.append(seeds[source] if source < len(seeds) else None)
        present = [name for name in seats if name is not None]
        finish: tuple[str, ...] = ()
        spec_tiers = spec.tiers
        if not known:
            status = Status.WAITING
        elif spec.reset and outcomes["GF"][0] == first_final_seats[0]:
            # The winners' champion won the first final: no second final, and the
            # first final's places are the final places.
            status = Status.NOT_NEEDED
        elif not present:
            status = Status.EMPTY
            outcomes[spec.id] = (None, None)
        elif len(present) == 1:
            status = Status.BYE
            outcomes[spec.id] = (present[0], None)
            finish = (present[0],)
        elif spec.id in finishes:
            status = Status.DONE
            check_finish(spec.id, finishes[spec.id], present)
            finish = break_ties(spec.id, finishes[spec.id], rank, bracket.draw_rule, bracket.seed)
            outcomes[spec.id] = finish
        else:
            status = Status.READY
        if spec.id in finishes and status is not Status.DONE:
            raise BracketFatalError(f"a result is stored for {spec.id}, which is {status.value}")
        if spec.id == "GF":
            first_final_seats = tuple(seats)
        if spec.id == "GF" and bracket.grand_final is GrandFinal.RESET and status is Status.DONE:
            upset = finish[0] != seats[0]
            spec_tiers = (None, None) if upset else spec.tiers
        for place, name in enumerate(finish):
            tier = spec_tiers[place] if place < len(spec_tiers) else None
            if tier is not None:
                tiers[name] = tier
        views.append(
            MatchView(
                id=spec.id,
                section=spec.section,
                round=spec.round,
                number=spec.number,
                seats=tuple(seats),
                feeds=tuple(feeds),
                status=status,
                advance=1,
                finish=finish,
                reported=reported.get(spec.id),
                override=overrides.get(spec.id),
            )
        )
    complete = all(view.status in FINISHED for view in views)
    placements = placements_from_tiers(tiers.items()) if complete else ()
    if complete and len(placements) != len(seeds):
        raise BracketFatalError(
            f"a finished bracket placed {len(placements)} of {len(seeds)} entrants"
        )
    return BracketState(matches=tuple(views), placements=placements, complete=complete)
