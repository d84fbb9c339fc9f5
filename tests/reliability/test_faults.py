"""Fault drills on the real services: Redis stopped, workers killed, database connections dropped.

Each drill runs what an operator runs (gunicorn, a Celery worker, Celery beat) against
the test database and a Redis of its own on a free port, and breaks only those: never
the machine's services. They need PostgreSQL (the web, the workers and this test share
the test database) and ``redis-server``; otherwise they are skipped, or under
REQUIRE_SERVICES=1 they fail. Jobs are slowed by PRINT_SHEET_DELAY so that a worker can
be killed half-way through one.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from printing.models import PrintJob
from tests import deployed
from tests.conftest import need_service
from tests.deployed import free_port, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SHEET_DELAY = 0.3  # seconds per sheet: a stack of 12 draws for about 4 s
STALL_SECONDS = 3  # a running job whose progress stops this long is restarted by the sweep
SWEEP_SECONDS = 1
ROOLZ = {"format": 1, "game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}


class Browser:
    """A phone: cookies, forms with their CSRF token, JSON; answers as (status, url, text)."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def request(
        self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str, str]:
        call = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        try:
            with self.opener.open(call, timeout=30) as answer:
                return answer.status, answer.geturl(), answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.geturl(), refused.read().decode()

    def get(self, path: str) -> tuple[int, str, str]:
        return self.request(path)

    def submit(self, path: str, fields: dict[str, Any]) -> tuple[int, str, str]:
        """Fill in the form at ``path`` and send it, as the page would."""
        _, _, page = self.get(path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, f"no form at {path}"
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), **fields})
        return self.request(path, body.encode(), {"Referer": self.base + path})

    def post_json(self, path: str, body: Any, token: str = "") -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        status, _, text = self.request(path, json.dumps(body).encode(), headers)
        return status, json.loads(text) if text else None


class Drill:
    """A Redis, Celery beat, a Celery worker and gunicorn of the drill's own, each started
    by its deploy/ command."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.redis_port = free_port()
        self.web_port = free_port()
        self.redis: deployed.Process | None = None
        self.worker: deployed.Process | None = None
        self.workers_started = 0
        self.others: list[deployed.Process] = []
        self.env = deployed.environment(
            DATABASE_URL=deployed.database_url(connection.settings_dict),
            REDIS_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            PRINT_SHEET_DELAY=str(SHEET_DELAY),
            PRINT_STALL_SECONDS=str(STALL_SECONDS),
            PRINT_SWEEP_SECONDS=str(SWEEP_SECONDS),
            PRINT_TIME_LIMIT="60",
            BACKGROUND_STALL_SECONDS="3",
            BACKGROUND_SWEEP_SECONDS="1",
        )
        self.browser = Browser(f"http://127.0.0.1:{self.web_port}")

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # Redis -----------------------------------------------------------------------
    def start_redis(self) -> None:
        self.redis = deployed.redis_server(self.folder, self.redis_port)

    def stop_redis(self) -> None:
        assert self.redis is not None
        self.redis.stop()

    # Celery ----------------------------------------------------------------------
    def start_worker(self) -> None:
        self.workers_started += 1
        self.worker = deployed.worker(
            self.folder,
            {**self.env, "WORKER_CONCURRENCY": "1"},
            "--pool=prefork",
            "-n",
            f"drill-{self.workers_started}@%h",
            "--without-mingle",
            "--without-gossip",
            name=f"worker-{self.workers_started}",
        )

    def ensure_worker(self) -> None:
        if self.worker is None or not self.worker.alive():
            self.start_worker()

    def kill_worker(self) -> None:
        """SIGKILL the whole worker: its main process and its pool processes at once."""
        assert self.worker is not None
        self.worker.stop(signal.SIGKILL)

    def kill_pool_process(self) -> int:
        """SIGKILL only the worker's pool process (the one drawing); the main process lives."""
        assert self.worker is not None
        children = Path(f"/proc/{self.worker.pid}/task/{self.worker.pid}/children")
        pids = [int(pid) for pid in children.read_text().split()]
        assert len(pids) == 1, pids  # concurrency 1: the one pool process
        os.kill(pids[0], signal.SIGKILL)
        return pids[0]

    def start_beat(self) -> None:
        self.others.append(deployed.beat(self.folder, self.env))

    # Web -------------------------------------------------------------------------
    def start_web(self) -> None:
        self.others.append(deployed.web(self.folder, self.env, port=self.web_port, workers=1))

        def serving() -> bool:
            try:
                return self.browser.get("/healthz")[0] in (200, 503)
            except OSError:
                return False

        wait_for(serving, timeout=60, what="gunicorn")

    def close(self) -> None:
        for process in [self.worker, *self.others, self.redis]:
            if process is not None:
                process.stop()


