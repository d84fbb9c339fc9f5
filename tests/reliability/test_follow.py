"""The follow process, started as deployed (``deploy/bin/follow`` beside ``deploy/bin/web``,
both on Redis and the test database), answers the players' pages' polls: 204 while nothing
changed, the part anew after a deal, a correction or an undo (the same part the web server
draws), and refuses what it should without a 500."""

from __future__ import annotations

import re
import shutil
import socket
import urllib.error
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse

from scoring.services import Actor, round_correct, round_record, round_undo
from tests import deployed
from tests.conftest import need_service
from tests.deployed import free_port, wait_for
from tests.tournaments.helpers import DEALS, ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.models import Event, Table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HX = {"HX-Request": "true"}
DESK = Actor(desk=True, device="director's desk")
SWAPPED = {"bidder": 0, "bid": 170, "won": {"A": 100, "B": 200}}  # the other side wins
LIVE_REV = re.compile(r'id="live" hx-get="[^"?]*\?rev=([^&"]+)')


@pytest.fixture(scope="module")
def servers(django_db_setup, django_db_blocker, tmp_path_factory):
    """(the follow process's address, the web server's address)."""
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "the processes share the test database: set DATABASE_URL")
    if shutil.which("redis-server") is None:
        need_service("redis-server", "not on PATH")
    folder = tmp_path_factory.mktemp("follow")
    redis_port, web_port, follow_port = free_port(), free_port(), free_port()
    env = deployed.environment(
        DATABASE_URL=deployed.database_url(connection.settings_dict),
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
    )
    processes: list[deployed.Process] = []
    with django_db_blocker.unblock():
        try:
            processes.append(deployed.redis_server(folder, redis_port))
            processes.append(deployed.web(folder, env, port=web_port, workers=1, threads=4))
            web = f"http://127.0.0.1:{web_port}"
            wait_for(lambda: answer(web, "/healthz")[0] == 200, timeout=60, what="gunicorn")
            processes.append(deployed.follow(folder, env, port=follow_port, upstream=web_port))
            yield f"http://127.0.0.1:{follow_port}", web
            for process in processes:
                assert "Traceback" not in process.log(), process.log()[-3000:]
        finally:
            for process in reversed(processes):
                process.stop()
            connection.close()


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


def answer(
    base: str, path: str, *, method: str = "GET", headers: dict[str, str] | None = None
) -> tuple[int, str, dict[str, str]]:
    call = urllib.request.Request(base + path, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(call, timeout=60) as got:
            return got.status, got.read().decode(), dict(got.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(), dict(refused.headers)
    except OSError:
        return 0, "", {}


def poll(base: str, path: str, rev: str) -> tuple[int, str, dict[str, str]]:
    return answer(base, f"{path}?rev={rev}", headers=HX)


def rev_of(body: str) -> str:
    found = LIVE_REV.search(body)
    assert found, body[:2000]
    return found.group(1)


def anew(follow: str, path: str, rev: str) -> str:
    """The part a phone showing ``rev`` gets once something is new (polled as a page
    does, every moment, until it is)."""

    def polled() -> str | None:
        status, body, _ = poll(follow, path, rev)
        assert status in (200, 204), (status, body[:500])
        return body if status == 200 else None

    return wait_for(polled, timeout=60, what=f"{path} to show something new after {rev}")


def settled(follow: str, web: str, path: str, rev: str) -> str:
    """The part anew from the follow process, once it is the one the web server draws
    itself for the same page (the standings may be held a few seconds while tables
    finish; both then move on)."""

    def same() -> str | None:
        body = anew(follow, path, rev)
        drawn = poll(web, path, "~")[1]
        return body if body == drawn else None

    return wait_for(same, timeout=60, what=f"{path} from the follow process as drawn")


def new_event(owner) -> Event:
    event = services.event_create(
        owner=owner, name="Followed hall", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 25)), user=owner
    )
    services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event), user=owner
    )
    return Event.objects.get(pk=event.pk)


def table(event: Event, number: int) -> Table:
    return event.rounds.get().tables.select_related("game").get(number=number)


def test_standings_poll_nothing_new_then_a_deal_a_correction_and_an_undo(servers, director):
    follow, web = servers
    event = new_event(director)
    path = reverse("tournaments:standings", args=[event.public_token])
    status, page, _ = answer(follow, path)  # not a poll: the web server's page, passed on
    assert status == 200
    shown = rev_of(page)
    assert rev_of(anew(follow, path, "s-old")) == shown  # an old page gets the part of now
    for _ in range(3):
        status, body, headers = poll(follow, path, shown)
        assert (status, body, headers.get("X-Served-By")) == (204, "", "follow")

    play_table(table(event, 1))  # a table finishes: the standings count it
    part = settled(follow, web, path, shown)
    assert rev_of(part) != shown
    shown = rev_of(part)
    game = table(event, 1).game
    round_correct(game=game, number=2, entry=SWAPPED, actor=DESK)  # shows at once
    part = settled(follow, web, path, shown)
    assert rev_of(part) != shown
    shown = rev_of(part)
    round_undo(game=game, number=2, actor=DESK)
    part = settled(follow, web, path, shown)
    assert rev_of(part) != shown


def test_a_players_page_follows_their_table_and_their_rank(servers, director):
    follow, web = servers
    event = new_event(director)
    at_two = table(event, 2)
    player = at_two.seats.get(seat=0).entrant
    path = reverse("tournaments:entrant", args=[event.public_token, player.pk])
    shown = rev_of(answer(follow, path)[1])

    round_record(  # a deal at their table: their page shows its points
        game=at_two.game, number=1, entry=DEALS[4][0], actor=Actor(seat=0, device="phone 0")
    )
    part = settled(follow, web, path, shown)
    assert "data-total" in part and rev_of(part) != shown
    shown = rev_of(part)
    assert poll(follow, path, shown)[0] == 204

    play_table(table(event, 1))  # another table finishes: their rank is drawn anew
    part = settled(follow, web, path, shown)
    assert rev_of(part) != shown

    projector = reverse("tournaments:projector", args=[event.public_token])
    status, page, _ = answer(follow, projector)
    assert status == 200
    assert rev_of(settled(follow, web, projector, "p-old")) == rev_of(page)


def test_what_the_follow_process_refuses(servers, director):
    follow, _ = servers
    event = new_event(director)

    def settled_status(path: str) -> int:
        """The answer once the follow process has read the event (a first poll may be
        told 204, nothing to show yet, while it reads)."""
        found = wait_for(
            lambda: (status := poll(follow, path, "1")[0]) != 204 and status,
            timeout=60,
            what=f"{path} answered",
        )
        return int(found)

    assert settled_status("/e/no-such-event/standings/") == 404
    assert settled_status("/e/no-such-event/players/1/") == 404
    unknown = reverse("tournaments:entrant", args=[event.public_token, 999_999_999])
    assert settled_status(unknown) == 404
    standings = reverse("tournaments:standings", args=[event.public_token])
    assert answer(follow, standings + "?rev=1", method="POST", headers=HX)[0] == 405
    assert answer(follow, "/healthz")[0] == 200  # not a poll: passed on to the web server
    assert answer(follow, "/e/no-such-event/")[0] == 404
    with socket.create_connection(("127.0.0.1", int(follow.rsplit(":", 1)[1]))) as raw:
        raw.sendall(b"NONSENSE\r\n\r\n")
        raw.settimeout(30)
        assert raw.recv(100).startswith(b"HTTP/1.1 400")
