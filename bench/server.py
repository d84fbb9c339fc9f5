"""Round entry through gunicorn and PostgreSQL, beside /healthz on the same server.

The bench makes a PostgreSQL database of its own (dropped at the end), starts gunicorn
on a free port against it, and measures in one run, side by side:

- rounds per second through the API and through the table's form (as a phone posts it,
  htmx and CSRF included), over /healthz requests per second, and the server's CPU
  time per request of each (read from the workers' /proc counters), printed with the two
  goals' verdicts (the API's round, the form's beside it);
- cost growth: the latency of rounds 271-300 of one game over rounds 1-30 of a fresh one,
  posted in turn;
- a tournament round ending: 200 tables posting their last round within 10 seconds, and
  the confirmation from the other side that ends each game and moves the event, each
  timed in three runs (p50 and p95 as the median of the three).

Without PostgreSQL each row says so instead of failing. The work that needs Django on
the bench database runs in a child process (``--child``), which prints its rows as JSON.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
WORKERS = max(2, os.cpu_count() or 2)
CLIENTS = 2 * WORKERS
PHASE_SECONDS = 1.5
PASSES = 4  # the kinds take turns, so that a busy spell of the machine falls on each
WARM_UP_REQUESTS = 20  # per kind, untimed: the first use of each code path is not a round
GROWTH_ROUNDS = 300
EVENT_TABLES = 200
EVENT_WINDOW_SECONDS = 10.0
API_ROUND_CPU_MS = 2.5  # the goal for one round through the API, in server CPU
GOAL_SET_AT_HEALTHZ_MS = 0.7  # what /healthz cost on the machine where that goal was set
FORM_OVER_API = 2.0  # the table form may cost at most this many times the API's round
ENDING_RUNS = 3  # the round ending is timed three times; the table shows the median
TARGET = 500  # the event's Roolz target: a table's second deal of 290 ends its game
CPU_TICKS = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- the parent


def rows_without_postgres(reason: str) -> list[Any]:
    from bench.figures import Row

    note = f"not measured: PostgreSQL absent ({reason})"
    return [
        Row(
            "round entry",
            "rounds/s over /healthz requests/s (API, form)",
            "-",
            "",
            ">= 0.5",
            None,
            note,
        ),
        Row("round entry", "cost growth: rounds 271-300 over 1-30", "-", "", "<= 1.2", None, note),
        Row(
            "tournament",
            f"{EVENT_TABLES} tables end a round within 10 s",
            "-",
            "",
            "p95 < 100 ms",
            None,
            note,
        ),
    ]


def run() -> list[Any]:
    from bench.figures import Row

    try:
        import psycopg

        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:  # no server, no driver, no rights: said in the table
        return rows_without_postgres(error.__class__.__name__)
    name = f"ts_bench_{os.getpid()}"
    base = ADMIN_URL.rsplit("/", 1)[0]
    try:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
        from config.test_env import TEST_ENVIRONMENT

        env = {
            **os.environ,
            "DATABASE_URL": f"{base}/{name}",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **TEST_ENVIRONMENT,
            "DEBUG": "0",
            "LOG_LEVEL": "WARNING",
        }
        env.pop("REDIS_URL", None)
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        lines = [line for line in done.stdout.splitlines() if line.startswith("ROWS ")]
        if done.returncode != 0 or not lines:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise RuntimeError(f"the server bench failed: {tail[0]}")
        figures = [line for line in done.stdout.splitlines() if line.startswith("CPU ")]
        if figures:
            print(cpu_verdicts(**json.loads(figures[-1][4:])), file=sys.stderr, flush=True)
        return [Row(**row) for row in json.loads(lines[-1][5:])]
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def cpu_goals(api_ms: float, form_ms: float) -> tuple[bool, bool]:
    """The two goals of a round's server CPU: the API's round, and the form's beside it."""
    return api_ms <= API_ROUND_CPU_MS, form_ms <= FORM_OVER_API * api_ms