@pytest.fixture(scope="module")
def drill(django_db_setup, django_db_blocker, tmp_path_factory):
    if connection.vendor != "postgresql":
        need_service(
            "PostgreSQL",
            "the drills share the test database with gunicorn and "
            "workers: set DATABASE_URL to PostgreSQL",
        )
    for program in ("redis-server", "pdftotext"):
        if shutil.which(program) is None:
            need_service(program, "not on PATH")
    with django_db_blocker.unblock():
        drill = Drill(tmp_path_factory.mktemp("drill"))
        try:
            drill.start_redis()
            drill.start_beat()
            drill.start_web()
            drill.start_worker()
            yield drill
        finally:
            drill.close()
            connection.close()


# --------------------------------------------------------------------------- helpers


def new_game(browser: Browser) -> tuple[int, str]:
    status, body = browser.post_json("/api/games/", ROOLZ)
    assert status == 201, body
    return body["id"], body["token"]


def post_round(browser: Browser, game: tuple[int, str], number: int) -> int:
    entry = {"number": number, "round": {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}}
    status, body = browser.post_json(f"/api/games/{game[0]}/rounds/", entry, token=game[1])
    assert status == 201, body
    return status


def ask_for_sheets(browser: Browser, copies: int) -> tuple[PrintJob, str]:
    """Ask for a stack of blank Roolz sheets through the form; the job and its page."""
    status, url, page = browser.submit(
        "/print/", {"sheet": "roolz:4", "copies": copies, "paper": "A4"}
    )
    assert status == 200, page
    token = url.rstrip("/").rsplit("/", 1)[-1]
    return PrintJob.objects.defer("pdf").get(token=token), page


def row(job: PrintJob) -> PrintJob:
    return PrintJob.objects.get(pk=job.pk)


def finished(job: PrintJob, timeout: float) -> PrintJob:
    return wait_for(
        lambda: (found := row(job)).finished and found, timeout=timeout, what=f"job {job.pk}"
    )


def drawn_once(job: PrintJob, copies: int) -> None:
    """Done, one PDF holding exactly the sheets asked for, and nothing running it any more."""
    assert job.status == PrintJob.Status.DONE, job.error
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=bytes(job.pdf), capture_output=True, check=True
    ).stdout.decode()
    assert text.count("Roolz scoresheet") == copies
    assert (job.progress_done, job.progress_total) == (copies, copies)
    time.sleep(STALL_SECONDS + 2 * SWEEP_SECONDS)  # long enough for a stray run to show
    again = row(job)
    assert (again.status, again.attempts, again.updated_at) == (
        PrintJob.Status.DONE,
        job.attempts,
        job.updated_at,
    )


# --------------------------------------------------------------------------- drills


def test_a_dropped_database_connection_is_replaced_on_the_next_request(drill):
    browser = drill.browser
    game = new_game(browser)
    assert browser.get("/healthz")[0] == 200
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        dropped = [pid for pid, signalled in cursor.fetchall() if signalled]
    assert dropped, "gunicorn kept no connection open between requests"
    # Terminating only signals a backend: the connection is dropped once it has gone.

    def all_gone() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [dropped])
            return cursor.fetchone()[0] == 0

    wait_for(all_gone, timeout=10, what="the terminated backends to exit")
    status, _, text = browser.get("/healthz")
    assert status == 200, text
    assert json.loads(text)["database"]["ok"] is True
    assert post_round(browser, game, 1) == 201


