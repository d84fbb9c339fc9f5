"""The environment the test suite and the benchmarks run under: the production settings
read with relaxed values, so nothing in ``config/settings.py`` knows it is being tested.

``config/test_settings.py`` puts these in the environment before the settings are read;
the processes the suite starts as deployed (``tests/deployed.py``) and the benchmarks'
servers get them the same way. A value already in the environment wins.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

TEST_ENVIRONMENT: dict[str, str] = {
    # a fixed key: a server started by the suite needs one, and signs nothing that outlives it
    "SECRET_KEY": "insecure-test-key-never-use-in-production",
    "ALLOWED_HOSTS": "localhost,127.0.0.1,[::1]",
    # the suite starts thousands of games from one address
    "GAMES_RATE": "100000/h",
    "PRINT_JOBS_RATE": "100000/h",
    "WRONG_TOKENS_RATE": "100000/h",
    "SIGNUPS_RATE": "100000/h",
    # plain http on the loopback
    "SECURE_COOKIES": "0",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_HSTS_SECONDS": "0",
    # static files served as they are, with no collectstatic before a test
    "STATIC_MANIFEST": "0",
}


def apply(environ: MutableMapping[str, str] = os.environ) -> None:
    """Put the test environment into ``environ`` where nothing is set already."""
    for name, value in TEST_ENVIRONMENT.items():
        environ.setdefault(name, value)
