"""Settings for the test suite: the same as production reading, plus test-only defaults."""

import os

os.environ.setdefault("TABLESCORE_TESTING", "1")
os.environ.setdefault(
    "SQLITE_PATH", os.path.join(os.path.dirname(__file__), "..", "test-db.sqlite3")
)

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
