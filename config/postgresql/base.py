"""PostgreSQL as Django has it, with a health check that costs no round trip.

Kept connections are checked once per request before first use (``CONN_HEALTH_CHECKS``).
Django's check asks the server ``SELECT 1``: a round trip on every request. An idle
connection has nothing to read, though: the server writes to it unasked only to say
goodbye (a terminated backend, a shutdown) or when the socket closes. So the socket is
polled first, without waiting; only when something is there is ``SELECT 1`` asked,
and it reads the goodbye and fails, so Django replaces the connection.

A peer that vanished without a word (a cut cable, no FIN) is not seen by either check
before the first statement; that statement fails and is answered as the database being
unavailable.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
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
