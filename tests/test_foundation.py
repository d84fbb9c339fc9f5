"""The house itself: settings from the environment, health, a real worker.

The shape of the code (pure cores, no import cycles) is checked in test_architecture.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from config.test_env import TEST_ENVIRONMENT
from tests.conftest import REQUIRE_SERVICES

ROOT = Path(__file__).resolve().parent.parent

TEST_ONLY_VARIABLES = {
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    *TEST_ENVIRONMENT,
}


def child_env(**values: str) -> dict[str, str]:
    """This process's environment without the suite's own switches, plus ``values``."""
    env = {k: v for k, v in os.environ.items() if k not in TEST_ONLY_VARIABLES}
    env.update(values)
    return env


def run_python(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def run_settings(env: dict[str, str], expression: str):
    """Evaluate an expression over fresh settings in a child process with ``env``."""
    code = f"import config.settings as s, json; print(json.dumps({expression}))"
    done = run_python(["-c", code], child_env(**env))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_defaults_are_sqlite_and_eager_celery():
    result = run_settings(
        {"DEBUG": "1"}, "[s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER]"
    )
    assert result == ["django.db.backends.sqlite3", True]


def test_environment_switches_to_postgres_and_redis():
    result = run_settings(
        {
            "DEBUG": "1",
            "DATABASE_URL": "postgres://u@db.example:5433/x",
            "REDIS_URL": "redis://r:6379/2",
        },
        "[s.DATABASES['default']['ENGINE'], s.DATABASES['default']['PORT'],"
        " s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL]",
    )
    assert result == ["config.postgresql", 5433, False, "redis://r:6379/2"]


def test_production_refuses_to_start_without_a_secret_key():
    done = run_python(["-c", "import config.settings"], child_env())
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


def test_production_settings_pass_the_deploy_check():
    env = child_env(
        SECRET_KEY="x" * 20 + "a-long-random-production-secret-9f8e7d6c5b4a",
        ALLOWED_HOSTS="scores.example.org",
    )
    done = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    # Without a worker running the print sweep, the print service is named as degraded.
    assert body["status"] == ("degraded" if body["failing"] else "ok")
    assert set(body["failing"]) <= {"print_service"}
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True


@pytest.mark.django_db
def test_healthz_stays_ready_when_the_broker_is_down_and_monitoring_says_503(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"]["ok"] is False
    assert client.get("/healthz/monitor").status_code == 503


def test_database_is_postgres_when_services_are_required():
    if not REQUIRE_SERVICES:
        pytest.skip("the suite runs on the SQLite default here")
    assert connection.vendor == "postgresql"


def test_celery_round_trip_through_a_real_worker(celery_worker_app):
    from config.celery import ping

    result = ping.delay({"table": 7, "names": ["Zoë", "Łukasz"]})
    assert result.get(timeout=20) == {"pong": {"table": 7, "names": ["Zoë", "Łukasz"]}}


@pytest.mark.django_db
def test_home_page_says_what_tablescore_is(client):
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Tablescore" in text
    assert "htmx" in text  # django-htmx's bundled script is on every page
    assert 'name="viewport"' in text


@pytest.mark.django_db
def test_web_app_manifest_points_at_real_icons(client):
    from django.contrib.staticfiles import finders

    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


@pytest.mark.django_db
def test_healthz_is_503_while_static_files_are_not_collected(client, settings, tmp_path):
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    static = response.json()["static"]
    assert static["ok"] is False
    assert "collectstatic" in static["error"]
    assert static["missing"], "the answer names files that are missing"

    call_command("collectstatic", interactive=False, verbosity=0)
    settings.STATIC_ROOT = tmp_path / "static"  # a fresh storage reads the new manifest
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["static"] == {"ok": True, "mode": "manifest"}


def test_postgres_connections_are_kept_between_requests():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; "
        "from django.conf import settings; d=settings.DATABASES['default']; "
        "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    )
    env = {"PATH": os.environ["PATH"], "DEBUG": "1", "DATABASE_URL": "postgres://u@127.0.0.1/x"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["600", "True"]
