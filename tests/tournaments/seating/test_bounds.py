"""The schedule's lower bound against exhaustive search: never above what a schedule reaches."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating.core import TablePolicy, plan_schedule
from tournaments.seating.core.report import schedule_lower_bound

Seating = tuple[frozenset[int], ...]


def seatings(players: frozenset[int], sizes: Sequence[int]) -> Iterator[Seating]:
    """Every way to seat tables of ``sizes`` from ``players`` (the rest sit out)."""
    if not sizes:
        yield ()
        return
    size, rest = sizes[0], sizes[1:]
    for table in combinations(sorted(players), size):
        chosen = frozenset(table)
        for others in seatings(players - chosen, rest):
            # Tables of one size in one order only.
            if rest and rest[0] == size and others and min(others[0]) < min(chosen):
                continue
            yield (chosen, *others)


@cache
def all_seatings(count: int, sizes: tuple[int, ...]) -> tuple[Seating, ...]:
    return tuple(seatings(frozenset(range(count)), sizes))


def fewest_repeats(count: int, rounds: Sequence[tuple[int, ...]]) -> int:
    """The least total of repeated pairs over every schedule (the first round fixed:
    players are interchangeable)."""
    best = None
    first = next(iter(all_seatings(count, rounds[0])))

    def walk(index: int, met: Counter[frozenset[int]], total: int) -> None:
        nonlocal best
        if best is not None and total >= best:
            return
        if index == len(rounds):
            best = total
            return
        for seating in all_seatings(count, rounds[index]):
            pairs = [frozenset(p) for table in seating for p in combinations(sorted(table), 2)]
            repeats = sum(1 for p in pairs if met[p])
            met.update(pairs)
            walk(index + 1, met, total + repeats)
            met.subtract(pairs)

    met: Counter[frozenset[int]] = Counter(
        frozenset(p) for table in first for p in combinations(sorted(table), 2)
    )
    walk(1, met, 0)
    assert best is not None
    return best


CASES = [
    (5, [(4,), (4,), (4,)]),
    (6, [(4,), (4,), (4,)]),
    (6, [(3, 3), (3, 3), (3, 3)]),
    (7, [(4, 3), (4, 3), (4, 3)]),
    (7, [(3, 3), (3, 3), (3, 3)]),
    (7, [(4,), (3, 3), (4,)]),
    (8, [(4, 4), (4, 4), (4, 4)]),
    (8, [(5,), (5,), (5,)]),
    (9, [(3, 3, 3), (3, 3, 3)]),
]


@pytest.mark.parametrize(("count", "rounds"), CASES)
def test_the_schedule_bound_never_exceeds_the_best_schedule(count, rounds):
    best = fewest_repeats(count, rounds)
    bound = schedule_lower_bound(count, [list(sizes) for sizes in rounds])
    assert 0 <= bound <= best


def test_the_bound_is_reached_where_the_pigeonhole_is_tight():
    # 6 at two tables of 3: any second round keeps one pair of each old table together.
    assert schedule_lower_bound(6, [[3, 3], [3, 3]]) == fewest_repeats(6, [(3, 3), (3, 3)]) == 2


@pytest.mark.parametrize(
    ("policy", "players", "rounds"),
    [
        (TablePolicy(legal_sizes=(8,), preferred=8), 15, 2),
        (TablePolicy(legal_sizes=(4,), preferred=4), 5, 5),
        (TablePolicy(legal_sizes=(3, 4), preferred=4), 10, 4),
    ],
)
def test_a_planned_schedule_with_byes_never_beats_its_stated_bound(policy, players, rounds):
    schedule = plan_schedule(list(range(players)), policy, rounds, seed=1)
    assert schedule.report.lower_bound <= schedule.report.repeated_pairs


@st.composite
def small_schedules(draw: st.DrawFn) -> tuple[int, list[tuple[int, ...]]]:
    count = draw(st.integers(4, 7))
    rounds = []
    for _ in range(draw(st.integers(2, 3))):
        sizes: list[int] = []
        room = count
        while room >= 2 and (not sizes or draw(st.booleans())):
            size = draw(st.integers(2, room))
            sizes.append(size)
            room -= size
        rounds.append(tuple(sorted(sizes, reverse=True)))
    return count, rounds


@settings(max_examples=20, deadline=None)
@given(small_schedules())
def test_any_small_schedule_shape_has_a_bound_no_schedule_beats(case):
    count, rounds = case
    bound = schedule_lower_bound(count, [list(sizes) for sizes in rounds])
    assert 0 <= bound <= fewest_repeats(count, rounds)
