"""What every tournament service does around its change: lock the event, log, bump, options.

One place for them, so events and brackets lock, audit and refresh the same way (scoring's
``scoring/services/frame.py`` does the same for a game).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F

from common.phrases import N_
from scoring.engines.base import OptionSpec
from scoring.engines.registry import ENGINES
from tournaments.errors import TournamentError
from tournaments.models import Event, EventLog

# Who makes a change: a signed-in account, a signed-out visitor (recorded as nobody), or
# nobody at all (a worker's task, a command).
ActingUser = User | AnonymousUser | None


def event_log(
    event: Event, action: str, user: ActingUser, *, before: Any = None, after: Any = None
) -> EventLog:
    """The audit row of one change (a signed-out user is recorded as nobody)."""
    return EventLog.objects.create(
        event=event,
        action=action,
        user=user if isinstance(user, User) and user.is_authenticated else None,
        before=before,
        after=after,
    )


def bump(event: Event) -> None:
    """A new revision for the event's pages (live parts refresh), read back into ``event``."""
    Event.objects.filter(pk=event.pk).update(revision=F("revision") + 1)
    event.refresh_from_db(fields=["revision", "status", "generation"])


def event_locked(event: Event) -> Event:
    """The event's row, locked for the rest of the transaction."""
    return Event.objects.select_for_update().get(pk=event.pk)


def refuse_closed(event: Event) -> None:
    if event.status == Event.Status.CLOSED:
        raise TournamentError.single(N_("this event is closed"), field="status")


def event_locked_open(event: Event) -> Event:
    """The event's row, locked, refused when the event is closed."""
    found = event_locked(event)
    refuse_closed(found)
    return found


def options_at(game: str, options: Mapping[str, Any], size: int) -> dict[str, Any]:
    """The event's options that apply at a table of ``size`` (names the game lacks left out)."""
    specs = {spec.name: spec for spec in ENGINES[game].option_specs()}
    return {
        name: value
        for name, value in options.items()
        if name in specs and _applies_at(specs[name], size)
    }


def _applies_at(spec: OptionSpec, size: int) -> bool:
    """Whether an option is offered at a table of ``size``."""
    counts = spec.player_counts
    return counts is None or size in counts