def cpu_verdicts(api_ms: float, form_ms: float, health_ms: float, where: str = "") -> str:
    """The three figures and the two goals' verdicts, as a few lines for the terminal."""
    api_met, form_met = cpu_goals(api_ms, form_ms)
    ratio = form_ms / api_ms if api_ms else float("inf")
    verdict = {True: "met", False: "SHORT"}
    return "\n".join(
        [
            "Server CPU per request, measured side by side in one run (gunicorn workers' "
            f"own CPU counters{'; ' + where if where else ''}):",
            f"  a round through the API        {api_ms:6.2f} ms   goal <= {API_ROUND_CPU_MS} ms: "
            f"{verdict[api_met]}",
            f"  a round through the table form {form_ms:6.2f} ms   goal <= {FORM_OVER_API:g}x "
            f"the API's ({ratio:.2f}x): {verdict[form_met]}",
            f"  /healthz                       {health_ms:6.2f} ms",
            # A machine half as fast doubles every figure: the API's round is also given
            # over /healthz, beside the goal's own ratio where it was set.
            f"  the API's round over /healthz   {api_ms / health_ms if health_ms else 0:5.2f}x   "
            f"where the goal was set: {API_ROUND_CPU_MS} ms over "
            f"{GOAL_SET_AT_HEALTHZ_MS} ms, {API_ROUND_CPU_MS / GOAL_SET_AT_HEALTHZ_MS:.2f}x",
        ]
    )


# --------------------------------------------------------------------------- HTTP


class Client:
    """One phone: plain HTTP/1.1 requests (gunicorn's sync workers close each connection)."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, float]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        elapsed = time.perf_counter() - started
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return response.status, data, elapsed

    def post_json(
        self, path: str, body: Any, token: str, device: str = ""
    ) -> tuple[int, bytes, float]:
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        if device:
            headers["X-Device"] = device  # which phone: at an event, another one confirms
        return self.request("POST", path, json.dumps(body).encode(), headers)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def worker_cpu_seconds(master: int) -> float:
    """User and system CPU of gunicorn's workers (the master's children) so far."""
    total = 0
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CPU_TICKS


def database_ticks() -> dict[int, int] | None:
    """CPU ticks so far of each PostgreSQL backend serving the bench database (this
    process's own left out), read from /proc; None when they cannot be read (a server
    on another host, or no rights)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        pids = [row[0] for row in cursor.fetchall()]
    ticks: dict[int, int] = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        ticks[pid] = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks


def database_cpu_between(before: dict[int, int] | None, after: dict[int, int] | None) -> float:
    """Seconds of backend CPU between two readings (NaN when either could not be read)."""
    if before is None or after is None:
        return float("nan")
    return sum(ticks - before.get(pid, 0) for pid, ticks in after.items()) / CPU_TICKS


# --------------------------------------------------------------------------- the child


def roolz_round(number: int) -> dict[str, Any]:
    return {"bidder": number % 4, "bid": 170, "won": {"A": 180, "B": 120}}


def start_games(count: int, target: int = 10**6) -> list[Any]:
    from scoring.services import game_create

    record = {
        "game": "roolz",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "options": {"target": target},
    }
    return [game_create(record=record).game for _ in range(count)]


