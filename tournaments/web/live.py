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
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.urls import reverse

from common.htmx import HtmxHttpRequest
from common.private_paths import without_private_tokens
from tournaments.events import me_selectors, selectors
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
#                (one part a player, its rank and round clock put in at each answer);
#   "me":        a player's own page, its private token as ``own``: the entrant's rev and
#                ".<check-in key>" (whether they may check themselves in now, which a
#                window opens and closes with no change written). Their own changes
#                (check-in, drop, the desk's answer) are logged, and so move the version.
#                The token is resolved to its event and entrant by the facts thread, anew
#                at each reading (``own_pages``): a reissued token is refused (404) from
#                the first reading after the reissue, at most FACTS_EVERY seconds and one
#                reading later, and never answered from facts older than FACTS_STALE. A
#                roster player's token leads to their entry in the roster's current night;
#                one with no entry tonight is passed on to the web server.

FOLLOWED_PAGES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("standings", re.compile(r"^/e/(?P<token>[A-Za-z0-9_-]{1,64})/standings/$")),
    ("projector", re.compile(r"^/e/(?P<token>[A-Za-z0-9_-]{1,64})/projector/$")),
    (
        "entrant",
        re.compile(r"^/e/(?P<token>[A-Za-z0-9_-]{1,64})/players/(?P<entrant>[0-9]{1,12})/$"),
    ),
    ("me", re.compile(rf"^/me/(?P<own>[A-Za-z0-9_-]{{1,{me_selectors.TOKEN_LONGEST}}})/$")),
)
PREFIXES = {"standings": "s", "projector": "p"}

# What the follow process reads in a live part the web server drew (bytes, as sent).
LIVE_REV = re.compile(rb'(id="live" hx-get="[^"?]*\?rev=)([^&"]*)')
LIVE_PATH = re.compile(rb'id="live" hx-get="([^"?]*)\?')
# The clock as drawn with the line its template ends with (``clock_html`` draws both).
ROUND_CLOCK = re.compile(rb'<p class="round-clock[^>]*>.*?</p>\n?', re.S)
RANK = re.compile(rb"(<strong data-rank>)[0-9]+(</strong>)")

FACTS_EVERY = 0.5  # seconds between two readings of a followed event's facts
FACTS_STALE = 3.0  # facts older than this are not answered from: the web server answers


def standings_path(token: str) -> str:
    """The standings page's path (its first page's part keeps the ranks players see)."""
    return reverse("tournaments:standings", args=[token])


def followed_page(path: str) -> tuple[str, str, int | None] | None:
    """(kind, token, entrant id or None) of a path the follow process answers: the
    event's public token, or for kind "me" the player's private token (resolved to their
    event and entrant by ``own_pages``)."""
    for kind, pattern in FOLLOWED_PAGES:
        found = pattern.match(path)
        if found:
            named = found.groupdict()
            entrant = named.get("entrant")
            return kind, named.get("token") or named["own"], int(entrant) if entrant else None
    return None


def logged_path(target: str) -> str:
    """``target`` as a log line may say it: a player's private token left out."""
    return without_private_tokens(target)


@dataclass(frozen=True)
class OwnPage:
    """Where a player's private token leads now: their event's public token and their
    entrant (None: a roster player with no entry in the night being played)."""

    event_token: str
    entrant: int | None


def own_pages(tokens: Collection[str]) -> dict[str, OwnPage]:
    """Where each of ``tokens`` leads now, as the page itself finds it; a token that is
    nobody's (mistyped, reissued) is left out. A few queries for all of them."""
    return {
        token: OwnPage(event_token, entrant)
        for token, (event_token, entrant) in me_selectors.own_links_led(tokens=tokens).items()
    }


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
    event: Event | None = None  # the row read (its check-in window), for a player's own page

    def check_in_key(self, now: float) -> str:
        """What a player's own page shows of check-in at ``now`` (its rev's last part)."""
        if self.event is None:
            return ""
        at = datetime.fromtimestamp(now, UTC)
        return me_selectors.check_in_state(self.event, now=at).key

    def fresh(self, now: float) -> bool:
        return now - self.read_at < FACTS_STALE

    def director_part(self) -> tuple[str, str]:
        """What of the shown version a director's change moves (a player's part drawn at
        another one is not answered again)."""
        logged, _, when = results.version_parts(self.shown)
        return logged, when


def followed_event(
    token: str,
    *,
    entrants: Collection[int] = (),
    before: FollowedEvent | None = None,
    own: bool = False,
) -> FollowedEvent:
    """The facts of the event of ``token`` the follow process answers from, for the
    players ``entrants`` whose pages are followed: a few queries and cache reads (the
    ranks, ten thousand at a big event, read once for each version shown: ``before``,
    the facts read last, hold them meanwhile). ``own``: players' own pages are followed
    too (the event's whole row is read, for its check-in window)."""
    event = selectors.event_by_public_token(token=token, poll=not own)
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
        event=event if own else None,
    )


def clock_html(clock: selectors.Clock | None, now: float) -> bytes:
    """The round clock as the pages draw it, at ``now`` (seconds since the epoch)."""
    if clock is not None and clock.state == "running" and clock.ends_at is not None:
        left = max(0, int(clock.ends_at.timestamp() - now))
        clock = selectors.Clock("running", clock.ends_at, left)
    return render_to_string("scoring/_clock.html", {"clock": clock}).encode()


def expected_rev(
    kind: str, facts: FollowedEvent, entrant: int | None, now: float | None = None
) -> str | None:
    """The ``rev`` a page of ``kind`` shows when up to date (at ``now``, for a player's
    own page); None when not known here."""
    if kind in PREFIXES:
        return PREFIXES[kind] + facts.shown
    if entrant is None or entrant not in facts.tables:
        return None
    rev = f"{facts.shown}.{facts.tables[entrant]}"
    if kind == "me":
        if facts.event is None:
            return None
        return f"{rev}.{facts.check_in_key(time.time() if now is None else now)}"
    return rev


def own_rev(version: str, tables: str, check_in_key: str) -> str:
    """A player's own page's ``rev`` (as ``expected_rev`` makes it for kind "me")."""
    return f"{version}.{tables}.{check_in_key}"


def part_path(body: bytes) -> str | None:
    """The path of the page a live part drawn by the web server polls."""
    found = LIVE_PATH.search(body)
    return found.group(1).decode() if found else None


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


def part_key(kind: str, rev: str) -> tuple[str, ...]:
    """What a player's part drawn at ``rev`` is valid for (their own page's: and what it
    shows of check-in); a rev of no known shape is valid for nothing."""
    try:
        if kind == "me":
            rest, _, check_in = rev.rpartition(".")
            return (*entrant_part_key(rest), check_in)
        return entrant_part_key(rev)
    except ValueError:
        return ("~", rev)


def facts_behind(shown: str, expected: str) -> bool:
    """Whether a page shows a director's change (a logged line) newer than the facts
    read last: a part the player drew themselves (a check-in, a drop) a moment ago. The
    page is not sent an older part; the next reading catches up."""
    mine, _, _ = shown.partition(".")
    theirs, _, _ = expected.partition(".")
    return mine.isdigit() and theirs.isdigit() and len(mine) < 19 and int(mine) > int(theirs)
