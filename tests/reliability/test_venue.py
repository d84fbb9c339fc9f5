"""A club night from a laptop (``make venue``): the real server on the laptop's address,
that host allowed, the address and its QR code printed, the data kept across a restart."""

from __future__ import annotations

import http.client
import json
import re

import pytest

from deploy.venue import addresses_from_ip, best_address
from tests import deployed

ROOLZ = {"format": 1, "game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}
IP_OUTPUT = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: enp3s0    inet 192.168.1.20/24 brd 192.168.1.255 scope global dynamic enp3s0
3: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0
4: wlp2s0    inet 10.42.0.1/24 brd 10.42.0.255 scope global noprefixroute wlp2s0
"""


def test_the_hall_address_is_the_wifi_first_then_a_wired_one_never_a_container():
    pairs = addresses_from_ip(IP_OUTPUT)
    assert pairs == [("enp3s0", "192.168.1.20"), ("wlp2s0", "10.42.0.1")]
    assert best_address(pairs) == "10.42.0.1"
    assert best_address(pairs[:1]) == "192.168.1.20"
    assert best_address([]) is None


def ask(
    address: str, port: int, method: str, path: str, *, host: str = "", body=None, headers=None
):
    connection = http.client.HTTPConnection(address, port, timeout=30)
    try:
        sent = {"Host": host or f"{address}:{port}", **(headers or {})}
        connection.request(method, path, body, sent)
        answer = connection.getresponse()
        return answer.status, answer.read().decode(errors="replace")
    finally:
        connection.close()


@pytest.fixture
def laptop(tmp_path):
    """The venue's settings: an address of the loopback range that is not 127.0.0.1, as a
    hall's network address would be, and a data folder of the test's own."""
    port = deployed.free_port()
    env = deployed.environment(
        relaxed=False,
        VENUE_ADDRESS="127.0.0.2",
        VENUE_PORT=str(port),
        VENUE_BIND=f"127.0.0.2:{port}",
        VENUE_DATA=str(tmp_path / "data"),
        WEB_CONCURRENCY="1",
    )
    env.pop("DEBUG", None)
    return tmp_path, env, port


def start(laptop, name: str) -> deployed.Process:
    folder, env, port = laptop
    process = deployed.Process(
        name, [str(deployed.DEPLOY / "bin" / "venue")], folder=folder, env=env
    )
    process.wait_for_log("Players open:", timeout=180)

    def serving() -> bool:
        try:
            return ask("127.0.0.2", port, "GET", "/healthz/live")[0] == 200
        except OSError:
            return False

    deployed.wait_for(serving, timeout=60, what="the venue's server")
    return process


def test_a_laptop_serves_the_hall_and_keeps_the_night_across_a_restart(laptop):
    folder, _, port = laptop
    base = f"http://127.0.0.2:{port}"
    first = start(laptop, "venue-1")
    try:
        printed = first.log()
        assert f"Players open:  {base}/" in printed
        assert "Director login: director / " in printed
        assert "▀" in printed or "█" in printed  # the QR code, drawn in the terminal
        status, page = ask("127.0.0.2", port, "GET", "/")
        assert status == 200 and "Tablescore" in page
        assert ask("127.0.0.2", port, "GET", "/", host="elsewhere.example")[0] == 400
        status, body = ask(
            "127.0.0.2",
            port,
            "POST",
            "/api/games/",
            body=json.dumps(ROOLZ),
            headers={"Content-Type": "application/json"},
        )
        assert status == 201, body
        game = json.loads(body)
        status, table = ask("127.0.0.2", port, "GET", f"/t/{game['token']}/")
        assert status == 200
        assert f"{base}/t/{game['token']}/" in table  # what the table's QR code shares
        password = re.search(r"Director login: director / (\S+)", printed).group(1)
    finally:
        first.stop()

    again = start(laptop, "venue-2")
    try:
        assert "Director login: as before" in again.log()
        status, body = ask(
            "127.0.0.2",
            port,
            "GET",
            f"/api/games/{game['id']}/",
            headers={"Authorization": f"Bearer {game['token']}"},
        )
        assert status == 200 and json.loads(body)["id"] == game["id"], body
        assert ask("127.0.0.2", port, "GET", "/admin/login/")[0] == 200
        assert (folder / "data" / "director-password").read_text().strip() == password
    finally:
        again.stop()
