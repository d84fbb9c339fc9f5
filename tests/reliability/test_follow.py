"""The follow process, started as deployed (``deploy/bin/follow`` beside ``deploy/bin/web``,
both on Redis and the test database), answers the players' pages' polls: 204 while nothing
changed, the part anew after a deal, a correction or an undo (the same part the web server
draws), and refuses what it should without a 500; a player's own page (/me/<token>/) as
well, its token resolved to their entry anew at each reading of the facts (a reissued
link refused), never in the log."""

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
from tournaments.models import Entrant, Event, Table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HX = {"HX-Request": "true"}
DESK = Actor(desk=True, device="director's desk")
SWAPPED = {"bidder": 0, "bid": 170, "won": {"A": 100, "B": 200}}  # the other side wins
LIVE_REV = re.compile(r'id="live" hx-get="[^"?]*\?rev=([^&"]+)')
LIVE_PATH = re.compile(r'id="live" hx-get="([^"?]*)\?')
OWN_TOKENS: set[str] = set()  # every private token polled here: none is in the log


@pytest.fixture(scope="module")
def servers(django_db_setup, django_db_blocker, tmp_path_factory):
    """(the follow process's address, the web server's address)."""
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "the processes share the test database: set DATABASE_URL")
    if shutil.which("redis-server") is None:
        need_service("redis-server", "not on PATH")
    OWN_TOKENS.clear()  # the links polled while these processes run (a worker may start
    # them again for later tests of this module)
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
            # Every line it can write (each part asked of the web server): no token in any.
            said = {**env, "LOG_LEVEL": "DEBUG"}
            processes.append(deployed.follow(folder, said, port=follow_port, upstream=web_port))
            yield f"http://127.0.0.1:{follow_port}", web
            for process in processes:
                assert "Traceback" not in process.log(), process.log()[-3000:]
            written = processes[-1].log()
            if OWN_TOKENS:
                assert "/me/…/" in written  # the own pages' parts were asked, and said so
            assert not [token for token in OWN_TOKENS if token in written]
            # gunicorn's access log (the parts it drew for the follow process): no token
            served = processes[1].log()
            if OWN_TOKENS:
                assert "GET /me/…/" in served
            assert not [token for token in OWN_TOKENS if token in served]
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


def unseated_event(owner) -> Event:
    """12 players registered, check-in open from their own links, no round yet."""
    event = services.event_create(
        owner=owner, name="Own links hall", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 13)), user=owner
    )
    services.event_self_service_set(event=event, self_check_in="open", user=owner)
    return Event.objects.get(pk=event.pk)


def own_path(entrant: Entrant) -> str:
    OWN_TOKENS.add(entrant.private_token)
    return reverse("tournaments:me", args=[entrant.private_token])


def test_a_players_own_page_checked_in_seated_and_a_deal(servers, director):
    follow, web = servers
    event = unseated_event(director)
    ann = event.entrants.order_by("pk").first()
    path = own_path(ann)
    status, page, _ = answer(follow, path)  # the page itself: the web server's, passed on
    assert status == 200 and 'data-me-state="waiting"' in page
    shown = rev_of(page)

    def answered_by_follow(rev: str) -> bool:
        """204 from the follow process itself (a first poll of a new link may be told
        204 while its facts are read: that is the follow process's answer too)."""
        status, body, headers = poll(follow, path, rev)
        return (status, body, headers.get("X-Served-By")) == (204, "", "follow")

    wait_for(lambda: answered_by_follow(shown), timeout=60, what="the follow process's 204")
    for _ in range(3):
        assert answered_by_follow(shown)

    others = list(event.entrants.exclude(pk=ann.pk).values_list("pk", flat=True))
    services.entrants_check_in_these(event=event, entrant_ids=others, user=director)
    services.entrant_self_check_in(entrant=ann, checked_in=True)  # from their link
    part = settled(follow, web, path, shown)
    assert 'data-me-state="checked-in"' in part and rev_of(part) != shown
    shown = rev_of(part)
    assert answered_by_follow(shown)

    round_one = services.tournament_round_generate(event=event)
    services.tournament_round_publish(event=event, round=round_one, user=director)
    part = settled(follow, web, path, shown)  # their seat, the moment it exists
    assert "data-my-seat" in part and "Round 1: your seat" in part
    shown = rev_of(part)
    assert answered_by_follow(shown)

    round_one = event.rounds.get()  # the clock, as the public player page draws it
    services.tournament_round_clock_start(event=event, round=round_one, minutes=30, user=director)
    services.tournament_round_clock_pause(event=event, round=round_one, user=director)
    part = settled(follow, web, path, shown)  # paused: the same second on both
    assert 'class="round-clock clock-paused' in part
    shown = rev_of(part)

    seat = ann.table_seats.select_related("table__game").get()
    round_record(  # a deal at their table: their page shows its points
        game=seat.table.game, number=1, entry=DEALS[4][0], actor=Actor(seat=0, device="p0")
    )
    part = settled(follow, web, path, shown)
    assert "data-total" in part and rev_of(part) != shown
    shown = rev_of(part)
    assert answered_by_follow(shown)
    # The form token is the phone's own (htmx's header): none is kept in a shared part.
    assert "csrfmiddlewaretoken" not in part


def test_each_link_gets_its_own_part_and_a_reissued_one_is_refused(servers, director):
    follow, _ = servers
    event = new_event(director)
    mates = list(table(event, 1).seats.select_related("entrant").order_by("seat"))
    ann, bob = mates[0].entrant, mates[1].entrant
    for player in (ann, bob):  # polled from an old page: each gets their own part
        path = own_path(player)
        part = anew(follow, path, "old")
        assert f"data-me-name>{player.name}<" in part
        assert LIVE_PATH.search(part).group(1) == path
        other = bob if player == ann else ann
        assert other.private_token not in part

    def refused(path: str) -> bool:
        status, _, headers = poll(follow, path, "1")
        return status == 404 and headers.get("X-Served-By") == "follow"

    OWN_TOKENS.add("no-such-link-at-all-00")
    unknown = reverse("tournaments:me", args=["no-such-link-at-all-00"])
    wait_for(lambda: refused(unknown), timeout=60, what="an unknown link refused")

    old = own_path(ann)
    shown = rev_of(anew(follow, old, "old"))
    wait_for(lambda: poll(follow, old, shown)[0] == 204, timeout=60, what="the old link followed")
    ann = services.entrant_link_reissue(event=event, entrant=ann, user=director)
    # Refused by the follow process itself once it reads the links again (FACTS_EVERY).
    wait_for(lambda: refused(old), timeout=60, what="the reissued link refused")
    for _ in range(3):
        assert refused(old)
    new = own_path(ann)
    assert answer(follow, new)[0] == 200
    part = anew(follow, new, "old")
    assert LIVE_PATH.search(part).group(1) == new and "data-me-name" in part
