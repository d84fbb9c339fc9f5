"""A whole schedule searched harder: simulated annealing on the count of repeated pairs.

Round-by-round seating cannot look ahead; when an event's field and length are known
and no construction covers every round, ``anneal_schedule`` takes a whole schedule
(the planner's own dry run) and swaps two players between tables of one round,
accepting a worse schedule with a probability that falls as the search cools, for a
time budget. The cost is the schedule's repeated pairs (every seating of a pair
after its first); the best schedule seen is returned, never a worse one than given.
Deterministic for a seed and a number of steps; the time budget only stops it early.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

Tables = list[tuple[int, ...]]

START_TEMPERATURE = 0.6
END_TEMPERATURE = 0.05
COOLING = 0.995  # every COOLING_STEPS steps
COOLING_STEPS = 5000


def repeated_pairs(rounds: Sequence[Sequence[Sequence[int]]], players: int) -> int:
    met = [0] * (players * players)
    repeats = 0
    for tables in rounds:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = a * players + b if a < b else b * players + a
                    repeats += 1 if met[key] else 0
                    met[key] += 1
    return repeats


def anneal_schedule(
    rounds: Sequence[Sequence[Sequence[int]]],
    players: int,
    *,
    seconds: float,
    seed: int = 0,
    steps: int = 50_000_000,
) -> list[Tables]:
    """The schedule (points 0..players-1, every round a partition into tables; byes
    allowed) with the fewest repeated pairs found within ``seconds`` and ``steps``."""
    rng = random.Random(f"anneal:{seed}")
    current = [[list(table) for table in tables] for tables in rounds]
    met = [[0] * players for _ in range(players)]
    for tables in current:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    met[a][b] += 1
                    met[b][a] += 1
    cost = repeated_pairs(current, players)
    best_cost = cost
    best = [[tuple(t) for t in tables] for tables in current]
    movable = [r for r, tables in enumerate(current) if len(tables) >= 2]
    temperature = START_TEMPERATURE
    deadline = time.perf_counter() + seconds
    for step in range(steps):
        if cost == 0 or not movable:
            break
        if step % 1024 == 0 and time.perf_counter() > deadline:
            break
        tables = current[movable[rng.randrange(len(movable))]]
        first = rng.randrange(len(tables))
        second = rng.randrange(len(tables) - 1)
        second += second >= first
        one, two = tables[first], tables[second]
        i, j = rng.randrange(len(one)), rng.randrange(len(two))
        a, b = one[i], two[j]
        delta = 0
        row_a, row_b = met[a], met[b]
        for x in one:
            if x != a:
                delta += (row_b[x] >= 1) - (row_a[x] >= 2)
        for y in two:
            if y != b:
                delta += (row_a[y] >= 1) - (row_b[y] >= 2)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            for x in one:
                if x != a:
                    row_a[x] -= 1
                    met[x][a] -= 1
                    row_b[x] += 1
                    met[x][b] += 1
            for y in two:
                if y != b:
                    row_b[y] -= 1
                    met[y][b] -= 1
                    row_a[y] += 1
                    met[y][a] += 1
            one[i], two[j] = b, a
            cost += delta
            if cost < best_cost:
                best_cost = cost
                best = [[tuple(t) for t in tables] for tables in current]
        if step % COOLING_STEPS == COOLING_STEPS - 1:
            temperature = max(END_TEMPERATURE, temperature * COOLING)
    return best
