"""A room's phones as deployed: Caddy with ``deploy/Caddyfile`` sends the players' pages'
polls to the follow process (``deploy/bin/follow``) and everything else to gunicorn
(``deploy/bin/web``). The standings page open in Chromium moves on when a table finishes,
its polls answered by the follow process; with the follow process stopped, the proxy sends
them to gunicorn and the page still moves on."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests import deployed
from tests.browser.conftest import CHROMIUM_FLAGS, PHONE, chromium_path
from tests.conftest import need_service
from tests.reliability.test_follow import new_event, table, unseated_event
from tests.tournaments.helpers import play_table
from tournaments.events import services

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.django_db(transaction=True)]

SITE = "room.tablescore.test"


@pytest.fixture(scope="module")
def room(django_db_setup, django_db_blocker, tmp_path_factory):
    """gunicorn and the follow process on Redis, behind Caddy over HTTPS; yields the
    origin, Chromium's home (trusting Caddy's root) and the follow process."""
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "gunicorn shares the test database")
    for program in deployed.missing_programs(["caddy", "certutil"]):
        need_service(program, "not on PATH (make test installs it)")
    if shutil.which("redis-server") is None:
        need_service("redis-server", "not on PATH")
    folder = tmp_path_factory.mktemp("room")
    web_port, follow_port, https_port, redis_port = (deployed.free_port() for _ in range(4))
    origin = f"https://{SITE}:{https_port}"
    env = deployed.environment(
        ALLOWED_HOSTS=SITE,
        CSRF_TRUSTED_ORIGINS=origin,
        TABLESCORE_BASE_URL=origin,
        NUM_PROXIES="1",
        DATABASE_URL=deployed.database_url(connection.settings_dict),
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        STATIC_ROOT=str(folder / "static"),
    )
    subprocess.run(
        [str(deployed.BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=deployed.ROOT,
        env=env,
        check=True,
    )
    processes: list[deployed.Process] = []
    with django_db_blocker.unblock():
        try:
            processes.append(deployed.redis_server(folder, redis_port))
            processes.append(deployed.web(folder, env, port=web_port))
            follow = deployed.follow(folder, env, port=follow_port, upstream=web_port)
            processes.append(follow)
            processes.append(
                deployed.caddy(
                    folder,
                    site=SITE,
                    https_port=https_port,
                    upstream=f"127.0.0.1:{web_port}",
                    follow=f"127.0.0.1:{follow_port}",
                )
            )
            home = folder / "home"
            nssdb = home / ".pki" / "nssdb"
            nssdb.mkdir(parents=True)
            certutil = ["certutil", "-d", f"sql:{nssdb}"]
            subprocess.run([*certutil, "-N", "--empty-password"], check=True)
            root = str(deployed.caddy_root(folder))
            trusted = [*certutil, "-A", "-n", "Caddy local", "-t", "C,,", "-i", root]
            subprocess.run(trusted, check=True)
            yield {"origin": origin, "home": home, "follow": follow}
        finally:
            for process in reversed(processes):
                process.stop()
            connection.close()


@pytest.fixture
def phone(room, playwright):
    browser = playwright.chromium.launch(
        executable_path=chromium_path(),
        args=[*CHROMIUM_FLAGS, f"--host-resolver-rules=MAP {SITE} 127.0.0.1"],
        env={"HOME": str(room["home"]), "PATH": "/usr/bin:/bin"},
    )
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    yield page
    context.close()
    browser.close()


def shown_rev(page) -> str:
    return page.eval_on_selector("#live", "e => e.getAttribute('hx-get').split('rev=')[1]")


def moves_on(page, before: str) -> None:
    page.wait_for_function(
        "before => { const live = document.querySelector('#live');"
        " return live && !live.getAttribute('hx-get').endsWith('rev=' + before); }",
        arg=before,
        timeout=60_000,
    )


def test_a_players_own_page_checks_in_from_a_part_the_follow_process_sent(room, phone, screenshot):
    """Written before the standings' test, which stops the follow process at its end."""
    director = get_user_model().objects.create_user("owner", password="pw", is_staff=True)
    event = unseated_event(director)  # check-in open from the players' own links
    ann = event.entrants.order_by("pk").first()
    served: list[tuple[int, str | None]] = []
    phone.on(
        "response",
        lambda r: "rev=" in r.url and served.append((r.status, r.headers.get("x-served-by"))),
    )
    phone.goto(f"{room['origin']}/me/{ann.private_token}/")
    before = shown_rev(phone)
    others = list(event.entrants.exclude(pk=ann.pk).values_list("pk", flat=True))
    services.entrants_check_in_these(event=event, entrant_ids=others, user=director)
    moves_on(phone, before)  # the part anew, from the follow process
    assert (200, "follow") in served, served
    phone.get_by_role("button", name="Check in").click()  # the form token is the page's own
    phone.locator("[data-me-state=checked-in]").wait_for(timeout=60_000)
    ann.refresh_from_db()
    assert ann.checked_in
    screenshot(phone, "own-page-through-follow", full_page=False)


def test_the_standings_page_moves_on_through_the_follow_process(room, phone, screenshot):
    director = get_user_model().objects.create_user("director", password="pw", is_staff=True)
    event = new_event(director)
    served: list[tuple[int, str | None]] = []
    phone.on(
        "response",
        lambda r: "rev=" in r.url and served.append((r.status, r.headers.get("x-served-by"))),
    )
    phone.goto(f"{room['origin']}/e/{event.public_token}/standings/")
    before = shown_rev(phone)
    play_table(table(event, 1))
    moves_on(phone, before)
    assert (200, "follow") in served, served  # the new part came from the follow process
    screenshot(phone, "standings-through-follow", full_page=False)

    room["follow"].stop()  # the proxy sends the polls to gunicorn: the page still moves on
    before = shown_rev(phone)
    count = len(served)
    play_table(table(event, 2))
    moves_on(phone, before)
    assert any(status == 200 and by is None for status, by in served[count:]), served