class Phase:
    """Requests of one kind from several phones at once for a while; counts and CPU."""

    def __init__(self, master: int):
        self.master = master
        self.requests = 0
        self.seconds = 0.0
        self.cpu = 0.0
        self.database_cpu = 0.0
        self.failures = 0

    def run(self, make: Callable[[int], Callable[[], int]]) -> None:
        actions = [make(index) for index in range(CLIENTS)]
        stop = time.perf_counter() + PHASE_SECONDS
        counts = [0] * CLIENTS
        failures = [0] * CLIENTS

        def phone(index: int) -> None:
            while time.perf_counter() < stop:
                status = actions[index]()
                counts[index] += 1
                failures[index] += status >= 400

        cpu = worker_cpu_seconds(self.master)
        database = database_ticks()
        started = time.perf_counter()
        threads = [threading.Thread(target=phone, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.seconds += time.perf_counter() - started
        self.cpu += worker_cpu_seconds(self.master) - cpu
        self.database_cpu += database_cpu_between(database, database_ticks())
        self.requests += sum(counts)
        self.failures += sum(failures)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms(self) -> float:
        return self.cpu / self.requests * 1000 if self.requests else 0.0

    @property
    def database_cpu_note(self) -> str:
        """PostgreSQL's CPU per request, when its backends could be read."""
        if not self.requests or self.database_cpu != self.database_cpu:  # NaN: unreadable
            return ""
        return f" + {self.database_cpu / self.requests * 1000:.1f} ms PostgreSQL CPU"


def entry_rates(port: int, master: int) -> tuple[Phase, Phase, Phase]:
    health, api, form = Phase(master), Phase(master), Phase(master)
    api_games = start_games(CLIENTS)
    form_games = start_games(CLIENTS)
    api_next = [1] * CLIENTS
    form_next = [1] * CLIENTS
    form_clients = [Client(port) for _ in range(CLIENTS)]
    for client, game in zip(form_clients, form_games, strict=True):
        client.request("GET", f"/t/{game.table_token}/")  # the page: cookies, CSRF token

    def health_action(index: int) -> Callable[[], int]:
        client = Client(port)
        return lambda: client.request("GET", "/healthz")[0]

    def api_action(index: int) -> Callable[[], int]:
        client = Client(port)

        def post() -> int:
            game, number = api_games[index], api_next[index]
            if number > 480:  # a game holds at most 500 rounds: go on in a fresh one
                api_games[index], api_next[index] = start_games(1)[0], 1
                game, number = api_games[index], 1
            status, _, _ = client.post_json(
                f"/api/games/{game.pk}/rounds/",
                {"number": number, "round": roolz_round(number)},
                game.table_token,
            )
            api_next[index] += status == 201
            return status

        return post

    def form_action(index: int) -> Callable[[], int]:
        client = form_clients[index]

        def post() -> int:
            number = form_next[index]
            if number > 480:  # as for the API: go on in a fresh game
                form_games[index], form_next[index] = start_games(1)[0], 1
                number = 1
            game = form_games[index]
            fields = {
                "number": str(number),
                "key": f"f{index}-{number}",
                "bidder": str(number % 4),
                "bid": "170",
                "won-A": "180",
                "action": "save",
            }
            body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
            status, data, _ = client.request(
                "POST",
                f"/t/{game.table_token}/entry/",
                body,
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "HX-Request": "true",
                    "X-CSRFToken": client.cookies.get("csrftoken", ""),
                },
            )
            saved = status == 200 and b" saved." in data
            form_next[index] += saved
            return status if saved or status >= 400 else 422

        return post

    for make in (health_action, api_action, form_action):
        action = make(0)
        for _ in range(WARM_UP_REQUESTS):
            action()
    for _ in range(PASSES):  # side by side: the kinds take turns on the same server
        health.run(health_action)
        api.run(api_action)
        form.run(form_action)
    return health, api, form


def cost_growth(port: int) -> tuple[float, float, float]:
    """Median latency of rounds 271-300 of one game beside rounds 1-30 of a fresh one.

    The long game is first played to round 270; then its rounds 271-300 and a fresh
    game's rounds 1-30 are posted in turn, so that both face the same server load.
    """
    long_game, fresh_game = start_games(2)
    client = Client(port)

    def post(game: Any, number: int) -> float:
        status, body, elapsed = client.post_json(
            f"/api/games/{game.pk}/rounds/",
            {"number": number, "round": roolz_round(number)},
            game.table_token,
        )
        if status != 201:
            raise RuntimeError(f"round {number} answered {status}: {body[:200]!r}")
        return elapsed

    for number in range(1, GROWTH_ROUNDS - 30 + 1):
        post(long_game, number)
    early, late = [], []
    for index in range(30):
        early.append(post(fresh_game, 1 + index))
        late.append(post(long_game, GROWTH_ROUNDS - 30 + 1 + index))
    first, last = statistics.median(early), statistics.median(late)
    return first * 1000, last * 1000, last / first


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


class Ending:
    """One tournament round ending: each table's last deal posted, then confirmed."""

    def __init__(self) -> None:
        self.posts: list[float] = []
        self.confirmations: list[float] = []
        self.refused: list[int] = []
        self.unfinished = 0

    def p(self, kind: str, share: float) -> float:
        return percentile(getattr(self, kind), share) * 1000


def tournament_round_ending(port: int, run: int) -> Ending:
    """200 tables of an event, each one deal from the end, post their last deal within 10 s,
    and a phone of the other side confirms it: the confirmation ends the table's game and
    moves the event on (its results, the standings the pages show)."""
    from django.contrib.auth import get_user_model

    from scoring.models import Game
    from scoring.services import Actor, round_confirm, round_record
    from tournaments.events import services

    owner = get_user_model().objects.create_user(f"bench-{os.getpid()}-{run}")
    event = services.event_create(
        owner=owner, name="Bench night", game="roolz", options={"target": TARGET}, rounds_planned=1
    )
    names = "\n".join(f"Player {i}" for i in range(EVENT_TABLES * 4))
    services.entrants_import_csv(event=event, text=names, user=owner)
    draft = services.tournament_round_generate(event=event, user=owner)
    services.tournament_round_publish(event=event, round=draft, user=owner)
    tables = draft.tables.select_related("game").order_by("number")
    games = [table.game for table in tables if table.game is not None]
    deal = {"bidder": 0, "bid": 170, "won": {"A": 290, "B": 10}}
    for game in games:
        round_record(game=game, number=1, entry=deal, actor=Actor(seat=0))
        round_confirm(game=game, number=1, actor=Actor(seat=1))
    rng = random.Random(7 + run)
    moments = sorted(rng.uniform(0, EVENT_WINDOW_SECONDS) for _ in games)
    ending = Ending()
    lock = threading.Lock()
    started = time.perf_counter()

    def table(game: Any, moment: float) -> None:
        time.sleep(max(0.0, started + moment - time.perf_counter()))
        phone = Client(port)
        status, _, posted = phone.post_json(
            f"/api/games/{game.pk}/rounds/",
            {"number": 2, "round": deal, "seat": 0},
            game.table_token,
            device=f"bench-{game.pk}-seat-0",
        )
        # The other side confirms on a phone of its own (the entering phone may not).
        confirmed_status, _, confirmed = phone.post_json(
            f"/api/games/{game.pk}/rounds/2/confirm/",
            {"seat": 1},
            game.table_token,
            device=f"bench-{game.pk}-seat-1",
        )
        with lock:
            ending.posts.append(posted)
            ending.confirmations.append(confirmed)
            ending.refused += [s for s in (status, confirmed_status) if s not in (200, 201)]

    threads = [
        threading.Thread(target=table, args=pair) for pair in zip(games, moments, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ending.unfinished = Game.objects.filter(
        pk__in=[game.pk for game in games], status=Game.Status.FINISHED
    ).count()
    ending.unfinished = len(games) - ending.unfinished
    return ending


def child() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    connection.close()
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            "--workers",
            str(WORKERS),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
    )
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
        health, api, form = entry_rates(port, server.pid)
        first, last, growth = cost_growth(port)
        endings = [tournament_round_ending(port, run) for run in range(ENDING_RUNS)]
    finally:
        server.terminate()
        server.wait(timeout=30)
    # The machine's load while the bench ran: a busy machine slows every figure, so the
    # table says how busy it was rather than leave a slow run to look like a slow server.
    load = os.getloadavg()[1]
    where = (
        f"gunicorn, {WORKERS} workers, PostgreSQL, {CLIENTS} phones; "
        f"load {load:.1f} on {os.cpu_count()} cores"
    )
    rows: list[dict[str, Any]] = []
    api_met, form_met = cpu_goals(api.cpu_ms, form.cpu_ms)
    goals = {
        # The API's round: at most API_ROUND_CPU_MS of server CPU.
        "API": (f"<= {API_ROUND_CPU_MS} ms CPU", api_met, ""),
        # The table form: at most FORM_OVER_API times the API's CPU for the same round.
        "table form": (
            f"<= {FORM_OVER_API:g}x the API's CPU",
            form_met,
            f"{form.cpu_ms / api.cpu_ms:.2f}x the API" if api.cpu_ms else "",
        ),
    }
    figures = {"api_ms": api.cpu_ms, "form_ms": form.cpu_ms, "health_ms": health.cpu_ms}
    print("CPU " + json.dumps({**figures, "where": where}), flush=True)
    for label, phase in (("API", api), ("table form", form)):
        ratio = phase.per_second / health.per_second
        goal, met, versus = goals[label]
        rows.append(
            {
                "area": "round entry",
                "figure": f"server CPU per round through the {label}, beside /healthz ({where})",
                "measured": f"{phase.cpu_ms:.1f} ms server CPU/round{phase.database_cpu_note}; "
                f"{phase.per_second:.0f} rounds/s",
                "beside": f"/healthz {health.cpu_ms:.1f} ms CPU/request"
                f"{health.database_cpu_note}; {health.per_second:.0f}/s",
                "goal": goal,
                "met": met and not phase.failures,
                "note": ", ".join(
                    part
                    for part in (
                        versus,
                        f"{ratio:.2f} of /healthz's rate",
                        f"{phase.failures} refused" if phase.failures else "",
                    )
                    if part
                ),
            }
        )
    rows.append(
        {
            "area": "round entry",
            "figure": "cost growth: median latency of rounds 271-300 over rounds 1-30 (API; "
            "a long game and a fresh one posted in turn)",
            "measured": f"{last:.1f} ms",
            "beside": f"rounds 1-30: {first:.1f} ms",
            "goal": "<= 1.2",
            "met": growth <= 1.2,
            "note": f"{growth:.2f}",
        }
    )

    def median_of_runs(kind: str, share: float) -> float:
        return statistics.median(ending.p(kind, share) for ending in endings)

    refused = sum(len(ending.refused) for ending in endings)
    unfinished = sum(ending.unfinished for ending in endings)
    for kind, label in (
        ("confirmations", "the confirmation that ends each game and moves the event"),
        ("posts", "the last round posted, pending its confirmation"),
    ):
        p50, p95 = median_of_runs(kind, 0.5), median_of_runs(kind, 0.95)
        rows.append(
            {
                "area": "tournament",
                "figure": f"{EVENT_TABLES} tables end a round within "
                f"{EVENT_WINDOW_SECONDS:.0f} s (API): {label}; median of {ENDING_RUNS} runs "
                f"({where})",
                "measured": f"p95 {p95:.0f} ms",
                "beside": f"p50 {p50:.0f} ms; runs' p95 "
                + ", ".join(f"{ending.p(kind, 0.95):.0f}" for ending in endings),
                "goal": "p95 < 100 ms",
                "met": p95 < 100 and not refused and not unfinished,
                "note": ", ".join(
                    part
                    for part in (
                        f"{refused} refused" if refused else "",
                        f"{unfinished} games not ended" if unfinished else "",
                    )
                    if part
                ),
            }
        )
    print("ROWS " + json.dumps(rows), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    else:
        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        for row in run():
            print(row.cells())
