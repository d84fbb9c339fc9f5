"""``/healthz`` names the part that fails, and tells pages' needs from the print service's."""

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


def test_an_unreachable_broker_is_named_and_makes_the_service_unavailable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["failing"] == ["broker", "print_service"]
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True and body["static"]["ok"] is True


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
    assert body["failing"] == ["print_service"]
    assert "celery -A config worker -B" in body["print_service"]["error"]

    heartbeat.record_sweep()  # what the sweep does, in a worker, each time beat sends it
    body = client.get("/healthz").json()
    assert (body["failing"], body["print_service"]["ok"]) == ([], True)

    store.set(heartbeat.SWEEP_KEY, str(time.time() - 120))
    body = client.get("/healthz").json()
    assert body["failing"] == ["print_service"]
    assert body["print_service"]["last_sweep_seconds_ago"] >= 120
    store.delete(heartbeat.SWEEP_KEY)
    store.close()
