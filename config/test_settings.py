"""Settings for the test suite: the same as production reading, plus test-only defaults."""

import os

os.environ.setdefault("TABLESCORE_TESTING", "1")
# Threads and live servers in the suite open many connections; each closes its own.
os.environ.setdefault("DB_CONN_MAX_AGE", "0")
os.environ.setdefault(
    "SQLITE_PATH", os.path.join(os.path.dirname(__file__), "..", "test-db.sqlite3")
)

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory: threads in the concurrency tests then share one database
    # under the same locking rules as production.
    DATABASES["default"]["TEST"] = {"NAME": SQLITE_PATH.replace("test-db", "test-db-run")}  # noqa: F405
