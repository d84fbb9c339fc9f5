"""What the desk's and the players' live parts share: the poll's test, the pager."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common.htmx import HtmxHttpRequest

if TYPE_CHECKING:
    from tournaments.models import Event


def live_unchanged(request: HtmxHttpRequest, event: Event) -> bool:
    """A poll whose page already shows this revision: nothing to swap."""
    return bool(request.htmx) and request.GET.get("rev") == str(event.revision)


def pager_for(count: int, page: int, size: int) -> dict[str, Any]:
    """The pager's facts for page ``page`` of ``count`` items (a page past the end is the
    last); ``first`` and ``last`` are 1-based."""
    pages = max(1, -(-count // size))
    page = min(max(1, page), pages)
    return {
        "page": page,
        "pages": pages,
        "count": count,
        "first": (page - 1) * size + 1,
        "last": min(page * size, count),
    }
