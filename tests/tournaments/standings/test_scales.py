"""Placement scales: the documented defaults, equal means, shared places."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.core import DEFAULT_SCALES, SCALE_MEAN, scale_mean, shared_points
from tournaments.standings.core.scales import scale_problems, unbalanced_sizes

DOCUMENTED = [
    (2, (7, 1)),
    (3, (7, 4, 1)),
    (4, (7, 5, 3, 1)),
    (5, (7, 5.5, 4, 2.5, 1)),
    (6, (7, 5.8, 4.6, 3.4, 2.2, 1)),
    (7, (7, 6, 5, 4, 3, 2, 1)),
    (8, tuple(7 - 6 * i / 7 for i in range(8))),
    (9, (7, 6.25, 5.5, 4.75, 4, 3.25, 2.5, 1.75, 1)),
    (10, tuple(7 - 2 * i / 3 for i in range(10))),
]


@pytest.mark.parametrize(("size", "scale"), DOCUMENTED)
def test_default_scale_is_the_documented_one(size, scale):
    assert DEFAULT_SCALES[size] == pytest.approx(scale, abs=1e-12)


def test_every_size_from_2_to_10_has_a_default():
    assert sorted(DEFAULT_SCALES) == list(range(2, 11))


@given(st.sampled_from(range(2, 11)), st.sampled_from(range(2, 11)))
def test_default_scale_means_are_equal_across_sizes(one, other):
    assert scale_mean(DEFAULT_SCALES[one]) == pytest.approx(scale_mean(DEFAULT_SCALES[other]))
    assert scale_mean(DEFAULT_SCALES[one]) == pytest.approx(SCALE_MEAN)


def test_the_classic_4_2_1_0_is_reported_unbalanced():
    assert unbalanced_sizes({4: (4, 2, 1, 0), 3: (4, 2, 1)}) == [4]
    assert unbalanced_sizes(DEFAULT_SCALES) == []


@pytest.mark.parametrize(
    ("size", "place", "tied", "points"),
    [
        (4, 1, 2, (7 + 5) / 2),
        (4, 2, 2, (5 + 3) / 2),
        (4, 2, 3, (5 + 3 + 1) / 3),
        (3, 1, 3, 4),
        (3, 3, 1, 1),
        (2, 1, 2, 4),
    ],
)
def test_tied_places_share_the_average_of_the_places_they_span(size, place, tied, points):
    assert shared_points(DEFAULT_SCALES[size], place, tied) == pytest.approx(points)


@st.composite
def tied_places(draw):
    """Competition places (1, 1, 3, ...) for a table of 2 to 10 sides, ties included."""
    size = draw(st.integers(2, 10))
    scores = draw(st.lists(st.integers(0, 3), min_size=size, max_size=size))
    return [1 + sum(other > own for other in scores) for own in scores]


@given(tied_places())
def test_ties_never_change_what_a_table_hands_out(places):
    scale = DEFAULT_SCALES[len(places)]
    handed = sum(shared_points(scale, p, places.count(p)) for p in places)
    assert handed == pytest.approx(sum(scale))


@pytest.mark.parametrize(
    ("scales", "message"),
    [
        ({4: (7, 5, 3)}, "placement scale for 4: needs 4 values, one per place, not 3"),
        ({3: (1, 4, 7)}, "placement scale for 3: a better place cannot get fewer points"),
        ({1: (7,)}, "placement scale for 1: a table has at least 2 sides"),
    ],
)
def test_bad_scales_are_named(scales, message):
    assert scale_problems(scales) == [message]
