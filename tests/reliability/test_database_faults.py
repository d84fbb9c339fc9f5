"""The database dropping connections under load, or being down: a 503 that says "try again".

gunicorn of the test's own serves the test database while phones post rounds (each
retried with its Idempotency-Key until it is stored) and read table pages, and this test
terminates every connection gunicorn holds, again and again. The API never answers an
HTML 500: every failure is the JSON envelope with 503 and ``Retry-After``, a page is the
short "try again" page, and every round ends up stored exactly once. A server whose
database is not there at all answers the same way.
"""

from __future__ import annotations

import select
import socket
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


# --------------------------------------------------------------------------- a hung database


class StallingProxy:
    """A TCP port in front of the database: it forwards both ways until ``stall`` is set,
    then holds every connection open and silent (a database that accepts and never
    answers). With no ``upstream`` it never forwards at all."""

    def __init__(self, upstream: tuple[str, int] | None):
        self.upstream = upstream
        self.stall = threading.Event()
        self.stop = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = [self.listener]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        pairs: dict[socket.socket, socket.socket] = {}
        self.listener.settimeout(0.05)
        while not self.stop.is_set():
            readable, _, _ = select.select([self.listener, *pairs], [], [], 0.05)
            for sock in readable:
                if sock is self.listener:
                    client, _ = self.listener.accept()
                    self.sockets.append(client)
                    if self.upstream is not None and not self.stall.is_set():
                        server = socket.create_connection(self.upstream)
                        self.sockets.append(server)
                        pairs[client], pairs[server] = server, client
                    continue
                if self.stall.is_set():
                    continue  # read nothing, answer nothing
                if sock not in pairs:
                    continue  # closed a moment ago with the other end of its pair
                data = sock.recv(65536)
                if data:
                    pairs[sock].sendall(data)
                else:
                    other = pairs.pop(sock)
                    pairs.pop(other, None)
                    other.close()
                    sock.close()
            if self.stall.is_set():
                time.sleep(0.05)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def timed(call):
    started = time.monotonic()
    answer = call()
    return answer, time.monotonic() - started


def test_a_database_that_accepts_and_never_answers_is_answered_503_within_seconds(tmp_path):
    """Connecting gives up after DB_CONNECT_TIMEOUT: the API's JSON 503, the pages' "try
    again" page and readiness's 503 each come within 5 s; liveness at once, even while
    another request waits on the database."""
    silent = StallingProxy(upstream=None)
    server = Server(tmp_path, database_url=f"postgres://postgres@127.0.0.1:{silent.port}/x")
    try:
        server.start()
        created, took = timed(lambda: server.post_json("/api/games/", ROOLZ))
        assert is_json_503(created), created
        assert took < 5, took
        page, took = timed(lambda: server.request("GET", "/t/" + "x" * 22 + "/"))
        assert page.status == 503 and TRY_AGAIN in page.body.decode(), page
        assert took < 5, took
        health, took = timed(lambda: server.request("GET", "/healthz"))
        assert health.status == 503 and health.json()["failing"] == ["database"], health
        assert took < 5, took

        waiting = threading.Thread(target=lambda: server.post_json("/api/games/", ROOLZ))
        waiting.start()
        time.sleep(0.3)  # that request now waits on the database
        live, took = timed(lambda: server.request("GET", "/healthz/live"))
        waiting.join(timeout=30)
        assert live.status == 200, live
        assert took < 1, took
    finally:
        server.stop()
        silent.close()


def test_a_database_that_stops_answering_mid_connection_is_answered_503_within_seconds(
    tmp_path,
):
    """A kept connection whose server goes silent: the statement's deadline cuts the wait,
    the API answers its JSON 503 within 5 s, and once the database answers again so does
    the site, with nothing stored twice."""
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "the proxy stands in front of the test database")
    db = connection.settings_dict
    proxy = StallingProxy(upstream=(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    url = the_test_database_url().replace(f":{db['PORT'] or 5432}/", f":{proxy.port}/")
    server = Server(tmp_path, database_url=url, workers=1)
    try:
        server.start()
        created = server.post_json("/api/games/", ROOLZ)
        assert created.status == 201, created
        game = created.json()
        entry = {"number": 1, "round": roolz_round(1)}
        path, token = f"/api/games/{game['id']}/rounds/", str(game["token"])

        proxy.stall.set()
        stalled, took = timed(lambda: server.post_json(path, entry, token=token, key="k1"))
        assert is_json_503(stalled), stalled
        assert took < 5, took

        proxy.stall.clear()  # the database answers again (new connections go through)
        # The phone sends again, as its outbox does, until the round is stored: a
        # connection another thread kept through the silent spell may still fail, and
        # behind a pooler the cut transaction holds the game's row until the pooler lets
        # its server connection go; each answer in between is the JSON 503.
        deadline = time.monotonic() + 30
        while True:
            stored = server.post_json(path, entry, token=token, key="k1")
            if stored.status != 503 or time.monotonic() > deadline:
                break
            assert is_json_503(stored), stored
            time.sleep(0.3)
        assert stored.status == 201, stored
        again = server.post_json(path, entry, token=token, key="k1")
        assert again.status in (200, 201) and again.json() == stored.json()
        rounds = server.request(
            "GET", f"/api/games/{game['id']}/", headers={"Authorization": f"Bearer {token}"}
        ).json()["rounds"]
        assert [row["number"] for row in rounds] == [1]
    finally:
        server.stop()
        proxy.close()
