"""The waiting list's invariant under any run of sign-ups and withdrawals: the entrants
never exceed the cap, nobody waits while there is room, and the list lets people in in
the order they joined it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.signup.conftest import open_signup
from tournaments.events import services, signup_selectors
from tournaments.models import Entrant, Registration

pytestmark = pytest.mark.django_db

# A step: ("sign up",), ("withdraw", k) the k-th still signed up (by the person), or
# ("remove", k) the same by the director.
steps = st.lists(
    st.one_of(
        st.just(("sign up", 0)),
        st.tuples(st.sampled_from(["withdraw", "remove"]), st.integers(0, 30)),
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(cap=st.integers(1, 5), run=steps)
def test_entrants_never_exceed_the_cap_and_the_list_keeps_its_order(director, cap, run):
    event = services.event_create(owner=director, name="Open night", game="roolz")
    open_signup(event, director, cap=cap)
    inside: list[str] = []  # the model: who is in, and who waits, in order
    waiting: list[str] = []
    made: dict[str, Registration] = {}
    for number, (what, k) in enumerate(run):
        if what == "sign up":
            name = f"Player {number}"
            made[name] = services.registration_create(event=event, name=name)
            (inside if len(inside) < cap else waiting).append(name)
        else:
            signed_up = inside + waiting
            if not signed_up:
                continue
            name = signed_up[k % len(signed_up)]
            if what == "withdraw":
                services.registration_withdraw(registration=made[name])
            else:
                services.registration_remove(event=event, registration=made[name], user=director)
            (inside if name in inside else waiting).remove(name)
            while len(inside) < cap and waiting:
                inside.append(waiting.pop(0))
        entrants = set(
            Entrant.objects.filter(event=event, dropped=False).values_list("name", flat=True)
        )
        listed = signup_selectors.registrations_for_desk(event)
        assert len(entrants) <= cap
        assert entrants == set(inside)
        assert [r.name for r in listed["waiting"]] == waiting
        assert [signup_selectors.waiting_position(r) for r in listed["waiting"]] == list(
            range(1, len(waiting) + 1)
        )
