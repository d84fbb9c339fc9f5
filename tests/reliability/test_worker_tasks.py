"""The worker as the README and the systemd unit start it (``deploy/bin/worker``) knows every
task the code defines: no task is left to the accident of an import."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from tests.deployed import ROOT

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PACKAGES = ("common", "config", "scoring", "printing", "tournaments")


def every_task_the_code_defines() -> set[str]:
    """Import every module of the project, then read the tasks Celery was told of."""
    from config.celery import app

    for package in PACKAGES:
        for module in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            if ".migrations" in module.name or module.name.endswith(".__main__"):
                continue
            importlib.import_module(module.name)
    return {name for name in app.tasks if not name.startswith("celery.")}


def test_the_deployed_worker_registers_every_task(celery_worker_app):
    defined = every_task_the_code_defines()
    # The tasks this suite knows of, so that the walk above is seen to find them.
    assert {
        "tablescore.ping",
        "scoring.render_print_job",
        "tournaments.round_generate",
        "tournaments.round_publish",
        "tournaments.ratings_game_changed",
    } <= defined
    replies = celery_worker_app.control.inspect(timeout=5).registered() or {}
    assert len(replies) == 1, replies  # the suite's one worker
    (registered,) = replies.values()
    ours = {name.split(" ")[0] for name in registered if not name.startswith("celery.")}
    assert ours == defined
