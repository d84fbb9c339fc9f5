"""Repeated wrong passwords at the login page are slowed down, then forgiven."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"


def attempt(client, password: str):
    return client.post(LOGIN, {"username": "director", "password": password, "next": "/admin/"})


@pytest.fixture
def director():
    return get_user_model().objects.create_superuser("director", "d@example.org", "right-horse-9")


def test_wrong_passwords_lock_the_login_with_a_429_then_it_recovers(client, director):
    from axes.models import AccessAttempt

    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        assert attempt(client, "wrong").status_code == 200  # the form again, with its error
    assert attempt(client, "wrong").status_code == 429
    locked = attempt(client, "right-horse-9")
    assert locked.status_code == 429, "the right password does not get through a lockout"
    assert b"too many" in locked.content.lower()

    # Once the pause has passed, the right password works again.
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - settings.AXES_COOLOFF_TIME * 2
    )
    answer = attempt(client, "right-horse-9")
    assert answer.status_code == 302
    assert answer["Location"] == "/admin/"


def test_a_lockout_is_per_user_and_address(client, director):
    get_user_model().objects.create_superuser("other", "o@example.org", "other-horse-9")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "wrong")
    answer = client.post(LOGIN, {"username": "other", "password": "other-horse-9", "next": "/"})
    assert answer.status_code == 302
