"""Table elimination for individual play: tables of k, the top m of each go on.

Each round's tables are drawn when the round before is finished: the players
going on are ordered by the place they took at their table, then by seed, and
dealt across the tables in snake order; swaps between players of the same
snake row then keep previous table-mates apart where they can (the history of
pairs met, plus every table of this bracket). The draw is a pure function of
the bracket's inputs, so replaying the results always seats the same tables.

With placement tables, the players knocked out of a round play on, in
parallel, for the places they are fighting over (13-24, then 13-18 and
19-24 ...), so every place is decided exactly once; without them, players
knocked out in the same round share a range of places.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from common.phrases import N_

from .state import (
    FINISHED,
    BracketFatalError,
    BracketState,
    BracketUserError,
    DrawRule,
    Feed,
    MatchView,
    Override,
    Placement,
    Result,
    Status,
    _check_names,
    break_ties,
    check_finish,
    effective_finishes,
)

MAX_FIELD = 1024
MAX_SWAP_PASSES = 12


@dataclass(frozen=True)
class TableRules:
    """How big tables are and how many go on from each."""

    table_size: int  # the size aimed for
    advance: int  # the top m of each table go on
    legal_sizes: tuple[int, ...]  # every table size the game allows, e.g. (2, 3, ..., 8)
    final_table_size: int | None = None  # the most at a final table; table_size when None

    @property
    def final_size(self) -> int:
        return self.final_table_size if self.final_table_size is not None else self.table_size

    def check(self) -> None:
        legal = set(self.legal_sizes)
        if not legal or min(legal) < 2:
            raise BracketUserError(N_("legal table sizes must be 2 or more"), field="legal_sizes")
        if self.table_size not in legal:
            raise BracketUserError(
                N_("a table of {size} is not a legal size for this game ({legal})"),
                {"size": self.table_size, "legal": ", ".join(map(str, sorted(legal)))},
                field="table_size",
            )
        if not 1 <= self.advance < self.table_size:
            raise BracketUserError(
                N_("the number going on from a table must be between 1 and {most}"),
                {"most": self.table_size - 1},
                field="advance",
            )
        if self.final_size not in legal:
            raise BracketUserError(
                N_("a final table of {size} is not a legal size for this game"),
                {"size": self.final_size},
                field="final_table_size",
            )


def split(players: int, rules: TableRules) -> tuple[int, ...]:
    """Table sizes for one round of ``players``: one table when it is the final.

    A round splits into nearly equal legal tables each larger than the number
    going on, as close to the aimed size as possible (fewer tables on a tie).
    A field that fits at one legal table and cannot split plays its final.
    """
    legal = set(rules.legal_sizes)
    if players <= rules.final_size and players in legal:
        return (players,)
    best: tuple[int, ...] | None = None
    best_key: tuple[int, int] | None = None
    for tables in range(2, players // (rules.advance + 1) + 1):
        small, extra = divmod(players, tables)
        sizes = tuple([small + 1] * extra + [small] * (tables - extra))
        if any(size not in legal or size <= rules.advance for size in sizes):
            continue
        key = (max(abs(size - rules.table_size) for size in sizes), tables)
        if best_key is None or key < best_key:
            best, best_key = sizes, key
    if best is not None:
        return best
    if players in legal:
        return (players,)
    raise BracketUserError(
        N_("{players} players cannot be seated at legal tables of more than {advance} ({legal})"),
        {"players": players, "advance": rules.advance, "legal": ", ".join(map(str, sorted(legal)))},
        field="advance",
    )


def round_plan(players: int, rules: TableRules) -> tuple[tuple[int, ...], ...]:
    """Every round's table sizes for a field of ``players``, down to one table."""
    rounds: list[tuple[int, ...]] = []
    remaining = players
    while remaining > 1:
        sizes = split(remaining, rules)
        rounds.append(sizes)
        if len(sizes) == 1:
            break
        remaining = len(sizes) * rules.advance
    return tuple(rounds)


@dataclass(frozen=True)
class TableBracket:
    """A table elimination as stored: its inputs only."""

    seeds: tuple[str, ...]  # best first
    rules: TableRules
    placement_tables: bool = False
    draw_rule: DrawRule = DrawRule.HIGHER_SEED  # the director's tiebreak for level finishes
    seed: int = 0  # for drawn lots
    history: tuple[tuple[str, str], ...] = ()  # pairs who met before (e.g. in qualifying)
    results: tuple[Result, ...] = field(default=())
    overrides: tuple[Override, ...] = field(default=())

    def state(self) -> BracketState:
        return resolve_tables(self)


