"""Readiness (``/healthz``) names the part that fails and answers 503 only when pages and
score entry cannot be served; monitoring (``/healthz/monitor``) answers 503 for any failing
part; liveness (``/healthz/live``) checks nothing."""

from __future__ import annotations

import time

import pytest

from common import heartbeat

pytestmark = pytest.mark.django_db


def test_all_well_without_redis_tasks_run_in_the_request(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["failing"]) == ("ok", [])
    assert body["print_service"] == {"ok": True, "mode": "eager"}


def test_an_unreachable_broker_is_degraded_for_readiness_and_failing_for_monitoring(
    client, settings
):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    ready = client.get("/healthz")
    assert ready.status_code == 200  # pages and score entry work without the broker
    body = ready.json()
    assert body["status"] == "degraded"
    assert body["failing"] == body["degraded"] == ["broker", "print_service"]
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True and body["static"]["ok"] is True

    monitor = client.get("/healthz/monitor")
    assert monitor.status_code == 503
    assert monitor.json()["failing"] == ["broker", "print_service"]
    assert monitor.json()["status"] == "degraded"


def test_liveness_checks_no_part(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz/live")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


@pytest.mark.services
def test_the_print_service_is_named_when_its_sweep_stops_without_a_503(client, settings, redis_url):
    import redis

    settings.REDIS_URL = redis_url
    settings.PRINT_SWEEP_SECONDS = 15
    store = redis.Redis.from_url(redis_url)
    store.delete(heartbeat.SWEEP_KEY)
    response = client.get("/healthz")
    assert response.status_code == 200  # pages and score entry work without it
    body = response.json()
    assert body["failing"] == body["degraded"] == ["print_service"]
    assert client.get("/healthz/monitor").status_code == 503
    assert "deploy/bin/beat" in body["print_service"]["error"]

    heartbeat.record_sweep()  # what the sweep does, in a worker, each time beat sends it
    body = client.get("/healthz").json()
    assert (body["failing"], body["print_service"]["ok"]) == ([], True)
    assert client.get("/healthz/monitor").status_code == 200

    store.set(heartbeat.SWEEP_KEY, str(time.time() - 120))
    body = client.get("/healthz").json()
    assert body["failing"] == ["print_service"]
    assert body["print_service"]["last_sweep_seconds_ago"] >= 120
    store.delete(heartbeat.SWEEP_KEY)
    store.close()
