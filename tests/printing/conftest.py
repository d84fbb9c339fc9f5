"""Fixtures of the printing tests: tasks run at once, or the print service is away."""

from __future__ import annotations

import pytest


def forget_broker_connections(app) -> None:
    """Drop the app's pooled broker connections, so that a later broker_url takes effect.

    Celery acquires a producer even for an eager task and keeps its pool, bound to the
    broker it saw first; other fixtures later point the app elsewhere.
    """
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@pytest.fixture
def broker_down():
    """The print service cannot be reached: the broker is a port where nothing listens."""
    from config.celery import app

    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url="redis://127.0.0.1:1/0", task_always_eager=False)
    forget_broker_connections(app)
    yield app
    app.conf.update(saved)
    forget_broker_connections(app)
