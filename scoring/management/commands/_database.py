"""The embedded database, made ready for commands a new user runs on a fresh checkout."""

from __future__ import annotations

from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def ensure_embedded_database() -> None:
    """Create or update the tables of the embedded SQLite database when they are behind.

    ``importgame`` and ``exportgame`` then work on a fresh checkout without a separate
    ``migrate``; another database (DATABASE_URL) is left to its own deployment.
    """
    if connection.vendor != "sqlite":
        return
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        call_command("migrate", interactive=False, verbosity=0)
