"""Our Plackett-Luce update equals the ``openskill`` package's own (the reference).

It does the library's arithmetic in the library's order, so the numbers are in fact the
same to the last bit (``test_ratings_core`` compares whole replays exactly); the property
below allows 1e-9 so that it states the promise, not the implementation."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tournaments.club.core.plackett_luce import MODEL, rate
from tournaments.club.core.ratings import Skill
from tournaments.club.skill import INITIAL, RATE, openskill_rate

skills = st.builds(
    Skill,
    mu=st.floats(-50.0, 100.0, allow_nan=False),
    sigma=st.floats(0.01, 20.0, allow_nan=False),
)


@st.composite
def tables(draw):
    """2 to 8 sides of one to four players, any prior ratings, any places (ties too)."""
    count = draw(st.integers(2, 8))
    sides = [draw(st.lists(skills, min_size=1, max_size=4)) for _ in range(count)]
    places = [draw(st.integers(1, count)) for _ in range(count)]
    return sides, places


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=400, deadline=None)
@given(tables())
def test_our_update_equals_the_librarys_for_any_table(table):
    sides, places = table
    ours = rate(sides, places)
    theirs = openskill_rate(sides, places)
    assert [len(s) for s in ours] == [len(s) for s in sides]
    for our_side, their_side in zip(ours, theirs, strict=True):
        for our, their in zip(our_side, their_side, strict=True):
            assert close(our.mu, their.mu), (our, their)
            assert close(our.sigma, their.sigma), (our, their)


@settings(max_examples=200, deadline=None)
@given(tables())
def test_a_table_without_ties_moves_the_winner_up_and_the_last_down(table):
    sides, _ = table
    places = list(range(1, len(sides) + 1))
    after = rate(sides, places)
    before_first = sum(s.mu for s in sides[0])
    before_last = sum(s.mu for s in sides[-1])
    assert sum(s.mu for s in after[0]) > before_first
    assert sum(s.mu for s in after[-1]) < before_last


def test_the_defaults_are_the_librarys_and_the_rating_is_ours():
    library = PlackettLuce()
    assert (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.kappa, MODEL.tau) == (
        library.mu,
        library.sigma,
        library.beta,
        library.kappa,
        library.tau,
    )
    assert Skill(library.mu, library.sigma) == INITIAL
    assert RATE is rate
