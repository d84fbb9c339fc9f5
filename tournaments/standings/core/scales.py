"""Placement points that are fair across table sizes.

A scale gives points to each finishing place at a table of a given size. When
an event mixes table sizes, a scale is fair only if a player expects the same
points whatever the size of the table they are drawn at: the mean of the scale
must be the same for every size. The classic 4-2-1-0 fails this (a mean of 1.75
at four players but 2.33 at three as 4-2-1).

The default scale gives 7 points for first and 1 for last at every size, with
equal steps between, so the mean is 4 at every size from 2 to 10:

    size  points by place (first to last)                 mean
       2  7, 1                                             4
       3  7, 4, 1                                          4
       4  7, 5, 3, 1                                       4
       5  7, 5.5, 4, 2.5, 1                                4
       6  7, 5.8, 4.6, 3.4, 2.2, 1                         4
       7  7, 6, 5, 4, 3, 2, 1                              4
       8  7, 6.14, 5.29, 4.43, 3.57, 2.71, 1.86, 1 (6/7)   4
       9  7, 6.25, 5.5, 4.75, 4, 3.25, 2.5, 1.75, 1        4
      10  7, 6.33, 5.67, 5, 4.33, 3.67, 3, 2.33, 1.67, 1   4

(size 8 steps by 6/7, size 10 by 2/3; the table shows them rounded.)

The size is the number of sides competing at the table: a table of two teams
is a table of 2, whatever the number of seats, and both members of a team get
the team's points. Tied sides share the average of the points of the places
they span (two sides tied for first at a table of 4 get (7 + 5) / 2 = 6 each),
so ties never change the points a table hands out in all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from common.phrases import N_, Words

SCALE_TOP = 7.0
SCALE_BOTTOM = 1.0
SCALE_MEAN = (SCALE_TOP + SCALE_BOTTOM) / 2
MIN_SIDES = 2
MAX_SIDES = 10

Scale = tuple[float, ...]


def default_scale(size: int) -> Scale:
    """The default points by place (first to last) for ``size`` sides, from 7 down to 1."""
    if not MIN_SIDES <= size <= MAX_SIDES:
        raise ValueError(f"no default placement scale for {size} sides")  # a bug in the caller
    step = (SCALE_TOP - SCALE_BOTTOM) / (size - 1)
    return tuple(SCALE_TOP - step * place for place in range(size))


DEFAULT_SCALES: Mapping[int, Scale] = {
    size: default_scale(size) for size in range(MIN_SIDES, MAX_SIDES + 1)
}


def scale_mean(scale: Sequence[float]) -> float:
    """The points a player expects at a table using ``scale`` (every place equally likely)."""
    return sum(scale) / len(scale)


def shared_points(scale: Sequence[float], place: int, tied: int) -> float:
    """Points of ``tied`` sides sharing ``place`` (1-based): the mean of the places they span."""
    spanned = scale[place - 1 : place - 1 + tied]
    return sum(spanned) / len(spanned)


def scale_problems(scales: Mapping[int, Sequence[float]]) -> list[Words]:
    """What is wrong with a director's scales: wrong lengths, places not in order (each
    the English text with its template and values, for each reader's language)."""
    problems: list[Words] = []
    for size, scale in sorted(scales.items()):
        if size < MIN_SIDES:
            problems.append(
                Words(
                    N_("placement scale for {size}: a table has at least {least} sides"),
                    {"size": size, "least": MIN_SIDES},
                )
            )
        elif len(scale) != size:
            problems.append(
                Words(
                    N_(
                        "placement scale for {size}: needs {size} values, one per place, "
                        "not {given}"
                    ),
                    {"size": size, "given": len(scale)},
                )
            )
        elif any(better < worse for better, worse in pairwise(scale)):
            problems.append(
                Words(
                    N_("placement scale for {size}: a better place cannot get fewer points"),
                    {"size": size},
                )
            )
    return problems


def unbalanced_sizes(scales: Mapping[int, Sequence[float]]) -> list[int]:
    """Sizes whose scale mean differs from the smallest size's: mixed tables would be unfair."""
    sizes = sorted(size for size, scale in scales.items() if scale)
    if not sizes:
        return []
    reference = scale_mean(scales[sizes[0]])
    return [s for s in sizes[1:] if abs(scale_mean(scales[s]) - reference) > 1e-9]
