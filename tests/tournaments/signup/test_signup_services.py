"""The sign-up's rules, through its services: the cap and its waiting list, approval, the
closing time, refusals by field."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.tournaments.signup.conftest import open_signup
from tests.tournaments.web.conftest import publish_next
from tournaments.events import services, signup_selectors
from tournaments.models import Entrant, Event, Registration

pytestmark = pytest.mark.django_db

TEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def sign_up(event, name, contact=""):
    return services.registration_create(event=event, name=name, contact=contact)


def entrant_names(event):
    return sorted(Entrant.objects.filter(event=event, dropped=False).values_list("name", flat=True))


def waiting_names(event):
    return [r.name for r in signup_selectors.registrations_for_desk(event)["waiting"]]


def test_a_cap_of_8_ten_sign_ups_two_withdraw_the_waiting_list_moves_up_in_order(event, director):
    open_signup(event, director, cap=8)
    made = {name: sign_up(event, name) for name in TEN}
    assert entrant_names(event) == sorted(TEN[:8])
    assert waiting_names(event) == ["Ivy", "Jo"]
    ivy, jo = (Registration.objects.get(pk=made[n].pk) for n in ("Ivy", "Jo"))
    assert signup_selectors.waiting_position(ivy) == 1
    assert signup_selectors.waiting_position(jo) == 2

    # Cat withdraws from her own page: Ivy, first on the list, is in.
    services.registration_withdraw(registration=made["Cat"])
    assert "Ivy" in entrant_names(event) and "Cat" not in entrant_names(event)
    assert waiting_names(event) == ["Jo"]
    assert signup_selectors.waiting_position(Registration.objects.get(pk=jo.pk)) == 1
    # The director removes Ben: Jo is in.
    services.registration_remove(event=event, registration=made["Ben"], user=director)
    assert entrant_names(event) == sorted(["Ann", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"])
    assert waiting_names(event) == []
    jo = Registration.objects.get(pk=jo.pk)
    assert jo.status == "entrant" and jo.entrant is not None and jo.entrant.private_token
    assert Registration.objects.get(pk=made["Cat"].pk).status == "withdrawn"
    assert Entrant.objects.filter(event=event).count() == 8  # Cat and Ben never sat: taken off


def test_a_withdrawal_after_the_event_started_drops_the_entrant_and_lets_the_next_in(
    event, director
):
    open_signup(event, director, cap=4)
    made = [sign_up(event, name) for name in TEN[:5]]
    publish_next(event, director)
    services.registration_withdraw(registration=made[0])
    ann = Entrant.objects.get(event=event, name="Ann")
    assert ann.dropped  # she played round 1: her results stand
    eve = Entrant.objects.get(event=event, name="Eve")
    assert eve.joined_round == 2  # a late entry, seated from the next round


def test_approval_on_waits_for_the_director_then_lets_in_or_lists(event, director):
    open_signup(event, director, cap=2, approval=True)
    made = [sign_up(event, name) for name in ("Ann", "Ben", "Cat")]
    assert {r.status for r in made} == {"pending"}
    assert entrant_names(event) == []
    for registration in made:
        services.registration_approve(event=event, registration=registration, user=director)
    assert entrant_names(event) == ["Ann", "Ben"]
    assert waiting_names(event) == ["Cat"]
    services.registration_refuse(event=event, registration=made[2], user=director)
    assert Registration.objects.get(pk=made[2].pk).status == "refused"


def test_approval_off_makes_an_entrant_at_once(event, director):
    open_signup(event, director)
    registration = sign_up(event, "Ann", "ann@example.org")
    assert registration.status == "entrant"
    assert registration.entrant.name == "Ann"


def test_raising_the_cap_lets_the_waiting_list_in(event, director):
    open_signup(event, director, cap=1)
    for name in ("Ann", "Ben", "Cat"):
        sign_up(event, name)
    open_signup(event, director, cap=2)
    assert entrant_names(event) == ["Ann", "Ben"]
    assert waiting_names(event) == ["Cat"]


def test_the_closing_time_is_respected(event, director):
    closes = timezone.now() + dt.timedelta(hours=1)
    open_signup(event, director, closes_at=closes)
    sign_up(event, "Ann")
    with pytest.raises(services.TournamentError) as refused:
        services.registration_create(event=event, name="Ben", now=closes + dt.timedelta(seconds=1))
    assert refused.value.problems[0].field == "signup"
    assert "closed" in refused.value.problems[0].message
    assert not signup_selectors.signup_state(event, now=closes).open


def test_sign_up_is_off_by_default(event):
    with pytest.raises(services.TournamentError) as refused:
        sign_up(event, "Ann")
    assert [(p.field, p.message) for p in refused.value.problems] == [
        ("signup", "sign-up for this event is not open")
    ]


@pytest.mark.parametrize(
    ("name", "contact", "field", "words"),
    [
        ("", "", "name", "empty"),
        ("   ", "", "name", "empty"),
        ("A" * 41, "", "name", "at most 40"),
        ("Ann\x07", "", "name", "control character"),
        ("ANN", "", "name", "already registered"),
        ("Ánn", "", "name", "already registered"),
        ("Bob", "x" * 121, "contact", "at most 120"),
    ],
)
def test_bad_input_is_refused_by_field(event, director, name, contact, field, words):
    open_signup(event, director)
    sign_up(event, "Ann")
    with pytest.raises(services.TournamentError) as refused:
        sign_up(event, name, contact)
    assert [p.field for p in refused.value.problems] == [field]
    assert words in refused.value.problems[0].message


def test_a_name_the_desk_registered_is_taken_too(event, director):
    services.entrant_add(event=event, name="Léa", user=director)
    open_signup(event, director)
    with pytest.raises(services.TournamentError) as refused:
        sign_up(event, "lea")
    assert refused.value.problems[0].field == "name"


def test_a_closed_event_takes_no_sign_up(event, director):
    open_signup(event, director)
    services.event_close(event=event, user=director)
    with pytest.raises(services.TournamentError) as refused:
        sign_up(event, "Ann")
    assert refused.value.problems[0].field == "signup"


def test_the_director_moves_edits_and_the_list_keeps_its_order(event, director):
    open_signup(event, director, cap=1)
    made = [sign_up(event, name) for name in ("Ann", "Ben", "Cat", "Dan")]
    services.registration_move(event=event, registration=made[3], up=True, user=director)
    assert waiting_names(event) == ["Ben", "Dan", "Cat"]
    with pytest.raises(services.TournamentError):
        services.registration_move(event=event, registration=made[1], up=True, user=director)
    services.registration_edit(
        event=event, registration=made[0], name="Annie", contact="0612", user=director
    )
    assert Entrant.objects.get(event=event).name == "Annie"
    with pytest.raises(services.TournamentError) as refused:
        services.registration_edit(
            event=event, registration=made[2], name="annie", contact="", user=director
        )
    assert refused.value.problems[0].field == "name"
    services.registration_withdraw(registration=made[0])
    assert entrant_names(event) == ["Ben"]
    assert waiting_names(event) == ["Dan", "Cat"]


def test_waiting_and_pending_registrations_are_never_seated(event, director):
    open_signup(event, director, cap=4)
    for name in TEN[:6]:
        sign_up(event, name)
    round_ = publish_next(event, director)
    seated = {seat.entrant.name for table in round_.tables.all() for seat in table.seats.all()}
    assert seated == set(TEN[:4])


def test_the_contact_is_never_in_the_log(event, director):
    open_signup(event, director)
    sign_up(event, "Ann", "ann-secret@example.org")
    for line in event.log.all():
        assert "ann-secret" not in repr(line.before) + repr(line.after)


def test_every_drop_frees_a_place_the_waiting_list_takes_in_order(event, director):
    """A drop from the desk, from a player's own link at once, or asked and agreed at the
    desk: each lets the first waiting person in."""
    open_signup(event, director, cap=4)
    for name in TEN[:7]:
        sign_up(event, name)
    assert waiting_names(event) == ["Eve", "Fay", "Gus"]
    entrant = Entrant.objects.get

    services.entrant_drop(event=event, entrant=entrant(event=event, name="Ann"), user=director)
    assert waiting_names(event) == ["Fay", "Gus"]

    event.self_drop = Event.SelfDrop.NOW
    event.save(update_fields=["self_drop"])
    services.entrant_self_drop(entrant=entrant(event=event, name="Ben"))
    assert waiting_names(event) == ["Gus"]

    event.self_drop = Event.SelfDrop.ASK
    event.save(update_fields=["self_drop"])
    services.entrant_self_drop(entrant=entrant(event=event, name="Cat"))
    assert waiting_names(event) == ["Gus"]  # only asked: the place is not free yet
    services.entrant_drop_answer(
        event=event, entrant=entrant(event=event, name="Cat"), agree=True, user=director
    )
    assert waiting_names(event) == []
    assert entrant_names(event) == ["Dan", "Eve", "Fay", "Gus"]
