"""Settings for the test suite: production's, read under the test environment
(config/test_env.py), plus what only the suite's own process needs."""

import os

from config import test_env

# Relaxed limits, plain http, static files as they are: read by config.settings from the
# environment, as the servers the suite starts read them (tests/deployed.py).
test_env.apply()
# Threads and live servers in the suite open many connections; each closes its own.
os.environ.setdefault("DB_CONN_MAX_AGE", "0")
os.environ.setdefault(
    "SQLITE_PATH", os.path.join(os.path.dirname(__file__), "..", "test-db.sqlite3")
)

from config.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory: threads in the concurrency tests then share one database
    # under the same locking rules as production.
    DATABASES["default"]["TEST"] = {"NAME": SQLITE_PATH.replace("test-db", "test-db-run")}  # noqa: F405

# Parallel workers ("gw0", "gw1", ...) each get a database of their own from pytest-django;
# the cache's throttle counts and the SQLite file are kept apart here (at most 6 workers).
PARALLEL_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if PARALLEL_WORKER:
    server, _, database = str(CACHES["default"].get("LOCATION", "")).rpartition("/")  # noqa: F405
    if database.isdigit():
        # A cache clear empties its whole Redis database: one database per worker, 2-7.
        CACHES["default"]["LOCATION"] = f"{server}/{2 + int(PARALLEL_WORKER[2:])}"  # noqa: F405
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
        DATABASES["default"]["TEST"] = {  # noqa: F405
            "NAME": SQLITE_PATH.replace("test-db", f"test-db-run-{PARALLEL_WORKER}")  # noqa: F405
        }
