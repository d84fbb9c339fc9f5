"""A big event followed by a room of phones while its tables enter deals as fast as they can.

The bench makes a PostgreSQL database and a Redis of its own (both dropped at the end),
and in one run, side by side:

- builds an event of PLAYERS players (10,000; ``BENCH_FOLLOWING_PLAYERS`` to change),
  seats round 1 with the seating service and publishes it with the publishing task
  (each timed: the goal is 2 s each), then finishes a share of its tables in bulk (their
  play is not what is timed) so that the standings have something to rank;
- starts gunicorn as a served Tablescore runs it (``deploy/gunicorn.conf.py``: a process
  a core, each with WEB_THREADS threads; ``BENCH_FOLLOWING_SYNC=1`` for one sync worker a
  core, as the server bench), with the cache on that Redis, at nice 5, and the follow
  process beside it (``deploy/bin/follow``) to which the phones' polls go, as Caddy
  sends them (``BENCH_FOLLOWING_THROUGH=web``: no follow process, the polls to gunicorn,
  as before it); ``BENCH_FOLLOW_LOG=<file>`` keeps what the follow process says (its
  counts every FOLLOW_SAY_EVERY seconds) and ``BENCH_LOG_LEVEL`` sets its level;
- tables: TABLE_CLIENTS phones post deals through the API as fast as the server takes
  them, each table's game to its end, then the next table's;
- phones: PHONES simulated phones (loopback only, bounded in count and in time) follow
  the event as the players' pages do: each loads its page once, then polls its live
  part every POLL_SECONDS with the revision the page shows (htmx's request): a third
  the standings, a third their own page, a third the projector;
- the phones run in a process of their own, from one thread (asyncio), each on a
  connection it keeps as a browser does, so that they cost the machine as little as
  they can (a real room's phones do their own work on their own processors); their CPU
  is counted and reported, and so is how many polls they made (a simulation starved of
  time shows as fewer polls); ``BENCH_FOLLOWING_PHONES_NICE`` lowers their priority;
- the two take turns, PASSES times each (``BENCH_FOLLOWING_PASSES``, 2, of
  ``BENCH_FOLLOWING_SECONDS``, 20): deals stored per second with no phone, then with the
  phones following; the goal is at least 90% of the rate with none, and polls answered
  with a p95 under 100 ms. Beside the rates, what following cost the node in CPU.

Without PostgreSQL or redis-server each row says so instead of failing. The work that
needs Django on the bench database runs in a child process (``--child``), which prints
its rows as JSON.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PLAYERS = int(os.environ.get("BENCH_FOLLOWING_PLAYERS", "10000"))
TABLE_SIZE = 4
# The event's Roolz target: a game of this bench ends in DEALS deals (side A makes 180 a
# deal), so that the tables still playing hold more deals than the run stores (a table
# taken again once all have been would refuse every deal).
# At 280 deals/s (an idle machine) the run stores up to 25,000 deals; 1,500 tables play.
TARGET = 5400
DEALS = 30
FINISHED_SHARE = 0.4  # tables finished before the phones come (the standings rank them)
WORKERS = max(2, os.cpu_count() or 2)
THREADS = int(os.environ.get("WEB_THREADS", "4"))  # deploy/gunicorn.conf.py's default
SYNC = os.environ.get("BENCH_FOLLOWING_SYNC", "") == "1"
TABLE_CLIENTS = 2 * WORKERS  # phones at tables posting deals, each as fast as it can
PHONES = int(os.environ.get("BENCH_FOLLOWING_PHONES", "240"))
POLL_SECONDS = 2.0  # what the pages' hx-trigger says
PHONES_NICE = int(os.environ.get("BENCH_FOLLOWING_PHONES_NICE", "0"))  # as the server
# "follow": the polls go to the follow process (deploy/bin/follow), as the proxy sends
# them, the web server's processes at WEB_NICE; "web": to the web server, as before.
THROUGH = os.environ.get("BENCH_FOLLOWING_THROUGH", "follow")
WEB_NICE = 5
PHASE_SECONDS = float(os.environ.get("BENCH_FOLLOWING_SECONDS", "20"))
PASSES = int(os.environ.get("BENCH_FOLLOWING_PASSES", "2"))
RATE_SHARE = 0.9  # deals/s with the phones following over deals/s with none
POLL_P95_MS = 100.0
SEAT_PUBLISH_SECONDS = 2.0
LIVE_REV = re.compile(rb'id="live" hx-get="([^"?]*)\?rev=([^&"]+)')


# --------------------------------------------------------------------------- the parent


def not_measured(reason: str) -> list[Any]:
    from bench.figures import Row

    note = f"not measured: {reason}"
    return [
        Row("following", f"{PLAYERS} players: deals/s with {PHONES} phones following", "-",
            "", f">= {RATE_SHARE:.0%} of none", None, note),
    ]  # fmt: skip


def run() -> list[Any]:
    from bench.figures import Row

    server = shutil.which("redis-server")
    if server is None:
        return not_measured("redis-server absent")
    try:
        import psycopg

        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:  # no server, no driver, no rights: said in the table
        return not_measured(f"PostgreSQL absent ({error.__class__.__name__})")
    from bench.server import free_port

    name = f"ts_follow_{os.getpid()}"
    base = ADMIN_URL.rsplit("/", 1)[0]
    redis_port = free_port()
    redis = subprocess.Popen(
        [server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
        from config.test_env import TEST_ENVIRONMENT

        env = {
            **os.environ,
            "DATABASE_URL": f"{base}/{name}",
            "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **TEST_ENVIRONMENT,
            "DEBUG": "0",
            "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
        }
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        lines = [line for line in done.stdout.splitlines() if line.startswith("ROWS ")]
        if done.returncode != 0 or not lines:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise RuntimeError(f"the following bench failed: {tail[0]}")
        return [Row(**row) for row in json.loads(lines[-1][5:])]
    finally:
        redis.terminate()
        redis.wait(timeout=30)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


# --------------------------------------------------------------------------- the child


def build_event() -> tuple[Any, float, float, list[Any]]:
    """The event, round 1 seated and published (each timed), a share of its tables done."""
    from django.contrib.auth import get_user_model

    from scoring.engines.base import parse_record
    from scoring.engines.registry import ENGINES, engine_for
    from scoring.models import Game
    from tournaments.events import services
    from tournaments.models import Entrant, Event
    from tournaments.tasks import tournament_round_publish_task

    owner = get_user_model().objects.create_user("bench-director", is_staff=True)
    event = services.event_create(
        owner=owner,
        name="Big day",
        game="roolz",
        options={"target": TARGET},
        rounds_planned=3,
        confirmation="off",
    )
    Entrant.objects.bulk_create(
        Entrant(event=event, name=f"Player {i:05d}", name_folded=f"player {i:05d}")
        for i in range(PLAYERS)
    )
    Event.objects.filter(pk=event.pk).update(revision=1)
    started = time.perf_counter()
    draft = services.tournament_round_generate(event=event, user=owner)
    seated = time.perf_counter() - started
    started = time.perf_counter()
    answer = tournament_round_publish_task(event.pk, draft.pk, user_id=owner.pk)
    published = time.perf_counter() - started
    assert answer == "done", answer
    games = list(Game.objects.filter(event_table__round=draft).order_by("event_table__number"))
    # A real finished game's standing (DEALS deals), given to a share of the tables.
    record = {
        "game": "roolz",
        "players": ["A", "B", "C", "D"],
        "options": {"target": TARGET},
        "rounds": [roolz_deal(n) for n in range(DEALS)],
    }
    parsed = parse_record(record, ENGINES)
    standing = engine_for("roolz").score(parsed).standing()
    assert standing["finished"], standing
    done = games[: int(len(games) * FINISHED_SHARE)]
    Game.objects.filter(pk__in=[g.pk for g in done]).update(
        status=Game.Status.FINISHED, score_cache=standing, revision=2
    )
    event.refresh_from_db()
    return event, seated, published, games[len(done) :]


def roolz_deal(number: int) -> dict[str, Any]:
    return {"bidder": number % 4, "bid": 170, "won": {"A": 180, "B": 120}}


def process_cpu_seconds(pid: int) -> float:
    """User and system CPU of one process (all its threads) so far."""
    from bench.server import CPU_TICKS

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CPU_TICKS


def wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    import socket

    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the follow process did not come up") from None
            time.sleep(0.2)


class Tables:
    """Phones at tables: each posts its table's deals, one after another, as fast as the
    server answers, and goes on to the next table when a game ends."""

    def __init__(self, port: int, games: list[Any]):
        self.port = port
        self.games = games
        self.taken = 0
        self.lock = threading.Lock()
        self.next_deal: dict[int, int] = {}
        self.current: list[Any] = [self.take() for _ in range(TABLE_CLIENTS)]

    def take(self) -> Any:
        with self.lock:
            game = self.games[self.taken % len(self.games)]
            self.taken += 1
            return game

    def run(self, seconds: float) -> tuple[int, int]:
        """Deals stored and refused in ``seconds``."""
        from bench.server import Client

        stop = time.perf_counter() + seconds
        stored = [0] * TABLE_CLIENTS
        refused = [0] * TABLE_CLIENTS

        def phone(index: int) -> None:
            client = Client(self.port)
            while time.perf_counter() < stop:
                game = self.current[index]
                number = self.next_deal.get(game.pk, 1)
                status, data, _ = client.post_json(
                    f"/api/games/{game.pk}/rounds/",
                    {"number": number, "round": roolz_deal(number)},
                    game.table_token,
                )
                if status == 201:
                    stored[index] += 1
                    self.next_deal[game.pk] = number + 1
                    if b'"finished": true' in data or b'"finished":true' in data:
                        self.current[index] = self.take()
                else:
                    refused[index] += 1
                    self.current[index] = self.take()  # a game ended elsewhere: the next

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(TABLE_CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(stored), sum(refused)


class Phones:
    """Phones following the event: each loads its page, then polls its live part every
    POLL_SECONDS (first poll at a random moment of the first interval), as htmx does.

    The polls are sent from one thread (asyncio), each phone on a connection it keeps, as
    a browser does: a simulated phone costs this machine's cores as little as it can (the
    process's CPU is counted and reported), since a real room's phones do their own work
    on their own processors."""

    def __init__(self, port: int, event: Any, poll_port: int):
        from django.urls import reverse

        self.port = port
        self.poll_port = poll_port
        token = event.public_token
        entrants = list(event.entrants.values_list("pk", flat=True))
        rng = random.Random(11)
        self.pages = []
        for index in range(PHONES):
            kind = index % 3
            if kind == 0:
                self.pages.append(("standings", reverse("tournaments:standings", args=[token])))
            elif kind == 1:
                someone = rng.choice(entrants)
                self.pages.append(
                    ("own page", reverse("tournaments:entrant", args=[token, someone]))
                )
            else:
                self.pages.append(("projector", reverse("tournaments:projector", args=[token])))
        self.shown: list[bytes] = [b""] * PHONES
        self.loaded = False

    def load(self) -> None:
        """Each phone opens its page (not timed: the polls are)."""
        from bench.server import Client

        for index, (_, address) in enumerate(self.pages):
            status, data, _ = Client(self.port).request("GET", address)
            found = LIVE_REV.search(data)
            assert status == 200 and found, (address, status)
            self.shown[index] = found.group(2)
        self.loaded = True

    def run_apart(self, seconds: float) -> dict[str, Any]:
        """``run`` in a child process (forked: the pages and what each shows go with it,
        and what each shows after comes back), with its own CPU counted."""
        import multiprocessing
        import resource

        receiving, sending = multiprocessing.get_context("fork").Pipe(duplex=False)

        def child(pipe: Any = sending) -> None:
            os.nice(PHONES_NICE)
            answer = self.run(seconds)
            used = resource.getrusage(resource.RUSAGE_SELF)
            pipe.send({**answer, "shown": self.shown, "cpu": used.ru_utime + used.ru_stime})
            pipe.close()

        process = multiprocessing.get_context("fork").Process(target=child, daemon=True)
        process.start()
        answer: dict[str, Any] = receiving.recv()
        process.join()
        self.shown = answer.pop("shown")
        return answer

    def run(self, seconds: float) -> dict[str, Any]:
        import asyncio

        return asyncio.run(self.follow(seconds))

    async def follow(self, seconds: float) -> dict[str, Any]:
        import asyncio

        if not self.loaded:
            self.load()
        stop = time.perf_counter() + seconds
        took: dict[str, list[float]] = {kind: [] for kind, _ in self.pages}
        answers = {"204": 0, "200": 0, "other": 0}

        async def phone(index: int) -> None:
            kind, address = self.pages[index]
            connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
            moment = time.perf_counter() + random.random() * POLL_SECONDS
            while True:
                await asyncio.sleep(max(0.0, moment - time.perf_counter()))
                if time.perf_counter() >= stop:
                    break
                target = f"{address}?rev={self.shown[index].decode()}"
                started = time.perf_counter()
                try:
                    if connection is None:
                        connection = await asyncio.open_connection("127.0.0.1", self.poll_port)
                    status, data, keep = await http_get(*connection, target)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    status, data, keep = 0, b"", False
                elapsed = time.perf_counter() - started
                if not keep and connection is not None:
                    connection[1].close()
                    connection = None
                if status == 200:
                    found = LIVE_REV.search(data)
                    if found:
                        self.shown[index] = found.group(2)
                took[kind].append(elapsed)
                key = str(status) if status in (200, 204) else "other"
                answers[key] += 1
                moment += POLL_SECONDS
            if connection is not None:
                connection[1].close()

        await asyncio.gather(*(phone(i) for i in range(PHONES)))
        return {"took": took, "answers": answers}


async def http_get(reader: Any, writer: Any, target: str) -> tuple[int, bytes, bool]:
    """One poll on a kept connection, as htmx sends it: (status, body, connection kept)."""
    writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nHX-Request: true\r\n\r\n".encode())
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split(" ", 2)[1])
    fields = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    keep = fields.get("connection", "").lower() != "close"
    if status == 204 or status == 304:
        return status, b"", keep
    if fields.get("transfer-encoding", "").lower() == "chunked":
        chunks: list[bytes] = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                return status, b"".join(chunks), keep
            chunks.append(chunk[:-2])
    if "content-length" in fields:
        return status, await reader.readexactly(int(fields["content-length"])), keep
    return status, await reader.read(), False


def child() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection

    from bench.server import Client, free_port, percentile, worker_cpu_seconds

    call_command("migrate", verbosity=0)
    cache.clear()
    event, seated, published, playing = build_event()
    connection.close()
    port = free_port()
    # BENCH_TIMINGS=<file>: each request's time written down (bench/request_timings.py).
    app = "bench.request_timings:application" if os.environ.get("BENCH_TIMINGS") else "config.wsgi"
    gunicorn = [str(Path(sys.executable).parent / "gunicorn"), app]
    if SYNC:
        gunicorn += ["--workers", str(WORKERS), "--bind", f"127.0.0.1:{port}"]
    else:
        gunicorn += ["--config", str(ROOT / "deploy" / "gunicorn.conf.py")]
    # With the follow process, the web server's processes run at a lower priority (as
    # deploy/bin/web with WEB_NICE=5 beside deploy/bin/follow): a poll is answered first.
    niced = ["nice", "-n", str(WEB_NICE)] if THROUGH == "follow" else []
    server = subprocess.Popen(
        [*niced, *gunicorn, "--log-level", "warning"],
        cwd=ROOT,
        env={
            **os.environ,
            "BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": str(WORKERS),
            "WEB_THREADS": str(THREADS),
            "ACCESS_LOG": "",
        },
    )
    alone: list[float] = []
    followed: list[float] = []
    refused = 0
    polls: dict[str, list[float]] = {}
    answers = {"204": 0, "200": 0, "other": 0}
    cpu_alone = cpu_followed = cpu_phones = cpu_follow = 0.0
    follow: subprocess.Popen[bytes] | None = None
    poll_port = port
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if Client(port).request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("gunicorn did not come up")
            time.sleep(0.3)
        if THROUGH == "follow":
            poll_port = free_port()
            follow = subprocess.Popen(
                [str(ROOT / "deploy" / "bin" / "follow")],
                cwd=ROOT,
                env={
                    **os.environ,
                    "TABLESCORE_VENV": str(Path(sys.executable).parent.parent),
                    "FOLLOW_BIND": f"127.0.0.1:{poll_port}",
                    "FOLLOW_UPSTREAM": f"127.0.0.1:{port}",
                },
                # BENCH_FOLLOW_LOG=<file>: what the follow process says (its counts).
                stderr=open(os.environ["BENCH_FOLLOW_LOG"], "ab")  # noqa: SIM115
                if os.environ.get("BENCH_FOLLOW_LOG")
                else None,
            )
            wait_listening(poll_port, follow)
        tables = Tables(port, playing)
        phones = Phones(port, event, poll_port)
        tables.run(3.0)  # warm up: every worker has served a deal
        phones.load()
        for _ in range(PASSES):  # side by side: with and without phones, in turns
            cpu = worker_cpu_seconds(server.pid)
            stored, no = tables.run(PHASE_SECONDS)
            cpu_alone += worker_cpu_seconds(server.pid) - cpu
            alone.append(stored / PHASE_SECONDS)
            refused += no
            # The phones in a process of their own: their hundreds of threads never hold
            # the tables' phones up on this process's interpreter lock.
            box: dict[str, Any] = {}
            follower = threading.Thread(
                target=lambda kept=box: kept.update(phones.run_apart(PHASE_SECONDS)),
                daemon=True,
            )
            cpu = worker_cpu_seconds(server.pid)
            cpu_poller = process_cpu_seconds(follow.pid) if follow else 0.0
            follower.start()
            stored, no = tables.run(PHASE_SECONDS)
            follower.join()
            cpu_followed += worker_cpu_seconds(server.pid) - cpu
            cpu_follow += (process_cpu_seconds(follow.pid) - cpu_poller) if follow else 0.0
            cpu_phones += box["cpu"]
            followed.append(stored / PHASE_SECONDS)
            refused += no
            for kind, values in box["took"].items():
                polls.setdefault(kind, []).extend(values)
            for key, count in box["answers"].items():
                answers[key] += count
    finally:
        if follow is not None:
            follow.terminate()
            follow.wait(timeout=30)
        server.terminate()
        server.wait(timeout=30)
    load = os.getloadavg()[1]
    where = (
        f"gunicorn, {WORKERS} {'sync workers' if SYNC else f'workers of {THREADS} threads'}, "
        f"PostgreSQL, Redis cache; {TABLE_CLIENTS} tables "
        f"posting; load {load:.1f} on {os.cpu_count()} cores; polls "
        + (
            f"to the follow process, the web server at nice {WEB_NICE}"
            if THROUGH == "follow"
            else "to the web server"
        )
        + ")"
    )
    followed_seconds = PHASE_SECONDS * PASSES
    rate_alone = sum(alone) / len(alone)
    rate_followed = sum(followed) / len(followed)
    share = rate_followed / rate_alone if rate_alone else 0.0
    # What following cost the node, in CPU a second of the followed phases: the web
    # server's CPU a deal beyond the one with none (drawing parts, computing standings),
    # the follow process's, the simulated phones' (on a real room's own processors).
    deal_alone = cpu_alone / max(1, sum(alone) * PHASE_SECONDS)
    deal_followed = cpu_followed / max(1, sum(followed) * PHASE_SECONDS)
    drawing = max(0.0, deal_followed - deal_alone) * rate_followed * 1000
    following_cpu = cpu_follow / followed_seconds * 1000
    simulated = cpu_phones / followed_seconds * 1000
    cores = os.cpu_count() or 1
    costs = (
        f"following cost the node {drawing + following_cpu:.0f} ms of CPU a second "
        f"({(drawing + following_cpu) / cores / 10:.1f}% of its {cores} cores: the web server "
        f"{drawing:.0f}, the follow process {following_cpu:.0f}), the simulated phones "
        f"{simulated:.0f} ms more ({simulated / cores / 10:.1f}%)"
    )
    every = [t for values in polls.values() for t in values]
    due = int(PHONES * PHASE_SECONDS * PASSES / POLL_SECONDS)  # every phone, every 2 s
    p95 = percentile(every, 0.95) * 1000 if every else float("inf")
    p50 = percentile(every, 0.5) * 1000 if every else float("inf")
    per_kind = ", ".join(
        f"{kind} p95 {percentile(values, 0.95) * 1000:.0f} ms ({len(values)})"
        for kind, values in polls.items()
        if values
    )
    rows: list[dict[str, Any]] = [
        {
            "area": "following",
            "figure": f"{PLAYERS} players: round 1 seated by the seating service "
            f"({PLAYERS // TABLE_SIZE} tables)",
            "measured": f"{seated:.1f} s",
            "beside": "",
            "goal": f"<= {SEAT_PUBLISH_SECONDS:g} s",
            "met": seated <= SEAT_PUBLISH_SECONDS,
            "note": "",
        },
        {
            "area": "following",
            "figure": f"{PLAYERS} players: round 1 published by the background task",
            "measured": f"{published:.1f} s",
            "beside": "",
            "goal": f"<= {SEAT_PUBLISH_SECONDS:g} s",
            "met": published <= SEAT_PUBLISH_SECONDS,
            "note": "",
        },
        {
            "area": "following",
            "figure": f"{PLAYERS} players: deals stored/s with {PHONES} phones following "
            f"(standings, own pages, projector; a poll every {POLL_SECONDS:g} s) over none; "
            f"{PASSES} passes of {PHASE_SECONDS:g} s each, in turns ({where}",
            "measured": f"{rate_followed:.1f} deals/s",
            "beside": f"none following: {rate_alone:.1f} deals/s; server CPU a deal "
            f"{cpu_alone / max(1, sum(alone) * PHASE_SECONDS) * 1000:.1f} ms alone, "
            f"{cpu_followed / max(1, sum(followed) * PHASE_SECONDS) * 1000:.1f} ms followed",
            "goal": f">= {RATE_SHARE:.0%}",
            "met": share >= RATE_SHARE and not refused,
            "note": f"{share:.0%}"
            + (f", {refused} deals refused" if refused else "")
            + f"; {costs}",
        },
        {
            "area": "following",
            "figure": f"{PLAYERS} players: the phones' polls while tables post deals",
            "measured": f"p95 {p95:.0f} ms",
            "beside": f"p50 {p50:.0f} ms; {per_kind}",
            "goal": f"p95 < {POLL_P95_MS:.0f} ms",
            "met": p95 < POLL_P95_MS and not answers["other"],
            "note": f"{answers['204']} answered 204 (nothing new), {answers['200']} with "
            f"the part anew"
            + (f", {answers['other']} failed" if answers["other"] else "")
            + f"; {len(every)} polls of the {due} due; CPU: the follow process "
            f"{cpu_follow / followed_seconds * 1000:.0f} ms/s "
            f"({cpu_follow / max(1, len(every)) * 1000:.2f} ms a poll), the simulated phones "
            f"{cpu_phones / followed_seconds * 1000:.0f} ms/s "
            f"({cpu_phones / max(1, len(every)) * 1000:.2f} ms a poll)",
        },
    ]
    print("ROWS " + json.dumps(rows), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    else:
        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        for row in run():
            print(row.cells())
