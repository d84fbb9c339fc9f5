"""What the desk's and the players' live parts share: the poll's test, the pager; and what
the follow process (``deploy/bin/follow``, ``tournaments.web.follow``) reads to answer the
players' pages' polls without a web worker.

A live part is a ``<section id="live" hx-get="<its page>?rev=<what it shows>">``: a poll
sends the page's own address with ``rev`` and ``HX-Request``, and is answered 204 while
nothing new is to be shown, else the part anew (which names its new ``rev``). Which pages
the follow process answers, and what their ``rev`` is made of, is said once, in
``FOLLOWED_PAGES`` below.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.urls import reverse

from common.htmx import HtmxHttpRequest
from tournaments.events import selectors
from tournaments.standings import adapter as results

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

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


# --------------------------------------------------------------------------- following
#
# The pages a room of phones keeps open poll every 2 s. Their polls are answered by the
# follow process from what it keeps of each followed event (below, refreshed every
# FACTS_EVERY seconds by one small read of the event, the cache and the followed players'
# tables), and from the live parts the web server drew, kept by what they show: a poll
# with nothing new costs that process a dictionary look-up, and never waits behind the
# tables' deals in the web server's queue. What it cannot answer (a page it has not seen,
# a part not drawn yet) it asks of the web server, once for all the phones that ask.
#
# A page followed this way: its path below (the event's public token as ``token``, the
# player as ``entrant``), its kind, and a live part whose ``rev`` is, by kind:
#   "standings": "s" + the standings' shown version, the same part for every phone;
#   "projector": "p" + the same version;
#   "entrant":   "<version>.<the player's tables key>", the rank in ``<strong data-rank>``
#                (one part a player, its rank and round clock put in at each answer).

FOLLOWED_PAGES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("standings", re.compile(r"^/e/(?P<token>[A-Za-z0-9_-]{1,64})/standings/$")),
    ("projector", re.compile(r"^/e/(?P<token>[A-Za-z0-9_-]{1,64})/projector/$")),
    (
        "entrant",
        re.compile(r"^/e/(?P<token>[A-Za-z0-9_-]{1,64})/players/(?P<entrant>[0-9]{1,12})/$"),
    ),
)
PREFIXES = {"standings": "s", "projector": "p"}

# What the follow process reads in a live part the web server drew (bytes, as sent).
LIVE_REV = re.compile(rb'(id="live" hx-get="[^"?]*\?rev=)([^&"]*)')
ROUND_CLOCK = re.compile(rb'<p class="round-clock[^>]*>.*?</p>', re.S)
RANK = re.compile(rb"(<strong data-rank>)[0-9]+(</strong>)")

FACTS_EVERY = 0.5  # seconds between two readings of a followed event's facts
FACTS_STALE = 3.0  # facts older than this are not answered from: the web server answers


def standings_path(token: str) -> str:
    """The standings page's path (its first page's part keeps the ranks players see)."""
    return reverse("tournaments:standings", args=[token])


def followed_page(path: str) -> tuple[str, str, int | None] | None:
    """(kind, event token, entrant id or None) of a path the follow process answers."""
    for kind, pattern in FOLLOWED_PAGES:
        found = pattern.match(path)
        if found:
            entrant = found.groupdict().get("entrant")
            return kind, found["token"], int(entrant) if entrant else None
    return None


@dataclass
class FollowedEvent:
    """What the follow process keeps of one event, read anew every FACTS_EVERY seconds.
    ``missing``: no event has this token (its polls are answered 404)."""

    token: str
    missing: bool = False
    shown: str = ""  # the version of the standings the players' pages show now
    tables: dict[int, str] = field(default_factory=dict)  # player -> tables key
    unknown: frozenset[int] = frozenset()  # players asked for who are not of the event
    ranks: Mapping[int, int] | None = None  # each player's rank in the shown standings
    clock: selectors.Clock | None = None
    read_at: float = 0.0

    def fresh(self, now: float) -> bool:
        return now - self.read_at < FACTS_STALE

    def director_part(self) -> tuple[str, str]:
        """What of the shown version a director's change moves (a player's part drawn at
        another one is not answered again)."""
        logged, _, when = results.version_parts(self.shown)
        return logged, when


def followed_event(
    token: str, *, entrants: Collection[int] = (), before: FollowedEvent | None = None
) -> FollowedEvent:
    """The facts of the event of ``token`` the follow process answers from, for the
    players ``entrants`` whose pages are followed: a few queries and cache reads (the
    ranks, ten thousand at a big event, read once for each version shown: ``before``,
    the facts read last, hold them meanwhile)."""
    event = selectors.event_by_public_token(token=token, poll=True)
    if event is None:
        return FollowedEvent(token, missing=True, read_at=time.time())
    shown = selectors.standings_version(event=event)
    tables = selectors.entrants_tables_keys(event=event, entrant_ids=entrants) if entrants else {}
    ranks: Mapping[int, int] | None = None
    if before is not None and before.shown == shown and before.ranks is not None:
        ranks = before.ranks
    else:
        kept = results.kept_ranks(event)
        ranks = kept[1] if kept is not None and kept[0] == shown else None
    return FollowedEvent(
        token,
        shown=shown,
        tables=tables,
        unknown=frozenset(set(entrants) - set(tables)),
        ranks=ranks,
        clock=selectors.clock_of(selectors.latest_published_round(event=event)),
        read_at=time.time(),
    )


def clock_html(clock: selectors.Clock | None, now: float) -> bytes:
    """The round clock as the pages draw it, at ``now`` (seconds since the epoch)."""
    if clock is not None and clock.state == "running" and clock.ends_at is not None:
        left = max(0, int(clock.ends_at.timestamp() - now))
        clock = selectors.Clock("running", clock.ends_at, left)
    return render_to_string("scoring/_clock.html", {"clock": clock}).encode()


def expected_rev(kind: str, facts: FollowedEvent, entrant: int | None) -> str | None:
    """The ``rev`` a page of ``kind`` shows when up to date; None when not known here."""
    if kind in PREFIXES:
        return PREFIXES[kind] + facts.shown
    if entrant is None or entrant not in facts.tables:
        return None
    return f"{facts.shown}.{facts.tables[entrant]}"


def part_rev(body: bytes) -> str | None:
    """The ``rev`` a live part drawn by the web server names."""
    found = LIVE_REV.search(body)
    return found.group(2).decode() if found else None


def with_rev(body: bytes, rev: str) -> bytes:
    return LIVE_REV.sub(lambda m: m.group(1) + rev.encode(), body, count=1)


def with_rank(body: bytes, rank: int) -> bytes:
    return RANK.sub(lambda m: m.group(1) + str(rank).encode() + m.group(2), body, count=1)


def with_clock(body: bytes, clock: bytes) -> bytes:
    return ROUND_CLOCK.sub(lambda _: clock, body, count=1)


def entrant_part_key(rev: str) -> tuple[str, str, str]:
    """(the director's part of the version, the event's time, the player's tables key) of
    a player's part's ``rev``: what the part drawn at it is valid for."""
    version, n, r = rev.rsplit(".", 2)
    logged, _, when = results.version_parts(version)
    return logged, when, f"{n}.{r}"
