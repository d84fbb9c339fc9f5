"""PgBouncer in transaction mode in front of PostgreSQL, as a large site runs it
(``deploy/pgbouncer.ini``, ``DB_PREPARED_STATEMENTS=0``): round entry, the races of many
phones and the fault drills pass through it.

The suite's own runs of those tests are repeated here in a child run whose database is
reached through a PgBouncer of this test's own; every server the drills start (gunicorn,
the worker, beat) reaches it the same way.
"""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from tests import deployed
from tests.conftest import need_service

pytestmark = [pytest.mark.services]

# Left out: the SQLite child run, the two drills whose database is another address (one
# not there, one silent), and the check that gunicorn keeps its own connections between
# requests (behind PgBouncer the kept connections are PgBouncer's).
LEFT_OUT = (
    "not sqlite_default and not that_is_down and not accepts_and_never_answers"
    " and not dropped_database_connection_is_replaced"
)
THROUGH_IT = [
    "tests/scoring/test_concurrency.py",
    "tests/reliability/test_database_faults.py",
    "tests/reliability/test_faults.py",
]


def test_round_entry_races_and_fault_drills_pass_through_pgbouncer():
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "PgBouncer stands in front of PostgreSQL")
    if deployed.missing_programs(["pgbouncer", "redis-server"]):
        need_service("pgbouncer", "not on PATH (make test installs it)")
    db = connection.settings_dict
    host, port, user = db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432), db["USER"] or "postgres"
    bouncer_port = deployed.free_port()
    bouncer = deployed.pgbouncer(bouncer_port, upstream_host=host, upstream_port=port, user=user)
    name = f"tablescore_bouncer_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")
    }
    env.update(
        DATABASE_URL=f"postgres://{user}@127.0.0.1:{bouncer_port}/{name}",
        DB_PREPARED_STATEMENTS="0",
        DB_CONN_MAX_AGE="0",
    )
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:xdist",
                "--reuse-db",
                *THROUGH_IT,
                "-k",
                LEFT_OUT,
            ],
            cwd=deployed.ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
    finally:
        bouncer.stop()
        # The test database the child made, dropped past PgBouncer's pooled connections.
        with psycopg.connect(
            host=host, port=port, user=user, dbname="postgres", autocommit=True
        ) as direct:
            direct.execute(f'DROP DATABASE IF EXISTS "test_{name}" WITH (FORCE)')
    summary = done.stdout[-3000:] + done.stderr[-2000:]
    assert done.returncode == 0, summary
    assert " passed" in done.stdout and "skipped" not in done.stdout.splitlines()[-1], summary
