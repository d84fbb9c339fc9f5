"""The desk's registrations: settings, approve, refuse, move, remove, edit; only the
event's directors."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.signup.conftest import open_signup
from tournaments.events import services
from tournaments.models import Entrant, Registration, SignUp

pytestmark = pytest.mark.django_db


def change(desk, event, registration, do):
    return desk.post(
        reverse("tournaments:registration_change", args=[event.pk, registration.pk]), {"do": do}
    )


def test_the_director_turns_the_sign_up_on_with_a_cap_approval_and_closing_time(desk, event):
    answer = desk.post(
        reverse("tournaments:signup_settings", args=[event.pk]),
        {"open": "on", "approval": "on", "cap": "8", "closes_at": "2030-01-31T18:00"},
    )
    assert answer.status_code == 302
    settings = SignUp.objects.get(event=event)
    assert settings.open and settings.approval and settings.cap == 8
    assert settings.closes_at.year == 2030
    page = desk.get(reverse("tournaments:desk_signup", args=[event.pk])).content.decode()
    assert f"/e/{event.public_token}/signup/" in page


@pytest.mark.parametrize(
    ("posted", "field", "message"),
    [
        ({"cap": "eight"}, "cap", "Enter a number of players"),
        ({"cap": "0"}, "cap", "the cap is a number of players from 1"),
        ({"closes_at": "tomorrow"}, "closes_at", "Enter the closing time"),
    ],
)
def test_bad_settings_are_refused_beside_their_field(desk, event, posted, field, message):
    answer = desk.post(reverse("tournaments:signup_settings", args=[event.pk]), posted)
    assert answer.status_code == 200
    assert message.lower() in answer.content.decode().lower()
    assert not SignUp.objects.filter(event=event).exists()


def test_the_director_approves_refuses_moves_removes_and_edits(desk, event, director):
    open_signup(event, director, cap=1, approval=True)
    ann, ben, cat, dan = (
        services.registration_create(event=event, name=n, contact=f"{n}@example.org")
        for n in ("Ann", "Ben", "Cat", "Dan")
    )
    page = desk.get(reverse("tournaments:desk_signup", args=[event.pk])).content.decode()
    assert "To approve" in page and "Ann@example.org" in page
    for registration in (ann, ben, cat):
        assert change(desk, event, registration, "approve").status_code == 302
    assert list(Entrant.objects.filter(event=event).values_list("name", flat=True)) == ["Ann"]
    assert change(desk, event, cat, "up").status_code == 302
    waiting = Registration.objects.filter(event=event, status="waiting").order_by("place")
    assert [r.name for r in waiting] == ["Cat", "Ben"]
    assert change(desk, event, dan, "refuse").status_code == 302
    assert Registration.objects.get(pk=dan.pk).status == "refused"
    edit = reverse("tournaments:registration_edit", args=[event.pk, ann.pk])
    assert desk.post(edit, {"name": "Annie", "contact": ""}).status_code == 302
    assert Entrant.objects.get(event=event).name == "Annie"
    assert change(desk, event, ann, "remove").status_code == 302
    assert list(Entrant.objects.filter(event=event).values_list("name", flat=True)) == ["Cat"]


def test_a_refused_change_is_shown_not_a_500(desk, event, director):
    open_signup(event, director)
    ann = services.registration_create(event=event, name="Ann")
    answer = change(desk, event, ann, "approve")
    assert answer.status_code == 200
    assert "Ann is not waiting for approval." in answer.content.decode()
    answer = change(desk, event, ann, "dance")
    assert answer.status_code == 200
    edit = reverse("tournaments:registration_edit", args=[event.pk, ann.pk])
    answer = desk.post(edit, {"name": "", "contact": ""})
    assert answer.status_code == 200
    assert "The name is empty." in answer.content.decode()


def test_another_director_sees_no_registration(client, event, director, django_user_model):
    open_signup(event, director)
    ann = services.registration_create(event=event, name="Ann", contact="ann@example.org")
    other = django_user_model.objects.create_user("other", password="pw", is_staff=True)
    client.force_login(other)
    assert client.get(reverse("tournaments:desk_signup", args=[event.pk])).status_code == 404
    assert change(client, event, ann, "remove").status_code == 404
    assert Registration.objects.get(pk=ann.pk).status == "entrant"
