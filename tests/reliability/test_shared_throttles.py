"""Three gunicorn workers with Redis share one count: an address gets its rate, not three
times it. Each request is held by a sync worker while it runs, so a burst sent at once is
spread over the three processes."""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tests import deployed
from tests.conftest import need_service
from tests.deployed import free_port, wait_for
from tests.reliability.test_faults import ROOLZ

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RATE = 10
BURST = 30  # three times the rate: what three processes counting alone would let through


def post_game(base: str) -> tuple[int, str]:
    call = urllib.request.Request(
        base + "/api/games/",
        data=json.dumps(ROOLZ).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(call, timeout=60) as answer:
            return answer.status, ""
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers.get("Retry-After", "")


@pytest.fixture(scope="module")
def three_workers(django_db_setup, django_db_blocker, tmp_path_factory):
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "gunicorn shares the test database: set DATABASE_URL")
    if shutil.which("redis-server") is None:
        need_service("redis-server", "not on PATH")
    folder = tmp_path_factory.mktemp("throttles")
    redis_port, web_port = free_port(), free_port()
    env = deployed.environment(
        DATABASE_URL=deployed.database_url(connection.settings_dict),
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",  # the cache follows: same server
        GAMES_RATE=f"{RATE}/h",
    )
    processes: list[deployed.Process] = []
    with django_db_blocker.unblock():
        try:
            processes.append(deployed.redis_server(folder, redis_port))
            # One thread each: a request holds its process while it runs, so a burst sent
            # at once is spread over the three.
            processes.append(deployed.web(folder, env, port=web_port, workers=3, threads=1))
            base = f"http://127.0.0.1:{web_port}"

            def serving() -> bool:
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=5)
                    return True
                except urllib.error.HTTPError:
                    return True
                except OSError:
                    return False

            wait_for(serving, timeout=60, what="gunicorn")
            yield base
        finally:
            for process in processes:
                process.stop()
            connection.close()


def test_three_workers_share_one_count(three_workers):
    with ThreadPoolExecutor(max_workers=BURST) as pool:
        answers = list(pool.map(lambda _: post_game(three_workers), range(BURST)))
    statuses = sorted(status for status, _ in answers)
    assert statuses.count(201) == RATE, statuses
    assert statuses.count(429) == BURST - RATE, statuses
    waits = [int(wait) for status, wait in answers if status == 429]
    assert all(1 <= wait <= 3600 for wait in waits)
