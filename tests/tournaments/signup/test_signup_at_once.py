"""Sign-ups arriving at the same moment for the last places: the event's row is locked,
so the cap holds and everyone else waits, in order."""

from __future__ import annotations

import pytest

from tests.tournaments.signup.conftest import open_signup
from tests.tournaments.web.test_concurrent_corrections import at_once
from tournaments.events import services, signup_selectors
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db(transaction=True)


def test_six_sign_ups_at_once_for_two_places(postgres, event, director):
    open_signup(event, director, cap=3)
    services.registration_create(event=event, name="Ann")
    names = ["Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    made = at_once(
        [(lambda name=name: services.registration_create(event=event, name=name)) for name in names]
    )
    assert Entrant.objects.filter(event=event, dropped=False).count() == 3
    statuses = sorted(r.status for r in made)
    assert statuses == ["entrant", "entrant", "waiting", "waiting", "waiting", "waiting"]
    waiting = signup_selectors.registrations_for_desk(event)["waiting"]
    assert [signup_selectors.waiting_position(r) for r in waiting] == [1, 2, 3, 4]
