"""/healthz beyond the database and the cache: the broker, a worker and beat (config/health.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from config import health
from config.celery import HEARTBEAT_KEY, PING_KEY, app, heartbeat, ping


@pytest.fixture
def not_eager() -> Any:
    """Tasks go to a broker (as in production) for the length of the test."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = previous


@pytest.mark.django_db
def test_without_a_worker_healthz_says_so_and_strict_mode_fails(client: Any, monkeypatch: Any, not_eager: Any) -> None:
    monkeypatch.setattr(app.control, "ping", lambda **kw: [])
    response = client.get("/healthz")
    assert response.status_code == 200  # the web server itself is fine
    assert response.json()["worker"] == "no worker answered"
    assert response.json()["beat"] == "no heartbeat yet"
    assert client.get("/healthz?strict=1").status_code == 503


@pytest.mark.django_db
def test_a_worker_and_a_fresh_heartbeat_pass_strict_mode(client: Any, monkeypatch: Any, not_eager: Any) -> None:
    monkeypatch.setattr(app.control, "ping", lambda **kw: [{"celery@host": {"ok": "pong"}}])
    heartbeat.apply()  # run here, as a worker would
    response = client.get("/healthz?strict=1")
    assert response.status_code == 200, response.json()
    assert response.json()["worker"] == response.json()["beat"] == "ok"


@pytest.mark.django_db
def test_a_broken_broker_is_a_503(client: Any, monkeypatch: Any) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ModuleNotFoundError("No module named 'packaging'")

    monkeypatch.setattr(app, "connection_for_write", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"] == "error: ModuleNotFoundError"


def test_ping_and_heartbeat_leave_their_mark_in_the_cache() -> None:
    ping.delay("abc")
    assert cache.get(PING_KEY.format("abc")) is not None
    heartbeat.delay()
    assert cache.get(HEARTBEAT_KEY) is not None
    assert "heartbeat" in {e["task"].split(".")[-1] for e in app.conf.beat_schedule.values()}
    assert health.REQUIRED == ("database", "cache", "broker")
