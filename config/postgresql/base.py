"""PostgreSQL as Django has it, with a health check that costs no round trip, and a
deadline on every statement.

Kept connections are checked once per request before first use (``CONN_HEALTH_CHECKS``).
Django's check asks the server ``SELECT 1``: a round trip on every request. An idle
connection has nothing to read, though: the server writes to it unasked only to say
goodbye (a terminated backend, a shutdown) or when the socket closes. So the socket is
polled first, without waiting; only when something is there is ``SELECT 1`` asked,
and it reads the goodbye and fails, so Django replaces the connection.

A peer that vanished without a word (a cut cable, no FIN), or a server that takes the
statement and never answers, is not seen by either check. With ``DB_STATEMENT_TIMEOUT``
set, a statement (or a commit) still waiting a moment past it has its socket shut down by
a watcher thread: the wait ends with the database error that is answered as the database
being unavailable (503 "try again"), and the connection is replaced. A live server stops
such a statement itself first (``statement_timeout``).
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db.backends.postgresql import base

GRACE_SECONDS = 0.5  # past the server's own statement_timeout, before the socket is cut


class StatementWatch:
    """One thread per process that cuts the sockets of statements past their deadline.

    A statement costs two dictionary writes; the thread wakes every ``tick`` seconds."""

    def __init__(self, tick: float = 0.2):
        self.tick = tick
        self.running: dict[int, tuple[float, int]] = {}  # thread id: (deadline, socket fd)
        self.started = False
        self.lock = threading.Lock()

    @contextmanager
    def deadline(self, fileno: int, seconds: float) -> Iterator[None]:
        if not self.started:
            self.start()
        key = threading.get_ident()
        self.running[key] = (time.monotonic() + seconds, fileno)
        try:
            yield
        finally:
            self.running.pop(key, None)

    def start(self) -> None:
        with self.lock:
            if not self.started:
                threading.Thread(target=self.watch, name="statement-watch", daemon=True).start()
                self.started = True

    def watch(self) -> None:
        while True:
            time.sleep(self.tick)
            now = time.monotonic()
            for key, (deadline, fileno) in list(self.running.items()):
                if now > deadline and self.running.get(key) == (deadline, fileno):
                    self.running.pop(key, None)
                    cut(fileno)


def cut(fileno: int) -> None:
    """Shut a socket down under whoever waits on it (the waiting read ends at once)."""
    try:
        duplicate = socket.socket(fileno=os.dup(fileno))
    except OSError:
        return
    try:
        duplicate.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        duplicate.close()


WATCH = StatementWatch()


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if settings.DB_STATEMENT_TIMEOUT > 0:
            self.execute_wrappers.append(self._within_deadline)

    def _deadline(self) -> Any:
        return WATCH.deadline(
            self.connection.fileno(), settings.DB_STATEMENT_TIMEOUT + GRACE_SECONDS
        )

    def _within_deadline(
        self, execute: Callable[..., Any], sql: Any, params: Any, many: bool, context: Any
    ) -> Any:
        with self._deadline():
            return execute(sql, params, many, context)

    def _commit(self) -> None:
        commit = base.DatabaseWrapper._commit  # type: ignore[attr-defined]
        if self.connection is not None and settings.DB_STATEMENT_TIMEOUT > 0:
            with self._deadline():
                return commit(self)
        return commit(self)

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if not hasattr(select, "poll"):  # no poll() on this platform: ask the server
            return super().is_usable()
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN)
            waiting = poller.poll(0)
        except (OSError, ValueError):
            return False
        return super().is_usable() if waiting else True
