"""The follow process: answers the polls of the pages a room of phones keeps open (the
standings, a player's own page, the projector) apart from the web server, so that a room
following an event never queues before the tables' deals.

Started by ``deploy/bin/follow`` (``FOLLOW_BIND``, default 127.0.0.1:8001; the web server
it asks what it cannot answer at ``FOLLOW_UPSTREAM``, default 127.0.0.1:8000). The proxy
(``deploy/Caddyfile``) sends it the polls alone (GET with ``HX-Request`` and ``rev``);
a site without it is served as before, every poll by the web server.

One thread serves every connection (asyncio): a poll is answered from what is kept in
memory, with no query and no round trip:

- 204 when the page shows what is current (``tournaments.web.live.expected_rev``);
- the live part anew, when one drawn by the web server for what is current is kept
  (a player's part with their rank of now and the round clock of now put in);
- else the web server is asked, once for every phone asking the same part at that moment,
  and its answer kept.

A second thread reads each followed event's facts every ``live.FACTS_EVERY`` seconds (a
few small queries and cache reads a followed event, whatever the number of phones);
facts older than ``live.FACTS_STALE`` are not answered from (the web server answers).
"""

from __future__ import annotations

import asyncio
import http.client
import logging
import os
import signal
import threading
import time
import urllib.parse
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("tablescore.follow")