def test_with_redis_stopped_scores_are_kept_and_a_print_job_waits_then_finishes_once(drill):
    drill.ensure_worker()
    browser = drill.browser
    game = new_game(browser)
    drill.stop_redis()
    try:
        assert post_round(browser, game, 1) == 201
        assert post_round(browser, game, 2) == 201
        started = time.monotonic()
        job, page = ask_for_sheets(browser, copies=3)
        asking = time.monotonic() - started
        assert job.status == PrintJob.Status.WAITING
        assert "Waiting for the print service." in page
        # Still ready for a load balancer (pages and score entry work); monitoring is told.
        status, _, health = browser.get("/healthz")
        assert status == 200, health
        assert "broker" in json.loads(health)["degraded"]
        status, _, health = browser.get("/healthz/monitor")
        assert status == 503
        assert "broker" in json.loads(health)["failing"]
    finally:
        drill.start_redis()
    print(f"print request with Redis stopped answered in {asking:.2f} s")
    # Nobody looks at the page: the sweep Celery beat sends finds the job by itself.
    back = time.monotonic()
    job = finished(job, timeout=60)
    print(f"job finished {time.monotonic() - back:.1f} s after Redis came back")
    assert (job.attempts, job.restarts) == (1, 0)
    drawn_once(job, copies=3)


def test_a_job_survives_its_pool_process_being_killed_mid_way(drill):
    drill.ensure_worker()
    job, _ = ask_for_sheets(drill.browser, copies=12)
    wait_for(lambda: row(job).progress_done >= 3, timeout=60, what="the job to be drawing")
    message = row(job).task_id
    killed = time.monotonic()
    drill.kill_pool_process()
    job = finished(job, timeout=60)
    print(f"job finished {time.monotonic() - killed:.1f} s after its pool process was killed")
    assert (job.attempts, job.restarts) == (2, 1)
    assert job.task_id == message  # the same message came back at once, not the sweep's
    assert "WorkerLostError" in drill.log(f"worker-{drill.workers_started}")
    drawn_once(job, copies=12)


def test_a_job_survives_its_whole_worker_being_killed_mid_way(drill):
    drill.ensure_worker()
    job, _ = ask_for_sheets(drill.browser, copies=11)
    wait_for(lambda: row(job).progress_done >= 3, timeout=60, what="the job to be drawing")
    killed = time.monotonic()
    drill.kill_worker()
    stopped_at = row(job)
    assert stopped_at.status == PrintJob.Status.RUNNING
    drill.start_worker()
    job = finished(job, timeout=60)
    print(f"job finished {time.monotonic() - killed:.1f} s after its worker was killed")
    assert (job.attempts, job.restarts) == (2, 1)
    # Its message is held unacknowledged until the visibility timeout: the sweep sent a
    # new one once the progress had stopped, and that run took the job over.
    assert job.task_id != stopped_at.task_id
    drawn_once(job, copies=11)


def test_a_lost_seating_message_is_seated_once_by_the_sweep_beat_sends(drill):
    """What a queued seating leaves when Redis restarts without its message: beat's sweep
    sends it again and the deployed worker seats the round, once."""
    from django.contrib.auth import get_user_model

    from tournaments.events import selectors, services
    from tournaments.models import TournamentRound

    drill.ensure_worker()
    director = get_user_model().objects.create_user("sweep-director")
    event = services.event_create(owner=director, name="Lost message", game="roolz")
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {i}" for i in range(24)), user=director
    )
    services.tournament_round_generation_mark(
        event=event, state="queued", work="seat", round=1, done=0, total=3
    )  # queued, and no message anywhere
    wait_for(
        lambda: selectors.generation_for(event=event).state in ("done", "failed"),
        timeout=60,
        what="the sweep to seat the round",
    )
    progress = selectors.generation_for(event=event)
    assert (progress.state, progress.restarts) == ("done", 1), progress
    draft = TournamentRound.objects.get(event=event)
    seated = [seat.entrant_id for table in draft.tables.all() for seat in table.seats.all()]
    assert len(seated) == len(set(seated)) == 24
