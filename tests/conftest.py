"""Shared fixtures: the real services (or a clear skip, or under REQUIRE_SERVICES a failure)."""

from __future__ import annotations

import os

import pytest
from django.db import connection
from hypothesis import settings as hypothesis_settings

# Speed is measured in the benchmarks, never in tests: no property fails for taking long on
# a busy machine.
hypothesis_settings.register_profile("tablescore", deadline=None)
hypothesis_settings.load_profile("tablescore")

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def need_service(name: str, reason: str) -> None:
    """Skip a test whose service is absent, or fail it when the run requires services."""
    message = f"{name} is not available: {reason}"
    if REQUIRE_SERVICES:
        pytest.fail(message + " (REQUIRE_SERVICES=1)")
    pytest.skip(message)


# What marks a test "services" (``make test-fast`` leaves those out, with the browser's):
# a fixture of the real services, or its folder (the deployed processes: gunicorn, workers,
# Redis, Caddy, PgBouncer started as an operator starts them).
SERVICE_FIXTURES = frozenset(
    {"postgres", "redis_url", "celery_worker_app", "celery_worker_in_process"}
)
SERVICE_FOLDERS = frozenset({"reliability"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        uses = set(getattr(item, "fixturenames", ()))
        if uses & SERVICE_FIXTURES or SERVICE_FOLDERS & set(item.path.parts):
            item.add_marker(pytest.mark.services)


@pytest.fixture
def postgres():
    """Marks a test that must run on PostgreSQL (concurrency, locking)."""
    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "DATABASE_URL does not point at PostgreSQL")


def suite_redis_database(worker: str) -> int:
    """Database 13 for a run in one process; with parallel workers ("gw0", "gw1", ...) one
    database each from 8 up, so that no worker flushes another's queue."""
    if not worker:
        return 13
    number = int(worker.removeprefix("gw"))
    if number > 5:
        raise pytest.UsageError("at most 6 parallel workers (Redis databases 8-13 are theirs)")
    return 8 + number


@pytest.fixture(scope="session")
def redis_url() -> str:
    """A Redis database of the suite's own, so no other worker takes its tasks."""
    base = os.environ.get("REDIS_URL", "")
    if not base:
        need_service("Redis", "REDIS_URL is not set")
    import redis

    db = suite_redis_database(os.environ.get("PYTEST_XDIST_WORKER", ""))
    url = f"{base.rsplit('/', 1)[0]}/{db}" if base.count("/") >= 3 else f"{base.rstrip('/')}/{db}"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.flushdb()
        client.close()
    except redis.RedisError as error:
        need_service("Redis", str(error))
    return url


@pytest.fixture(scope="session")
def celery_worker_app(redis_url, django_db_setup, django_db_blocker, tmp_path_factory):
    """A Celery worker started as the README and the systemd unit start it
    (``deploy/bin/worker``), on the suite's Redis database and the test database; the
    project's Celery app here sends to it. Tests see its work in the database."""
    from django.conf import settings
    from django.db import connection

    from config.celery import app
    from tests import deployed

    if connection.vendor != "postgresql":
        need_service("PostgreSQL", "the worker shares the test database with the suite")
    folder = tmp_path_factory.mktemp("worker")
    env = deployed.environment(
        DATABASE_URL=deployed.database_url(connection.settings_dict),
        REDIS_URL=redis_url,
        CACHE_URL=str(settings.CACHES["default"].get("LOCATION", "")),
        DB_CONN_MAX_AGE="0",  # no connection kept between tasks: the test database can go
        WORKER_CONCURRENCY="1",
    )
    saved = {key: app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    app.conf.update(broker_url=redis_url, result_backend=redis_url, task_always_eager=False)
    drop_broker_connections(app)
    with django_db_blocker.unblock():
        worker = deployed.worker(folder, env, "--without-mingle", "--without-gossip")
    try:
        yield app
    finally:
        worker.stop()
        app.conf.update(saved)
        drop_broker_connections(app)


@pytest.fixture
def celery_worker_in_process(tmp_path):
    """A real worker inside the test process, on a Redis server of its own, for the few
    tests that put a fault inside a task (monkeypatched in this process); every other test
    uses ``celery_worker_app``, the worker as deployed."""
    import shutil

    import celery.contrib.testing.tasks  # noqa: F401  (registers the worker's ping task)
    from celery.contrib.testing.worker import start_worker

    from config.celery import app
    from tests import deployed

    if shutil.which("redis-server") is None:
        need_service("redis-server", "not on PATH")
    port = deployed.free_port()
    server = deployed.redis_server(tmp_path, port)
    url = f"redis://127.0.0.1:{port}/0"
    saved = {key: app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    drop_broker_connections(app)
    try:
        with start_worker(
            app, pool="solo", concurrency=1, perform_ping_check=True, shutdown_timeout=10
        ):
            yield app
    finally:
        app.conf.update(saved)
        drop_broker_connections(app)
        server.stop()


def drop_broker_connections(app) -> None:
    """Forget pooled broker connections and the result backend, so that the next send and
    the next result wait use the broker and backend now configured."""
    app._pool = None
    app.amqp._producer_pool = None
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


@pytest.fixture
def eager_celery():
    """Tasks run at once in this process, as under ``make run`` (whatever REDIS_URL says)."""
    from config.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = saved
    drop_broker_connections(app)


@pytest.fixture
def broker_down():
    """Celery cannot reach its broker: the broker is a port where nothing listens."""
    from config.celery import app

    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url="redis://127.0.0.1:1/0", task_always_eager=False)
    drop_broker_connections(app)
    yield app
    app.conf.update(saved)
    drop_broker_connections(app)