def first_line(error: BaseException) -> str:
    """A database error in one line of a log (its kind and first line, no query)."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


KEPT_PARTS = 50_000  # live parts kept (a player's part each, the shared ones)
FORGET_AFTER = 120.0  # seconds: an event, a player no phone polled since is dropped
UPSTREAM_TIMEOUT = 30.0
MAX_HEAD = 16 * 1024
# Seconds between two lines of the log counting the polls answered.
FIRST_WAIT = 0.25  # seconds a poll of an event (a player) not followed yet waits its facts
REFUSED_KEPT = 5.0  # seconds a part the web server refused (404) is answered so
SAY_EVERY = float(os.environ.get("FOLLOW_SAY_EVERY", "60"))
# Headers of the web server's answer that are its own business, not the part's.
NOT_KEPT = {"date", "content-length", "connection", "keep-alive", "set-cookie", "server"}


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes = b""


@dataclass
class Part:
    """A live part the web server drew, as it sent it, and the ``rev`` it names."""

    rev: str
    headers: list[tuple[str, str]]
    body: bytes
    asked_at: float  # when the web server was asked for it
    has_clock: bool = False
    around_clock: tuple[bytes, bytes] = (b"", b"")  # the part before and after its clock

    def __post_init__(self) -> None:
        from tournaments.web.live import ROUND_CLOCK

        found = ROUND_CLOCK.search(self.body)
        self.has_clock = found is not None
        if found is None:
            self.around_clock = (self.body, b"")
        else:
            self.around_clock = (self.body[: found.start()], self.body[found.end() :])


PLAYERS = ("entrant", "me")  # the kinds of a player's part (their rank put in, their rev)
NOBODYS = object()  # a private token that leads nowhere (mistyped, or reissued)

REASONS = {
    200: "OK",
    204: "No Content",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
    503: "Service Unavailable",
}
NO_STORE = ("Cache-Control", "max-age=0, no-cache, no-store, must-revalidate, private")
SERVED = ("X-Served-By", "follow")  # on the answers made here (not the web server's as sent)


class Follower:
    def __init__(self, upstream: str) -> None:
        from tournaments.web import live

        self.live = live
        host, _, port = upstream.rpartition(":")
        self.upstream = (host or "127.0.0.1", int(port))
        self.events: dict[str, live.FollowedEvent] = {}
        self.polled: dict[str, float] = {}  # token -> last poll
        self.players: dict[str, dict[int, float]] = {}  # token -> player -> last poll
        self.parts: OrderedDict[tuple[str, str], Part] = OrderedDict()
        self.asking: dict[tuple[str, str], asyncio.Future[None]] = {}
        self.refused: dict[tuple[str, str], tuple[float, Answer]] = {}
        # token -> the parts its phones poll: (path, query less rev) -> (kind, player, when)
        self.keys: dict[str, dict[tuple[str, str], tuple[str, int | None, float]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sent_as: dict[str, dict[str, str]] = {}  # token -> a phone's headers passed on
        self.clocks: dict[tuple[str, int], bytes] = {}
        # Players' own pages: private token -> last poll; where each led at the last reading
        # of them (``owners_asked``: the tokens that reading asked about; one asked and not
        # in ``owners`` is nobody's: refused), and when that reading began.
        self.own: dict[str, float] = {}
        self.owners: dict[str, live.OwnPage] = {}
        self.owners_asked: frozenset[str] = frozenset()
        self.owners_read_at = 0.0
        self.pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="upstream")
        self.local = threading.local()
        self.wake = threading.Event()
        self.counts = {"204": 0, "kept": 0, "drawing": 0, "asked": 0, "late_ms": 0, "facts_ms": 0}

    def warm_up(self) -> None:
        """What a first answer would load, loaded before the first phone (the addresses,
        the templates' engine, a clock of each kind): no phone waits for it."""
        self.live.standings_path("warm-up")
        from datetime import UTC, datetime

        now = time.time()
        for clock in (
            self.live.selectors.Clock("running", datetime.fromtimestamp(now + 90, UTC), 90),
            self.live.selectors.Clock("paused", None, 90),
            None,
        ):
            self.live.clock_html(clock, now)

    # ------------------------------------------------------------------ the facts thread

    def read_facts(self) -> None:
        """Forever: each followed event's facts, read anew every FACTS_EVERY seconds."""
        from django.db import DatabaseError, close_old_connections

        said = time.time()
        while True:
            started = time.time()
            own_events = self.read_owners(started)
            for token in list(self.polled):
                if started - self.polled.get(token, 0) > FORGET_AFTER:
                    self.forget(token)
                    continue
                players = self.players.get(token, {})
                for player, when in list(players.items()):
                    if started - when > FORGET_AFTER:
                        players.pop(player, None)
                cpu = time.thread_time()
                try:
                    self.events[token] = self.live.followed_event(
                        token,
                        entrants=list(players),
                        before=self.events.get(token),
                        own=token in own_events,
                    )
                    if self.loop is not None and not self.loop.is_closed():
                        self.loop.call_soon_threadsafe(self.prefetch, token)
                except DatabaseError as error:  # away a moment, or a deadlock: read again
                    log.warning("reading the facts of %s: %s", token, first_line(error))
                    close_old_connections()
                except Exception:  # a fault of ours: facts go stale, polls go on
                    log.exception("reading the facts of %s", token)
                    close_old_connections()
                self.counts["facts_ms"] += int((time.thread_time() - cpu) * 1000)
            if started - said > SAY_EVERY and any(self.counts.values()):
                log.info(
                    "polls answered: %(204)d 204, %(kept)d kept parts, %(drawing)d 204 while "
                    "being drawn; %(asked)d asked of the web server; turns late by "
                    "%(late_ms)d ms at most; facts read in %(facts_ms)d ms of CPU",
                    self.counts,
                )
                self.counts["late_ms"] = 0
                said = started
            self.wake.wait(max(0.05, self.live.FACTS_EVERY - (time.time() - started)))
            self.wake.clear()

    def read_owners(self, started: float) -> set[str]:
        """Where each private token polled lately leads now, read anew (a reissued token
        leads nowhere from this reading on); returns the events of the players' own pages
        followed (their facts are read with the event's check-in window)."""
        from django.db import DatabaseError, close_old_connections

        for token, when in list(self.own.items()):
            if started - when > FORGET_AFTER:
                self.own.pop(token, None)
        asked = frozenset(self.own)
        if not asked:
            self.owners, self.owners_asked = {}, asked
            return set()
        try:
            owners = self.live.own_pages(asked)
        except Exception as error:  # these go stale, polls go on
            if isinstance(error, DatabaseError):  # away a moment, or a deadlock: read again
                log.warning("reading where players' own links lead: %s", first_line(error))
            else:
                log.exception("reading where players' own links lead")
            close_old_connections()
            return {own.event_token for own in self.owners.values() if own.entrant is not None}
        self.owners, self.owners_asked, self.owners_read_at = owners, asked, started
        events: set[str] = set()
        for token, own in owners.items():
            if own.entrant is None:
                continue
            polled = self.own.get(token, started)
            events.add(own.event_token)
            self.polled[own.event_token] = max(self.polled.get(own.event_token, 0), polled)
            players = self.players.setdefault(own.event_token, {})
            players[own.entrant] = max(players.get(own.entrant, 0), polled)
        return events

    def forget(self, token: str) -> None:
        self.polled.pop(token, None)
        self.players.pop(token, None)
        self.keys.pop(token, None)
        self.sent_as.pop(token, None)
        self.events.pop(token, None)

    # ------------------------------------------------------------------ a poll

    async def answer(self, method: str, target: str, headers: dict[str, str]) -> Answer:
        path, _, query = target.partition("?")
        page = self.live.followed_page(path)
        params = urllib.parse.parse_qsl(query, keep_blank_values=True)
        shown = next((value for name, value in params if name == "rev"), None)
        is_poll = headers.get("hx-request") == "true" and shown is not None
        if method != "GET":
            return Answer(405, [("Allow", "GET"), NO_STORE])
        if page is None or not is_poll or any(name == "part" for name, _ in params):
            return await self.ask(target, headers)  # not a poll of a followed page
        kind, token, entrant = page
        now = time.time()
        if kind == "me":  # a player's own page: their event and entrant, as led now
            led = await self.own_led(token, now)
            if led is None:  # not read yet: the page keeps what it shows
                self.counts["drawing"] += 1
                return Answer(204, [NO_STORE, SERVED])
            if led is NOBODYS:
                return Answer(404, [NO_STORE, SERVED], b"")
            if now - self.owners_read_at > self.live.FACTS_STALE or led.entrant is None:
                return await self.ask(target, headers)  # stale, or no entry tonight
            token, entrant = led.event_token, led.entrant
        self.polled[token] = now
        if entrant is not None:
            self.players.setdefault(token, {})[entrant] = now
        facts = self.events.get(token)
        if facts is None or (entrant is not None and entrant not in facts.tables):
            facts = await self.facts_read(token, entrant)  # a new event or player
            if facts is None:  # not read yet: the page keeps what it shows
                self.counts["drawing"] += 1
                return Answer(204, [NO_STORE, SERVED])
        if facts.missing or (entrant is not None and entrant in facts.unknown):
            return Answer(404, [NO_STORE, SERVED], b"")
        expected = self.live.expected_rev(kind, facts, entrant, now)
        if expected is None or not facts.fresh(now):
            return await self.ask(target, headers)
        if shown == expected:
            self.counts["204"] += 1
            return Answer(204, [NO_STORE, SERVED])
        if kind in PLAYERS and shown is not None and self.live.facts_behind(shown, expected):
            self.wake.set()  # the player's own change, drawn for them: not undone here
            self.counts["204"] += 1
            return Answer(204, [NO_STORE, SERVED])
        rest = urllib.parse.urlencode([(n, v) for n, v in params if n != "rev"])
        key = (path, rest)
        self.keys.setdefault(token, {})[key] = (kind, entrant, now)
        self.sent_as[token] = passed_on(headers)
        part = self.kept(kind, key, facts, entrant, expected)
        if part is not None and not self.rank_known(kind, part, facts):
            # Only the player's rank is new, and the ranks of the standings shown are not
            # kept yet (the standings' part, drawn now, keeps them): the page keeps its own.
            self.draw(self.standings_key(token), facts)
            self.counts["drawing"] += 1
            return Answer(204, [NO_STORE, SERVED])
        if part is None:
            refused = self.refused.get(key)
            if refused is not None and now - refused[0] < REFUSED_KEPT:
                return refused[1]  # the web server's refusal (a player gone: 404), as sent
            # Being drawn by the web server: the page keeps what it shows until it is kept.
            self.draw(key, facts)
            self.counts["drawing"] += 1
            return Answer(204, [NO_STORE, SERVED])
        self.counts["kept"] += 1
        answer = self.finished(kind, part, facts, entrant, expected, now)
        return Answer(200, [*part.headers, SERVED], answer)

    async def watch_lag(self) -> None:
        """How late this thread's turns come (the longest lately, in the counts' line)."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.05)
            late = (time.perf_counter() - started - 0.05) * 1000
            self.counts["late_ms"] = max(self.counts.get("late_ms", 0), int(late))

    async def own_led(self, own: str, now: float) -> Any:
        """Where the private token ``own`` leads (an ``OwnPage``), NOBODYS, or None when
        it is not read within FIRST_WAIT seconds (a token polled for the first time)."""
        self.own[own] = now
        deadline = time.monotonic() + FIRST_WAIT
        while own not in self.owners_asked:
            if time.monotonic() >= deadline:
                return None
            self.wake.set()
            await asyncio.sleep(0.02)
        led = self.owners.get(own)
        return NOBODYS if led is None else led

    def still_led(self, path: str, token: str, entrant: int | None) -> bool:
        """Whether the own page at ``path`` still leads to ``entrant`` of the event of
        ``token`` (its link not reissued, its roster player still entered there)."""
        page = self.live.followed_page(path)
        led = self.owners.get(page[1]) if page is not None else None
        return led is not None and (led.event_token, led.entrant) == (token, entrant)

    async def facts_read(self, token: str, entrant: int | None) -> Any:
        """The facts of an event (and player) seen for the first time, read at once; None
        when they are not read within FIRST_WAIT seconds."""
        self.wake.set()
        deadline = time.monotonic() + FIRST_WAIT
        while time.monotonic() < deadline:
            await asyncio.sleep(0.02)
            facts = self.events.get(token)
            if facts is not None and (
                facts.missing
                or entrant is None
                or entrant in facts.tables
                or entrant in facts.unknown
            ):
                return facts
        return None

    def kept(
        self, kind: str, key: tuple[str, str], facts: Any, entrant: int | None, expected: str
    ) -> Part | None:
        """The part kept for ``key`` that shows what ``expected`` names, or None."""
        part = self.parts.get(key)
        if part is None:
            return None
        if kind not in PLAYERS:
            return part if part.rev == expected else None
        if self.live.part_key(kind, part.rev) != self.live.part_key(kind, expected):
            return None
        return part

    @staticmethod
    def rank_known(kind: str, part: Part, facts: Any) -> bool:
        """Whether the rank ``part`` shows can be given as of ``facts``."""
        shown_then = part.rev.startswith(facts.shown + ".")
        return kind not in PLAYERS or facts.ranks is not None or shown_then

    def standings_key(self, token: str) -> tuple[str, str]:
        """The key of the first page of the standings (drawing it keeps their ranks)."""
        return (self.live.standings_path(token), "")

    def finished(
        self, kind: str, part: Part, facts: Any, entrant: int | None, expected: str, now: float
    ) -> bytes:
        """The kept part as this phone gets it: its rev, rank and clock of now."""
        before, after = part.around_clock
        if kind in PLAYERS:
            before = self.live.with_rev(before, expected)
            if facts.ranks is not None and entrant in facts.ranks:
                rank = facts.ranks[entrant]  # drawn once, above or below the clock
                before, after = self.live.with_rank(before, rank), self.live.with_rank(after, rank)
        if not part.has_clock:
            return before
        return b"".join((before, self.clock(facts, now), after))

    def clock(self, facts: Any, now: float) -> bytes:
        """The event's round clock drawn once a second for every phone."""
        key = (facts.token, int(now))
        drawn = self.clocks.get(key)
        if drawn is None:
            if len(self.clocks) > 1000:
                self.clocks.clear()
            drawn = self.clocks[key] = self.live.clock_html(facts.clock, now)
        return drawn

    # ------------------------------------------------------------------ the web server

    def draw(self, key: tuple[str, str], facts: Any) -> None:
        """Have the web server draw the live part ``key`` (path, query less rev) in the
        background, once for every phone, unless one drawn since ``facts`` were read is
        kept (the part then names newer facts than these: it is answered once they are
        read); a part drawn is kept, a refusal is kept REFUSED_KEPT seconds."""
        part = self.parts.get(key)
        if key in self.asking or (part is not None and part.asked_at >= facts.read_at):
            return
        path, rest = key
        target = f"{path}?{rest}&rev=~" if rest else f"{path}?rev=~"  # always drawn
        # Asked as the phones of the event ask (the site's name, the proxy's headers).
        headers = {**self.sent_as.get(facts.token, {}), "hx-request": "true"}
        self.asking[key] = asyncio.ensure_future(self.drawn(key, target, headers))

    async def drawn(self, key: tuple[str, str], target: str, headers: dict[str, str]) -> None:
        asked_at = time.time()
        try:
            answer = await self.ask(target, headers)
            rev = self.live.part_rev(answer.body) if answer.status == 200 else None
            own_page = key[0].startswith("/me/")
            if rev is not None and own_page and self.live.part_path(answer.body) != key[0]:
                # Never kept for another page (a player's own part is theirs alone).
                log.error("a part drawn for %s names another page", self.live.logged_path(key[0]))
                rev = None
                answer = Answer(503, [NO_STORE, ("Retry-After", "2")])
            if rev is not None:
                self.parts[key] = Part(rev, answer.headers, answer.body, asked_at)
                self.parts.move_to_end(key)
                while len(self.parts) > KEPT_PARTS:
                    self.parts.popitem(last=False)
                self.refused.pop(key, None)
            elif answer.status != 503:  # busy: asked again at the next poll
                self.refused[key] = (time.time(), answer)
        except Exception:
            log.exception("drawing %s", self.live.logged_path(target))
        finally:
            self.asking.pop(key, None)

    def prefetch(self, token: str) -> None:
        """After an event's facts are read: the parts its phones polled lately that these
        facts make old are drawn at once, before the phones' next polls."""
        facts = self.events.get(token)
        if facts is None or facts.missing:
            return
        now = time.time()
        for key, (when, _) in list(self.refused.items()):
            if now - when > REFUSED_KEPT:
                self.refused.pop(key, None)
        followed = self.keys.get(token, {})
        for key, (kind, entrant, polled) in list(followed.items()):
            if now - polled > FORGET_AFTER:
                followed.pop(key, None)
                continue
            if kind == "me" and not self.still_led(key[0], token, entrant):
                followed.pop(key, None)  # reissued (or led elsewhere): its part forgotten
                self.parts.pop(key, None)
                continue
            expected = self.live.expected_rev(kind, facts, entrant, now)
            if expected is None:
                continue
            part = self.kept(kind, key, facts, entrant, expected)
            if part is None:
                self.draw(key, facts)
            elif not self.rank_known(kind, part, facts):
                self.draw(self.standings_key(token), facts)

    async def ask(self, target: str, headers: dict[str, str]) -> Answer:
        self.counts["asked"] += 1
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        try:
            answer = await loop.run_in_executor(self.pool, self.ask_now, target, headers)
            log.debug("asked %s: %d in %.0f ms", self.live.logged_path(target), answer.status,
                      (time.perf_counter() - started) * 1000)  # fmt: skip
            return answer
        except (OSError, http.client.HTTPException) as error:
            log.warning(
                "the web server did not answer %s: %s", self.live.logged_path(target), error
            )
            body = b"The server is busy: the page tries again in a moment."
            return Answer(503, [NO_STORE, ("Retry-After", "2")], body)

    def ask_now(self, target: str, headers: dict[str, str]) -> Answer:
        """The web server's answer (a connection kept by each thread)."""
        sent = passed_on(headers)
        for attempt in (1, 2):  # a kept connection the server closed meanwhile: once more
            connection = getattr(self.local, "connection", None)
            if connection is None:
                connection = http.client.HTTPConnection(*self.upstream, timeout=UPSTREAM_TIMEOUT)
                self.local.connection = connection
            try:
                connection.request("GET", target, headers=sent)
                got = connection.getresponse()
                body = got.read()
            except (OSError, http.client.HTTPException):
                connection.close()
                self.local.connection = None
                if attempt == 2:
                    raise
                continue
            kept = [(n, v) for n, v in got.getheaders() if n.lower() not in NOT_KEPT]
            return Answer(got.status, kept, body)
        raise AssertionError("unreachable")

    # ------------------------------------------------------------------ HTTP

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.LimitOverrunError:
                    await self.send(writer, Answer(431, [NO_STORE]), close=True)
                    return
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                parts = lines[0].split(" ")
                if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
                    await self.send(writer, Answer(400, [NO_STORE]), close=True)
                    return
                method, target, version = parts
                headers: dict[str, str] = {}
                for line in lines[1:]:
                    name, colon, value = line.partition(":")
                    if colon:
                        headers[name.strip().lower()] = value.strip()
                if headers.get("content-length", "0") != "0" or "transfer-encoding" in headers:
                    await self.send(writer, Answer(400, [NO_STORE]), close=True)
                    return
                close = headers.get("connection", "").lower() == "close" or version == "HTTP/1.0"
                try:
                    answer = await self.answer(method, target, headers)
                except Exception:
                    log.exception("answering %s", logged_path(target))
                    answer = Answer(503, [NO_STORE, ("Retry-After", "2")])
                await self.send(writer, answer, close=close)
                if close:
                    return
        finally:
            writer.close()

    async def send(self, writer: asyncio.StreamWriter, answer: Answer, *, close: bool) -> None:
        head = [f"HTTP/1.1 {answer.status} {REASONS.get(answer.status, 'Status')}"]
        head += [f"{name}: {value}" for name, value in answer.headers]
        if answer.status != 204:
            head.append(f"Content-Length: {len(answer.body)}")
        if close:
            head.append("Connection: close")
        writer.write("\r\n".join(head).encode("latin-1") + b"\r\n\r\n" + answer.body)
        with suppress(ConnectionError):
            await writer.drain()


def logged_path(target: str) -> str:
    from tournaments.web.live import logged_path as without_token

    return without_token(target)


def passed_on(headers: dict[str, str]) -> dict[str, str]:
    """What of a phone's request the web server is told: the site's name, the proxy's
    headers (the phone's address, https), htmx's (no cookie: a poll needs none)."""
    return {
        name: value
        for name, value in headers.items()
        if name.startswith(("hx-", "x-forwarded-")) or name in ("host", "accept")
    }


async def serve_forever(follower: Follower, host: str, port: int) -> None:
    server = await asyncio.start_server(follower.serve, host, port, limit=MAX_HEAD, backlog=1024)
    stop = asyncio.Event()
    loop = follower.loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    watch = asyncio.ensure_future(follower.watch_lag())
    print(f"follow: answering polls on {host}:{port}", flush=True)
    async with server:
        await stop.wait()
    watch.cancel()


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"))
    host, _, port = os.environ.get("FOLLOW_BIND", "127.0.0.1:8001").rpartition(":")
    follower = Follower(os.environ.get("FOLLOW_UPSTREAM", "127.0.0.1:8000"))
    follower.warm_up()
    threading.Thread(target=follower.read_facts, name="facts", daemon=True).start()
    asyncio.run(serve_forever(follower, host or "127.0.0.1", int(port)))


if __name__ == "__main__":
    main()
