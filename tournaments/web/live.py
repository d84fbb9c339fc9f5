"""What the desk's and the players' live parts share."""

from __future__ import annotations

from common.htmx import HtmxHttpRequest
from tournaments.models import Event


def live_unchanged(request: HtmxHttpRequest, event: Event) -> bool:
    """A poll whose page already shows this revision: nothing to swap."""
    return bool(request.htmx) and request.GET.get("rev") == str(event.revision)
