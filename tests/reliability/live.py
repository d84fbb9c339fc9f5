"""gunicorn of a test's own, serving the test database (or a database that is not there).

What an operator runs, on a free port, with the settings of ``config.settings``; Celery
tasks run in the request (no broker), since these drills break only the database.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def the_test_database_url() -> str:
    """The test database pytest-django made, as a URL for another process."""
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "")
    password = ":" + urllib.parse.quote(db["PASSWORD"]) if db["PASSWORD"] else ""
    where = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{user}{password}@{where}/{db['NAME']}"


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    def json(self) -> Any:
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"{self.status} {self.content_type} {self.body[:300]!r}"


class Server:
    """gunicorn on a free port; ``request`` sends one request on a connection of its own."""

    def __init__(self, folder: Path, *, database_url: str, workers: int = 2):
        self.folder = folder
        self.port = free_port()
        hidden = ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "DB_CONN_MAX_AGE")
        self.env = {key: value for key, value in os.environ.items() if key not in hidden}
        self.env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            TABLESCORE_TESTING="1",
            DATABASE_URL=database_url,
            REDIS_URL="",
        )
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        log = open(self.folder / "web.log", "ab")  # noqa: SIM115  (kept by the process)
        self.process = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "config.wsgi",
                "--workers",
                str(self.workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--timeout",
                "60",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/healthz/live").status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError("gunicorn did not start:\n" + self.log())

    def log(self) -> str:
        path = self.folder / "web.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        *,
        chunked: bool = False,
    ) -> Answer:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            try:
                if chunked and body is not None:
                    pieces = [body[i : i + 8192] for i in range(0, len(body), 8192)]
                    conn.request(method, path, iter(pieces), headers or {}, encode_chunked=True)
                else:
                    conn.request(method, path, body, headers or {})
            except (BrokenPipeError, ConnectionResetError):
                pass  # answered before the whole body was sent (a 413): read that answer
            answer = conn.getresponse()
            return Answer(
                answer.status,
                {key.lower(): value for key, value in answer.getheaders()},
                answer.read(),
            )
        finally:
            conn.close()

    def post_json(
        self, path: str, data: Any, *, token: str = "", key: str = "", chunked: bool = False
    ) -> Answer:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        return self.request("POST", path, json.dumps(data).encode(), headers, chunked=chunked)
