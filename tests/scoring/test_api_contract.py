"""The OpenAPI document says exactly what the server accepts: schemathesis finds nothing.

gunicorn serves the test database and schemathesis runs every check (``--checks all``)
over every phase, stateful links from a new game included, with a fixed seed so that a
run can be replayed. The operations on a game need its token, which a link cannot carry:
they answer the documented 404, and schemathesis only warns that it could not go deeper.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import need_service
from tests.reliability.live import Server, the_test_database_url

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CONFIG = Path(__file__).with_name("schemathesis.toml")
SEED = 20261124
EXAMPLES = 12  # per operation and phase: the boundaries come from the coverage phase


@pytest.fixture
def server(tmp_path):
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "gunicorn shares the test database")
    web = Server(tmp_path, database_url=the_test_database_url(), workers=2).start()
    try:
        yield web
    finally:
        web.stop()
        connection.close()


def test_schemathesis_finds_no_failure_with_every_check(server, tmp_path):
    junit = tmp_path / "schemathesis.xml"
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "schemathesis"),
            "--config-file",
            str(CONFIG),
            "run",
            f"http://127.0.0.1:{server.port}/api/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            str(EXAMPLES),
            "--seed",
            str(SEED),
            "--generation-database",
            "none",
            "--report",
            "junit",
            "--report-junit-path",
            str(junit),
            "--no-color",
        ],
        cwd=tmp_path,  # schemathesis keeps a folder of its own where it runs
        capture_output=True,
        text=True,
        timeout=900,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-8000:]
    assert "Tested: 13" in output, output[
        -3000:
    ]  # the games' 7, a player's own link 4, the sign-up's 2
    for phase in ("Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in output, output[-3000:]
    assert "<failure" not in junit.read_text()
