"""The processes an operator runs, started by the very commands the README and the systemd
units give (``deploy/bin/web``, ``deploy/bin/follow``, ``deploy/bin/worker``,
``deploy/bin/beat``, Caddy with ``deploy/Caddyfile``, PgBouncer with
``deploy/pgbouncer.ini``), each on a free port with a log file of its own, for the tests
that need them.
"""

from __future__ import annotations

import configparser
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from config import test_env

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent
# Settings a test's processes never inherit from the suite's own environment.
HIDDEN = ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "DB_CONN_MAX_AGE")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(check: Callable[[], Any], *, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"waited {timeout} s for {what}")


def database_url(settings_dict: Mapping[str, Any], *, port: int | None = None) -> str:
    """A database's connection settings (the test database's, once made) as a URL for
    another process; ``port`` puts something else (a pooler, a fault) in front."""
    user = urllib.parse.quote(settings_dict["USER"] or "")
    password = (
        ":" + urllib.parse.quote(settings_dict["PASSWORD"]) if settings_dict["PASSWORD"] else ""
    )
    host = settings_dict["HOST"] or "127.0.0.1"
    where = f"{host}:{port or settings_dict['PORT'] or 5432}"
    return f"postgres://{user}{password}@{where}/{settings_dict['NAME']}"


def environment(*, relaxed: bool = True, **settings: str) -> dict[str, str]:
    """The suite's environment less its services, with the production settings module and
    ``settings`` on top. ``relaxed``: the test environment's limits, plain http and static
    files as they are (config/test_env.py); without it, a site's own defaults."""
    env = {key: value for key, value in os.environ.items() if key not in HIDDEN}
    if relaxed:
        test_env.apply(env)
    else:
        for name in test_env.TEST_ENVIRONMENT:
            env.pop(name, None)
    env.update(DJANGO_SETTINGS_MODULE="config.settings", TABLESCORE_VENV=str(BIN.parent))
    env.update(settings)
    return env


