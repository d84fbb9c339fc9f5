"""The kept PostgreSQL connection's check before each request: no statement while the
connection is sound, a new connection once the server has ended the old one."""

from __future__ import annotations

import select

import psycopg
import pytest
from django.db import connection

from scoring.models import Game
from tests.reliability.live import the_test_database_url

pytestmark = pytest.mark.django_db(transaction=True)


def last_statement(backend_pid: int) -> str:
    """What the server last ran for ``backend_pid``, read over a connection of its own."""
    with psycopg.connect(the_test_database_url(), autocommit=True) as other:
        row = other.execute(
            "SELECT query FROM pg_stat_activity WHERE pid = %s", [backend_pid]
        ).fetchone()
    return row[0] if row else ""


def terminate(backend_pid: int) -> None:
    with psycopg.connect(the_test_database_url(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [backend_pid])


def wait_until_readable(fileno: int) -> None:
    poller = select.poll()
    poller.register(fileno, select.POLLIN)
    assert poller.poll(10_000), "the server's goodbye never reached the socket"


def test_a_sound_connection_is_checked_without_a_statement(postgres):
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'the last word before the check'")
    assert connection.is_usable()
    assert last_statement(pid) == "SELECT 'the last word before the check'"


def test_a_connection_the_server_ended_is_replaced_before_the_next_request(postgres):
    connection.ensure_connection()
    old = connection.connection
    terminate(old.info.backend_pid)
    wait_until_readable(old.fileno())
    assert not connection.is_usable()

    # As at the start of each request: the check runs once before the first statement.
    connection.health_check_done = False
    assert Game.objects.count() == 0
    assert connection.connection is not old
