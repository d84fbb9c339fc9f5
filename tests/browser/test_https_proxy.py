"""A club's own site as deployed: Caddy with ``deploy/Caddyfile`` (``tls internal``, its root
trusted by this test's Chromium) in front of ``deploy/bin/web`` with the production settings.

A phone saves a round through the proxy, the service worker registers (HTTPS is a secure
context), cookies are Secure and HSTS is sent; behind the proxy (NUM_PROXIES=1) the client's
own address counts, for the throttles and the login lock-out alike.
"""

from __future__ import annotations

import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from scoring.models import Round
from tests import deployed
from tests.browser.conftest import CHROMIUM_FLAGS, PHONE, chromium_path
from tests.browser.pages import Phone
from tests.browser.test_table_flows import roolz_game
from tests.conftest import need_service

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.django_db(transaction=True)]

SITE = "club.tablescore.test"
FAILURE_LIMIT = 3


@pytest.fixture(scope="module")
def club_site(django_db_setup, django_db_blocker, tmp_path_factory):
    """gunicorn with the production settings, behind Caddy over HTTPS."""
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "gunicorn shares the test database")
    for program in deployed.missing_programs(["caddy", "certutil"]):
        need_service(program, "not on PATH (make test installs it)")
    folder = tmp_path_factory.mktemp("club-site")
    web_port, https_port = deployed.free_port(), deployed.free_port()
    origin = f"https://{SITE}:{https_port}"
    env = deployed.environment(
        relaxed=False,
        DEBUG="0",
        SECRET_KEY="a-secret-for-this-test-only-" + "x" * 30,
        ALLOWED_HOSTS=SITE,
        CSRF_TRUSTED_ORIGINS=origin,
        TABLESCORE_BASE_URL=origin,
        NUM_PROXIES="1",
        DATABASE_URL=deployed.database_url(connection.settings_dict),
        REDIS_URL="",
        STATIC_ROOT=str(folder / "static"),
        LOGIN_FAILURE_LIMIT=str(FAILURE_LIMIT),
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
            processes.append(deployed.web(folder, env, port=web_port))
            processes.append(
                deployed.caddy(
                    folder, site=SITE, https_port=https_port, upstream=f"127.0.0.1:{web_port}"
                )
            )
            home = folder / "home"
            nssdb = home / ".pki" / "nssdb"
            nssdb.mkdir(parents=True)
            subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True)
            subprocess.run(
                [
                    "certutil",
                    "-A",
                    "-d",
                    f"sql:{nssdb}",
                    "-n",
                    "Caddy local",
                    "-t",
                    "C,,",
                    "-i",
                    str(deployed.caddy_root(folder)),
                ],
                check=True,
            )
            yield {"origin": origin, "home": home, "port": https_port, "folder": folder}
        finally:
            for process in reversed(processes):
                process.stop()
            connection.close()


@pytest.fixture
def phone(club_site, playwright):
    """Chromium trusting Caddy's root (in its NSS database), the site's name mapped here."""
    browser = playwright.chromium.launch(
        executable_path=chromium_path(),
        args=[*CHROMIUM_FLAGS, f"--host-resolver-rules=MAP {SITE} 127.0.0.1"],
        env={"HOME": str(club_site["home"]), "PATH": "/usr/bin:/bin"},
    )
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    yield page
    context.close()
    browser.close()


def test_a_phone_saves_a_round_through_caddy_over_https(club_site, phone, screenshot):
    game = roolz_game()
    answer = phone.goto(f"{club_site['origin']}/t/{game.table_token}/")
    assert answer is not None and answer.status == 200
    assert "max-age=31536000" in answer.headers["strict-transport-security"]
    assert phone.evaluate("window.isSecureContext") is True
    phone.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=15_000
    )
    Phone(phone).enter_roolz_deal("Ann", 200, 220)
    Phone(phone).preview_shows("Team A +220")
    Phone(phone).save_button.click()
    Phone(phone).saved("Deal 1 saved")
    screenshot(phone, "https-through-caddy", full_page=False)
    assert Round.objects.filter(game=game).count() == 1
    cookies = phone.context.cookies()
    assert cookies, "the table page sets its session and CSRF cookies"
    assert all(cookie["secure"] for cookie in cookies), cookies


def log_in(phone, origin: str, password: str) -> int:
    phone.goto(f"{origin}/admin/login/?next=/admin/")
    phone.fill("#id_username", "director")
    phone.fill("#id_password", password)
    with phone.expect_response(lambda r: r.url.endswith("/admin/login/?next=/admin/")) as sent:
        phone.locator("input[type=submit]").click()
    return sent.value.status


def test_a_guesser_behind_the_proxy_locks_out_only_their_own_address(club_site, phone):
    """Every request reaches gunicorn from Caddy's address: the lock-out and the throttles
    read the client's own address from X-Forwarded-For, so the director, from another
    address, still signs in; a guesser's own X-Forwarded-For is replaced by Caddy."""
    get_user_model().objects.create_superuser("director", "d@example.org", "right-horse-9")
    origin = club_site["origin"]
    for _ in range(FAILURE_LIMIT - 1):
        assert log_in(phone, origin, "wrong") == 200
    assert log_in(phone, origin, "wrong") == 429
    assert log_in(phone, origin, "right-horse-9") == 429  # this address is locked out

    # The director's phone, from another address (127.0.0.2): Caddy passes it on as the
    # client's address, and the right password gets in.
    assert sign_in_from(club_site) == 200

    # The guesser claims the director's address: Caddy drops the claim, still locked out.
    assert sign_in_from(club_site, source="127.0.0.1", forwarded_for="127.0.0.2") == 429


def trusting(club_site):
    import ssl

    return ssl.create_default_context(cafile=str(deployed.caddy_root(club_site["folder"])))


def sign_in_from(club_site, *, source: str = "127.0.0.2", forwarded_for: str = "") -> int:
    """Sign in as the director from ``source`` through Caddy; the answer's status."""
    import http.client
    import re
    import socket
    import urllib.parse

    class FromAddress(http.client.HTTPSConnection):
        """To the site's name (its certificate's), from ``source``, at this machine."""

        def connect(self):
            sock = socket.create_connection(("127.0.0.1", self.port), 10, (source, 0))
            self.sock = self._context.wrap_socket(sock, server_hostname=SITE)

    def ask(method: str, path: str, body: str = "", headers=None, cookie: str = ""):
        conn = FromAddress(SITE, club_site["port"], context=trusting(club_site))
        sent = {"Host": f"{SITE}:{club_site['port']}", **(headers or {})}
        if cookie:
            sent["Cookie"] = cookie
        if forwarded_for:
            sent["X-Forwarded-For"] = forwarded_for
        conn.request(method, path, body or None, sent)
        answer = conn.getresponse()
        data = answer.read().decode(errors="replace")
        conn.close()
        return answer, data

    answer, page = ask("GET", "/admin/login/?next=/admin/")
    cookie = "; ".join(
        value.split(";")[0] for key, value in answer.getheaders() if key.lower() == "set-cookie"
    )
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": "director",
            "password": "right-horse-9",
            "next": "/admin/",
        }
    )
    answer, _ = ask(
        "POST",
        "/admin/login/?next=/admin/",
        form,
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"{club_site['origin']}/admin/login/",
            "Origin": club_site["origin"],
        },
        cookie,
    )
    return 200 if answer.status == 302 else answer.status