class Process:
    """One started program; its output goes to ``<folder>/<name>.log``."""

    def __init__(self, name: str, command: list[str], *, folder: Path, env: Mapping[str, str]):
        self.name = name
        self.log_path = folder / f"{name}.log"
        log = open(self.log_path, "ab")  # noqa: SIM115  (kept by the process)
        self.popen = subprocess.Popen(
            command,
            cwd=ROOT,
            env=dict(env),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_for_log(self, text: str, *, timeout: float) -> None:
        def seen() -> bool:
            if not self.alive():
                raise AssertionError(f"{self.name} stopped:\n{self.log()[-3000:]}")
            return text in self.log()

        wait_for(seen, timeout=timeout, what=f"{self.name} to say {text!r}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Signal the whole process group (a worker's pool, gunicorn's workers) and reap it."""
        if self.popen.poll() is not None:
            return
        try:
            os.killpg(self.popen.pid, sig)
        except ProcessLookupError:
            return
        try:
            self.popen.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=20)


def web(
    folder: Path,
    env: Mapping[str, str],
    *,
    port: int,
    workers: int = 2,
    threads: int = 4,
    name: str = "web",
) -> Process:
    """gunicorn as ``deploy/bin/web`` starts it, on 127.0.0.1:``port``; not waited for."""
    settings = {
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(workers),
        "WEB_THREADS": str(threads),
        "WEB_TIMEOUT": "60",
    }
    return Process(name, [str(DEPLOY / "bin" / "web")], folder=folder, env={**env, **settings})


def follow(
    folder: Path, env: Mapping[str, str], *, port: int, upstream: int, name: str = "follow"
) -> Process:
    """The follow process as ``deploy/bin/follow`` starts it, on 127.0.0.1:``port``, asking
    the web server on ``upstream``; waited for until it listens."""
    settings = {"FOLLOW_BIND": f"127.0.0.1:{port}", "FOLLOW_UPSTREAM": f"127.0.0.1:{upstream}"}
    command = [str(DEPLOY / "bin" / "follow")]
    process = Process(name, command, folder=folder, env={**env, **settings})
    process.wait_for_log("answering polls", timeout=90)
    return process


def worker(folder: Path, env: Mapping[str, str], *options: str, name: str = "worker") -> Process:
    """A Celery worker as ``deploy/bin/worker`` starts it, waited for until it is ready."""
    process = Process(name, [str(DEPLOY / "bin" / "worker"), *options], folder=folder, env=env)
    process.wait_for_log(" ready.", timeout=90)
    return process


def venue(folder: Path, env: Mapping[str, str], *, name: str = "venue") -> Process:
    """A club night from a laptop, as ``make venue`` (``deploy/bin/venue``) starts it."""
    return Process(name, [str(DEPLOY / "bin" / "venue")], folder=folder, env=env)


def beat(folder: Path, env: Mapping[str, str]) -> Process:
    schedule = {"BEAT_SCHEDULE": str(folder / "beat-schedule")}
    return Process("beat", [str(DEPLOY / "bin" / "beat")], folder=folder, env={**env, **schedule})


def redis_server(folder: Path, port: int) -> Process:
    import redis

    process = Process(
        "redis",
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        folder=folder,
        env=os.environ,
    )
    client = redis.Redis(port=port, socket_connect_timeout=1)

    def answers() -> bool:
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False

    wait_for(answers, timeout=20, what="Redis")
    client.close()
    return process


def caddy(
    folder: Path, *, site: str, https_port: int, upstream: str, follow: str | None = None
) -> Process:
    """Caddy with ``deploy/Caddyfile``, ``tls internal``, its data (and local CA) in
    ``folder``; waited for until it serves. The polls go to ``follow`` (the follow
    process's address), or with none to ``upstream`` as everything else."""
    env = {
        **os.environ,
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "TABLESCORE_SITE": f"{site}:{https_port}",
        "TABLESCORE_UPSTREAM": upstream,
        "TABLESCORE_FOLLOW": follow or upstream,
        "CADDY_TLS": "tls internal",
        "CADDY_ADMIN": "off",
        "CADDY_HTTP_PORT": str(free_port()),
        "CADDY_HTTPS_PORT": str(https_port),
        "CADDY_GLOBAL": "skip_install_trust",
    }
    process = Process(
        "caddy",
        ["caddy", "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        folder=folder,
        env=env,
    )
    wait_for(lambda: caddy_root(folder).exists(), timeout=30, what="Caddy's local CA")
    process.wait_for_log("serving initial configuration", timeout=30)
    return process


def caddy_root(folder: Path) -> Path:
    """The root certificate of the local CA that Caddy made for ``tls internal``."""
    return folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"


def pgbouncer(port: int, *, upstream_host: str, upstream_port: int, user: str) -> Process:
    """PgBouncer with ``deploy/pgbouncer.ini`` (transaction pooling) on ``port``, in front of
    every database of the PostgreSQL at ``upstream_host:upstream_port``. Its folder is one
    of its own that the ``postgres`` account can read: run as root, PgBouncer is started as
    that account (it refuses to run as root)."""
    folder = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
    config = configparser.ConfigParser()
    config.read(DEPLOY / "pgbouncer.ini")
    config["databases"] = {"*": f"host={upstream_host} port={upstream_port}"}
    (folder / "userlist.txt").write_text(f'"{user}" ""\n')
    config["pgbouncer"].update(
        listen_addr="127.0.0.1",
        listen_port=str(port),
        auth_type="trust",
        auth_file=str(folder / "userlist.txt"),
        unix_socket_dir="",
        pidfile=str(folder / "pgbouncer.pid"),
        logfile="",  # its output goes to the process log
    )
    with open(folder / "pgbouncer.ini", "w") as written:
        config.write(written)
    command = ["pgbouncer", str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        folder.chmod(0o755)
        command[1:1] = ["-u", "postgres"]
    process = Process("pgbouncer", command, folder=folder, env=os.environ)

    def listening() -> bool:
        if not process.alive():
            raise AssertionError("PgBouncer stopped:\n" + process.log())
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    wait_for(listening, timeout=20, what="PgBouncer")
    return process


def missing_programs(names: Iterable[str]) -> list[str]:
    return [name for name in names if shutil.which(name) is None]
