"""Co-directors and scorers: the owner adds them; each may do what its role allows."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.web.conftest import publish_next
from tournaments.events import services
from tournaments.events.directors import ROLE_ACTIONS, Action, may_direct
from tournaments.models import EventLog, EventStaff, TournamentRound

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def staff_user(name: str, *, staff: bool = True):
    return get_user_model().objects.create_user(name, password="pw", is_staff=staff)


@pytest.fixture
def helper():
    return staff_user("helper")


def add(desk, event, username: str, role: str):
    return desk.post(url("staff_add", event.pk), {"username": username, "role": role}, **HX)


def test_the_owner_adds_a_co_director_who_runs_the_event(desk, event, helper, client):
    response = add(desk, event, "helper", "co_director")
    assert response.status_code == 200
    assert "helper" in response.content.decode()
    assert EventStaff.objects.get(event=event).role == "co_director"

    client.force_login(helper)
    assert b"Friday Roolz" in client.get(url("desk")).content
    assert client.get(url("desk_event", event.pk)).status_code == 200
    client.post(url("round_generate", event.pk))
    assert event.rounds.get(number=1).status == TournamentRound.Status.DRAFT
    client.post(url("round_publish", event.pk, 1))
    assert event.rounds.get(number=1).status == TournamentRound.Status.PUBLISHED
    # Every log line names who did it.
    actions = dict(EventLog.objects.filter(event=event).values_list("action", "user__username"))
    assert actions["event_staff_add"] == "director"
    assert actions["round_generate"] == "helper"
    assert actions["round_publish"] == "helper"
    # A co-director does not change the staff, and does not see the form to.
    assert 'name="username"' not in client.get(url("desk_event", event.pk)).content.decode()
    response = client.post(url("staff_add", event.pk), {"username": "helper", "role": "scorer"})
    assert response.status_code == 404
    assert EventStaff.objects.get(event=event).role == "co_director"


def test_a_scorer_corrects_results_but_does_not_run_the_event(
    desk, event, director, helper, client
):
    add(desk, event, "helper", "scorer")
    publish_next(event, director)
    table = event.rounds.get(number=1).tables.first()
    client.force_login(helper)
    assert client.get(url("desk_event", event.pk)).status_code == 200
    assert client.get(url("desk_table", event.pk, table.pk)).status_code == 200
    assert client.get(url("desk_round", event.pk, 1)).status_code == 200
    ann = event.entrants.get(name="Ann")
    for address in (
        url("entrant_drop", event.pk, ann.pk),
        url("round_generate", event.pk),
        url("round_undo", event.pk, 1),
        url("event_close", event.pk),
        url("staff_add", event.pk),
    ):
        assert client.post(address).status_code in (403, 404), address
    ann.refresh_from_db()
    assert not ann.dropped
    assert event.rounds.get(number=1).status == TournamentRound.Status.PUBLISHED
    page = client.get(url("desk_event", event.pk)).content.decode()
    assert "Seat round 2" not in page and "Close the event" not in page


def test_only_staff_accounts_are_added_and_bad_input_names_the_field(desk, event, helper):
    staff_user("visitor", staff=False)
    response = add(desk, event, "visitor", "co_director").content.decode()
    assert "No staff account is called &#x27;visitor&#x27;" in response
    response = add(desk, event, "nobody", "scorer").content.decode()
    assert "No staff account is called" in response
    response = add(desk, event, "helper", "boss").content.decode()
    assert "Choose co-director or scorer" in response
    response = add(desk, event, "director", "scorer").content.decode()
    assert "The owner already runs the event" in response
    assert not EventStaff.objects.exists()


def test_the_owner_removes_a_helper_who_then_loses_the_desk(desk, event, helper, client):
    add(desk, event, "helper", "co_director")
    staff = EventStaff.objects.get()
    desk.post(url("staff_remove", event.pk, staff.pk), **HX)
    assert not EventStaff.objects.exists()
    client.force_login(helper)
    assert client.get(url("desk_event", event.pk)).status_code == 404
    assert EventLog.objects.filter(action="event_staff_remove").exists()


def test_a_helper_who_loses_staff_status_loses_the_event(desk, event, helper, client):
    add(desk, event, "helper", "co_director")
    helper.is_staff = False
    helper.save()
    client.force_login(helper)
    assert client.get(url("desk_event", event.pk)).status_code == 403  # no desk at all
    assert not may_direct(helper, event, Action.VIEW)


def test_what_each_role_may_do_is_stated_once():
    assert Action.OWN not in ROLE_ACTIONS["co_director"]
    assert ROLE_ACTIONS["scorer"] == frozenset({Action.VIEW, Action.SCORE})
    assert all(Action.VIEW in actions for actions in ROLE_ACTIONS.values())


def test_staff_changes_refuse_anyone_but_the_owner(event, helper):
    from tournaments.events.services import StaffError, event_staff_add

    services.event_create(owner=helper, name="Own", game="roolz")
    with pytest.raises(StaffError) as refused:
        event_staff_add(event=event, username="helper", role="scorer", user=helper)
    assert refused.value.field == "username"
