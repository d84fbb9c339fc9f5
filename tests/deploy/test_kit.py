"""The deploy kit says what the code does: every setting the code reads is named in
``deploy/.env.example``, the systemd units start the very commands the README and the
tests use, and Caddy accepts the Caddyfile."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess

from tests.conftest import need_service
from tests.deployed import DEPLOY, ROOT

PACKAGES = ("config", "common", "scoring", "printing", "tournaments", "deploy")
READS = re.compile(
    r"""(?:os\.environ\.get|os\.getenv|env_bool|env_list)\(\s*["']([A-Z][A-Z0-9_]*)["']"""
    r"""|os\.environ\[["']([A-Z][A-Z0-9_]*)["']\]"""
    r"""|env_rate\(\s*\(([^)]*)\)"""
)
# Read by the code, never an operator's: the suite's own switches and fault drills.
NOT_FOR_OPERATORS = {
    "DJANGO_SETTINGS_MODULE": "set by manage.py, wsgi and the Celery app themselves",
    "PYTEST_XDIST_WORKER": "the test suite's parallel workers",
    "PRINT_SHEET_DELAY": "fault drills slow each sheet",
}


# Read for the code by a library it calls.
READ_BY_LIBRARIES = {"DATABASE_URL"}  # dj_database_url.config() in config/settings.py


def settings_the_code_reads() -> set[str]:
    names: set[str] = set(READ_BY_LIBRARIES)
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for match in READS.finditer(path.read_text()):
                if match.group(3):
                    names.update(re.findall(r'"([A-Z][A-Z0-9_]*)"', match.group(3)))
                else:
                    names.add(match.group(1) or match.group(2))
    for script in (DEPLOY / "bin").iterdir():
        names.update(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", script.read_text()))
    return names


def test_the_env_example_names_every_setting_the_code_reads():
    example = (DEPLOY / ".env.example").read_text()
    named = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", example, re.MULTILINE))
    read = settings_the_code_reads()
    assert {"SECRET_KEY", "DATABASE_URL", "NUM_PROXIES", "DB_STATEMENT_TIMEOUT"} <= read
    assert read - set(NOT_FOR_OPERATORS) - named == set(), "not in deploy/.env.example"
    assert named - read == set(), "named in deploy/.env.example, read by nothing"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read(DEPLOY / "systemd" / name)
    return parser


def test_the_units_start_the_deploy_commands_and_exactly_one_beat():
    starts = {
        name: unit(name)["Service"]["ExecStart"]
        for name in (
            "tablescore-web.service",
            "tablescore-worker.service",
            "tablescore-beat.service",
            "tablescore-follow.service",
        )
    }
    assert starts["tablescore-web.service"].endswith("/deploy/bin/web")
    assert starts["tablescore-worker.service"].endswith("/deploy/bin/worker")
    assert starts["tablescore-beat.service"].endswith("/deploy/bin/beat")
    assert starts["tablescore-follow.service"].endswith("/deploy/bin/follow")
    for name in starts:
        service = unit(name)["Service"]
        assert service["EnvironmentFile"] == "/etc/tablescore/env"
        assert service["Restart"] in ("always", "on-failure")
    # Beat runs once for the site: a separate unit, and no worker runs it inside itself.
    assert "--beat" not in starts["tablescore-worker.service"]
    assert " -B" not in starts["tablescore-worker.service"]
    # The README starts the same commands.
    readme = (ROOT / "README.md").read_text()
    for command in (
        "deploy/bin/web",
        "deploy/bin/follow",
        "deploy/bin/worker",
        "deploy/bin/beat",
        "make venue",
    ):
        assert command in readme


def test_caddy_accepts_the_caddyfile_for_a_domain_and_for_a_lan():
    if shutil.which("caddy") is None:
        need_service("caddy", "not on PATH (make test installs it)")
    for extra in ({}, {"CADDY_TLS": "tls internal"}):
        env = {"TABLESCORE_SITE": "scores.example.org", "PATH": "/usr/bin:/bin", **extra}
        answer = subprocess.run(
            ["caddy", "adapt", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
            capture_output=True,
            text=True,
            env=env,
            timeout=30,
        )
        assert answer.returncode == 0, answer.stderr
        assert "scores.example.org" in answer.stdout
        assert ("internal" in answer.stdout) == bool(extra)
