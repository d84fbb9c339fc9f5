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


def test_behind_a_proxy_a_guesser_locks_out_only_their_own_address(client, director, settings):
    """With NUM_PROXIES=1 every request comes from the proxy's address; the client is the
    last address of X-Forwarded-For, for the login lock-out as for every throttle."""
    settings.NUM_PROXIES = 1
    guesser = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    director_phone = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.20"}
    form = {"username": "director", "next": "/admin/"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(LOGIN, {**form, "password": "wrong"}, **guesser)
    assert client.post(LOGIN, {**form, "password": "right-horse-9"}, **guesser).status_code == 429
    answer = client.post(LOGIN, {**form, "password": "right-horse-9"}, **director_phone)
    assert answer.status_code == 302, "the director's own address is not locked out"
    # A guesser cannot slip past by naming another address before the proxy's.
    spoofed = {**guesser, "HTTP_X_FORWARDED_FOR": "198.51.100.20, 203.0.113.7"}
    client.logout()
    assert client.post(LOGIN, {**form, "password": "right-horse-9"}, **spoofed).status_code == 429
