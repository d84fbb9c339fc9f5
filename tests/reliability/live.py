"""gunicorn of a test's own, serving the test database (or a database that is not there).

What an operator runs, on a free port, with the settings of ``config.settings``; Celery
tasks run in the request (no broker), since these drills break only the database.
"""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

from django.db import connection

from tests import deployed
from tests.deployed import free_port

__all__ = ["Answer", "Server", "free_port", "the_test_database_url"]


def the_test_database_url() -> str:
    """The test database pytest-django made, as a URL for another process."""
    return deployed.database_url(connection.settings_dict)


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
    """gunicorn as ``deploy/bin/web`` starts it, on a free port; ``request`` sends one
    request on a connection of its own."""

    def __init__(self, folder: Path, *, database_url: str, workers: int = 2, **settings: str):
        self.folder = folder
        self.port = free_port()
        self.env = deployed.environment(DATABASE_URL=database_url, REDIS_URL="", **settings)
        self.workers = workers
        self.process: deployed.Process | None = None

    def start(self) -> Server:
        self.process = deployed.web(self.folder, self.env, port=self.port, workers=self.workers)

        def serving() -> bool:
            assert self.process is not None
            if not self.process.alive():
                raise AssertionError("gunicorn stopped:\n" + self.log())
            try:
                return self.request("GET", "/healthz/live").status == 200
            except OSError:
                return False

        deployed.wait_for(serving, timeout=60, what="gunicorn")
        return self

    def log(self) -> str:
        return self.process.log() if self.process is not None else ""

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()

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
