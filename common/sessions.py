"""Django's database sessions, read by a statement built once (see ``common.compiled``).

Every page and form a phone sends reads its session (the seat it holds, its games): the
read is the same each time but for the key and the hour, so its SQL is built once. The
rows, their expiry and everything else are Django's own ``db`` session engine's.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from common.compiled import TEXT_HOLES, CompiledRead, Hole

# A moment no session is read at (the placeholder of "now" while the read is built).
WHEN_HOLE = Hole(datetime.datetime(1901, 2, 3, 4, 5, 6, tzinfo=datetime.UTC))

SESSION_BY_KEY = CompiledRead(
    lambda key, now: Session.objects.filter(session_key=key, expire_date__gt=now).order_by()[:1],
    (TEXT_HOLES[0], WHEN_HOLE),
)


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self) -> Any:
        session = SESSION_BY_KEY.first(self.session_key, timezone.now())
        if session is None:
            self._session_key = None
        return session