def table_elimination(
    seeds: Sequence[str],
    rules: TableRules,
    *,
    placement_tables: bool = False,
    draw_rule: DrawRule = DrawRule.HIGHER_SEED,
    seed: int = 0,
    history: Iterable[tuple[str, str]] = (),
) -> TableBracket:
    """A table elimination of ``seeds`` (best first); refuses a field it cannot seat."""
    _check_names(seeds, "seeds")
    rules.check()
    smallest = min(rules.legal_sizes)
    if len(seeds) < max(2, smallest):
        raise BracketUserError(
            N_("a table elimination needs at least {least} players; there are {count}"),
            {"least": max(2, smallest), "count": len(seeds)},
            field="seeds",
        )
    if len(seeds) > MAX_FIELD:
        raise BracketUserError(
            N_("a table elimination takes at most {most} players"),
            {"most": MAX_FIELD},
            field="seeds",
        )
    round_plan(len(seeds), rules)  # refuses a field that cannot be seated
    pairs = tuple((a, b) for a, b in history if a != b)
    return TableBracket(
        seeds=tuple(seeds),
        rules=rules,
        placement_tables=placement_tables,
        draw_rule=draw_rule,
        seed=seed,
        history=pairs,
    )


# --------------------------------------------------------------------------- drawing


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def snake_deal(players: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal ``players`` (best first) across tables in snake order: 1 2 3 3 2 1 1 2 3 ..."""
    if sum(sizes) != len(players):
        raise BracketFatalError(f"{len(players)} players for seats {sizes}")
    tables: list[list[str]] = [[] for _ in sizes]
    index = 0
    row = 0
    while index < len(players):
        order = range(len(sizes)) if row % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for table in order:
            if index < len(players) and len(tables[table]) < sizes[table]:
                tables[table].append(players[index])
                index += 1
        row += 1
    return tables


def keep_apart(
    tables: list[list[str]], rows: dict[str, int], met: Counter[tuple[str, str]]
) -> list[list[str]]:
    """Swap players of the same snake row between tables while repeats drop.

    The cost of a table is the sum, over its pairs, of the square of the times
    they met before; a swap is made only when it lowers the total.
    """
    drawn = {name for table in tables for name in table}
    weights: dict[str, dict[str, int]] = {}
    names = sorted(drawn)
    if len(names) * (len(names) - 1) // 2 < len(met):
        pairs: Iterable[tuple[tuple[str, str], int]] = (
            ((a, b), met.get((a, b), 0)) for i, a in enumerate(names) for b in names[i + 1 :]
        )
    else:
        pairs = ((pair, times) for pair, times in met.items() if drawn.issuperset(pair))
    for (a, b), times in pairs:
        if times:
            weights.setdefault(a, {})[b] = times * times
            weights.setdefault(b, {})[a] = times * times
    if not weights:
        return tables

    def cost_at(player: str, table: list[str], without: str) -> int:
        mine = weights.get(player)
        if not mine:
            return 0
        return sum(mine.get(other, 0) for other in table if other != without)

    by_row: dict[int, list[str]] = {}
    for table in tables:
        for name in table:
            by_row.setdefault(rows[name], []).append(name)
    where = {name: index for index, table in enumerate(tables) for name in table}
    for _ in range(MAX_SWAP_PASSES):
        improved = False
        for members in by_row.values():
            for i, x in enumerate(members):
                for y in members[i + 1 :]:
                    here, there = where[x], where[y]
                    if here == there or (x not in weights and y not in weights):
                        continue
                    before = cost_at(x, tables[here], x) + cost_at(y, tables[there], y)
                    after = cost_at(y, tables[here], x) + cost_at(x, tables[there], y)
                    if after < before:
                        tables[here][tables[here].index(x)] = y
                        tables[there][tables[there].index(y)] = x
                        where[x], where[y] = there, here
                        improved = True
        if not improved:
            break
    return tables


# --------------------------------------------------------------------------- resolving


@dataclass
class _Group:
    """Players fighting over places first..last, entering at ``column``."""

    first: int
    players: list[str]  # in draw order: best first
    column: int
    feeds: dict[str, Feed | None]  # where each player comes from

    @property
    def last(self) -> int:
        return self.first + len(self.players) - 1


def resolve_tables(bracket: TableBracket) -> BracketState:
    """Replay the bracket: draw each round once the one before is finished."""
    rules = bracket.rules
    rank = {name: index for index, name in enumerate(bracket.seeds)}
    finishes = effective_finishes(bracket.results, bracket.overrides)
    reported = {result.match: result.finish for result in bracket.results}
    overrides = {override.match: override for override in bracket.overrides}
    met: Counter[tuple[str, str]] = Counter(_pair(a, b) for a, b in bracket.history)
    views: list[MatchView] = []
    placements: list[Placement] = []
    pending = False
    queue = [_Group(1, list(bracket.seeds), 1, dict.fromkeys(bracket.seeds))]
    while queue:
        group = queue.pop(0)
        main = group.first == 1 and group.column == 1
        section = "main" if main else f"places {group.first}-{group.last}"
        prefix = "" if main else f"P{group.first}-{group.last}:"
        if len(group.players) == 1:
            placements.append(Placement(group.players[0], group.first, group.first))
            continue
        try:
            plan = round_plan(len(group.players), rules)
        except BracketUserError:
            plan = ()  # a placement group that cannot be seated shares its places
        if not plan:
            placements.extend(Placement(name, group.first, group.last) for name in group.players)
            continue
        players = group.players
        feeds = group.feeds
        for step, sizes in enumerate(plan):
            column = group.column + step
            final = len(sizes) == 1
            advance = 0 if final else rules.advance
            tables = snake_deal(players, sizes)
            rows = {name: index // len(sizes) for index, name in enumerate(players)}
            tables = keep_apart(tables, rows, met)
            round_views: list[tuple[str, list[str], tuple[str, ...] | None]] = []
            for number, seats in enumerate(tables, start=1):
                table_id = f"{prefix}R{column}-T{number}"
                order: tuple[str, ...] | None = None
                if table_id in finishes:
                    finish = check_finish(table_id, finishes[table_id], seats)
                    cut = advance if advance else None
                    order = break_ties(
                        table_id, finish, rank, bracket.draw_rule, bracket.seed, cut=cut
                    )
                round_views.append((table_id, seats, order))
                views.append(
                    MatchView(
                        id=table_id,
                        section=section,
                        round=column,
                        number=number,
                        seats=tuple(seats),
                        feeds=tuple(feeds.get(name) for name in seats),
                        status=Status.DONE if order is not None else Status.READY,
                        advance=advance,
                        finish=order or (),
                        reported=reported.get(table_id),
                        override=overrides.get(table_id),
                    )
                )
            if any(order is None for _, _, order in round_views):
                pending = True
                for later_step, later_sizes in enumerate(plan[step + 1 :], start=step + 1):
                    later_final = len(later_sizes) == 1
                    for number, size in enumerate(later_sizes, start=1):
                        views.append(
                            MatchView(
                                id=f"{prefix}R{group.column + later_step}-T{number}",
                                section=section,
                                round=group.column + later_step,
                                number=number,
                                seats=(None,) * size,
                                feeds=(None,) * size,
                                status=Status.WAITING,
                                advance=0 if later_final else rules.advance,
                            )
                        )
                break
            for _, seats, _ in round_views:
                for i, a in enumerate(seats):
                    for b in seats[i + 1 :]:
                        met[_pair(a, b)] += 1
            if final:
                order = round_views[0][2]
                assert order is not None
                placements.extend(
                    Placement(name, group.first + place, group.first + place)
                    for place, name in enumerate(order)
                )
                break
            going_on: list[tuple[int, int, str, Feed]] = []
            knocked_out: list[tuple[int, int, str, Feed]] = []
            for table_id, _, order in round_views:
                assert order is not None
                for place, name in enumerate(order, start=1):
                    entry = (place, rank[name], name, Feed(table_id, place))
                    (going_on if place <= advance else knocked_out).append(entry)
            going_on.sort()
            knocked_out.sort()
            first_out = group.first + len(going_on)
            if bracket.placement_tables:
                queue.append(
                    _Group(
                        first_out,
                        [name for _, _, name, _ in knocked_out],
                        column + 1,
                        {name: feed for _, _, name, feed in knocked_out},
                    )
                )
            else:
                last_out = first_out + len(knocked_out) - 1
                placements.extend(
                    Placement(name, first_out, last_out) for _, _, name, _ in knocked_out
                )
            players = [name for _, _, name, _ in going_on]
            feeds = {name: feed for _, _, name, feed in going_on}
    known = {view.id for view in views}
    stray = sorted(set(finishes) - known)
    if stray:
        raise BracketFatalError(f"stored results name no table of this bracket: {stray}")
    complete = not pending and all(view.status in FINISHED for view in views)
    if complete:
        if sorted(p.entrant for p in placements) != sorted(bracket.seeds):
            raise BracketFatalError("a finished table elimination did not place every player once")
        placements.sort(key=lambda p: (p.first, rank[p.entrant]))
    views.sort(key=lambda view: (view.round, view.section != "main"))  # stable: groups in order
    return BracketState(
        matches=tuple(views),
        placements=tuple(placements) if complete else (),
        complete=complete,
    )
