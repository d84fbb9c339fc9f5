"""The database dropping connections under load, or being down: a 503 that says "try again".

gunicorn of the test's own serves the test database while phones post rounds (each
retried with its Idempotency-Key until it is stored) and read table pages, and this test
terminates every connection gunicorn holds, again and again. The API never answers an
HTML 500: every failure is the JSON envelope with 503 and ``Retry-After``, a page is the
short "try again" page, and every round ends up stored exactly once. A server whose
database is not there at all answers the same way.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
from django.db import connection

from tests.conftest import need_service
from tests.reliability.live import Answer, Server, free_port, the_test_database_url

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOLZ = {
    "format": 1,
    "game": "roolz",
    "players": ["Ann", "Ben", "Cat", "Dan"],
    "options": {"target": 1_000_000},  # no game ends while the drill runs
}
PHONES = 4
ROUNDS = 25  # per phone, each its own game
TRY_AGAIN = "Try again in a moment"


def roolz_round(number: int) -> dict[str, object]:
    a = 100 + (number * 35) % 200
    return {"bidder": number % 4, "bid": 200, "won": {"A": a, "B": 300 - a}}


@pytest.fixture
def server(tmp_path):
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "the drill terminates PostgreSQL connections")
    web = Server(tmp_path, database_url=the_test_database_url(), workers=2).start()
    try:
        yield web
    finally:
        web.stop()
        connection.close()


def is_json_503(answer: Answer) -> bool:
    if answer.status != 503 or answer.content_type != "application/json":
        return False
    body = answer.json()
    return (
        answer.headers.get("retry-after", "").isdigit()
        and list(body) == ["errors"]
        and body["errors"][0]["field"] is None
        and "try again" in body["errors"][0]["message"]
    )


def terminate_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return len(cursor.fetchall())


def test_connections_dropped_under_load_answer_json_503_and_lose_nothing(server):
    games = []
    for _ in range(PHONES):
        created = server.post_json("/api/games/", ROOLZ)
        assert created.status == 201, created
        games.append(created.json())

    seen: Counter[int] = Counter()
    wrong: list[str] = []
    pages: Counter[int] = Counter()
    done = threading.Event()
    lock = threading.Lock()

    def phone(game: dict[str, object]) -> None:
        for number in range(1, ROUNDS + 1):
            key = f"{game['id']}-{number}"
            entry = {"number": number, "round": roolz_round(number)}
            for _attempt in range(200):
                answer = server.post_json(
                    f"/api/games/{game['id']}/rounds/", entry, token=str(game["token"]), key=key
                )
                with lock:
                    seen[answer.status] += 1
                if answer.status == 201:
                    break
                if not is_json_503(answer):
                    with lock:
                        wrong.append(f"round {number} of game {game['id']}: {answer!r}")
                    return
                time.sleep(0.05)
            else:
                with lock:
                    wrong.append(f"round {number} of game {game['id']} never stored")
                return

    def reader() -> None:
        while not done.is_set():
            answer = server.request("GET", f"/t/{games[0]['token']}/")
            with lock:
                pages[answer.status] += 1
            page_ok = answer.status == 200 or (
                answer.status == 503
                and answer.content_type.startswith("text/html")
                and TRY_AGAIN in answer.body.decode()
                and answer.headers.get("retry-after", "").isdigit()
            )
            if not page_ok:
                with lock:
                    wrong.append(f"table page: {answer!r}")
                return

    phones = [threading.Thread(target=phone, args=(game,)) for game in games]
    pager = threading.Thread(target=reader)
    for thread in [*phones, pager]:
        thread.start()
    terminated = 0
    while any(thread.is_alive() for thread in phones):
        terminated += terminate_connections()
        time.sleep(0.15)
    done.set()
    for thread in [*phones, pager]:
        thread.join(timeout=60)
    print(f"answers {dict(seen)}, pages {dict(pages)}, connections terminated {terminated}")

    assert not wrong, wrong[:5]
    assert terminated > 0
    assert seen[500] == 0
    assert set(seen) <= {201, 503}
    # Nothing lost and nothing twice: every game holds its rounds, each once, in order.
    for game in games:
        answer = server.request(
            "GET", f"/api/games/{game['id']}/", headers={"Authorization": f"Bearer {game['token']}"}
        )
        assert answer.status == 200, answer
        rounds = answer.json()["rounds"]
        assert [row["number"] for row in rounds] == list(range(1, ROUNDS + 1))
        assert [row["round"] for row in rounds] == [roolz_round(n) for n in range(1, ROUNDS + 1)]


def test_a_database_that_is_down_answers_503_on_the_api_and_pages_and_readiness(tmp_path):
    nowhere = f"postgres://postgres@127.0.0.1:{free_port()}/tablescore"  # nothing listens
    server = Server(tmp_path, database_url=nowhere, workers=1).start()
    try:
        created = server.post_json("/api/games/", ROOLZ)
        assert is_json_503(created), created
        game = server.request("GET", "/api/games/1/", headers={"Authorization": "Bearer x"})
        assert is_json_503(game), game

        page = server.request("GET", "/t/" + "x" * 22 + "/")
        assert page.status == 503, page
        assert page.content_type.startswith("text/html")
        assert TRY_AGAIN in page.body.decode()
        assert page.headers["retry-after"].isdigit()

        for path in ("/healthz", "/healthz/monitor"):
            health = server.request("GET", path)
            assert health.status == 503, (path, health)
            assert health.json()["failing"] == ["database"]
        assert server.request("GET", "/healthz/live").status == 200
    finally:
        server.stop()
