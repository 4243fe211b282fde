"""Redis away (common/cache.py): every cache operation is a miss instead of an error, the public
pages are rendered from the database without a validator (no 304 can be wrong), and the first
operation that succeeds afterwards gives every page a new validator. (The same on the real
stack, a private redis-server killed and started again: tests/hardening/test_faults.py.)"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.test import override_settings

from common import cache as shared_cache
from common import live
from tests.factories import scoring as f


def _dead_redis() -> str:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{s.getsockname()[1]}/0"


@pytest.fixture
def redis_away() -> Iterator[None]:
    state = shared_cache._state
    saved = (state.down_since, state.last_try, state.failures, state.recoveries)
    with override_settings(CACHES={"default": {"BACKEND": "common.cache.RedisCache", "LOCATION": _dead_redis(),
                                               "OPTIONS": {"socket_connect_timeout": 0.5}}},
                           LIVE_CACHE=True):
        live._local.clear()
        yield
    state.down_since, state.last_try, state.failures, state.recoveries = saved
    live._local.clear()


def test_every_operation_is_a_miss_and_the_process_knows_redis_is_away(redis_away: None) -> None:
    assert shared_cache.away() is None
    assert cache.get("k", "default") == "default"
    assert shared_cache.away() is not None and shared_cache.skipping()
    cache.set("k", 1)
    assert cache.add("k", 1) is False and cache.get_many(["k"]) == {} and cache.incr("k") == 0
    with pytest.raises(live.CacheAway):
        live.versions("any")


def test_the_first_success_after_an_outage_bumps_every_page(redis_away: None, monkeypatch: Any) -> None:
    cache.get("k")
    assert shared_cache.away() is not None
    bumped: list[str] = []
    monkeypatch.setattr(live, "_incr", bumped.append)
    monkeypatch.setattr(DjangoRedisCache, "get", lambda self, key, default=None, version=None: "back")
    shared_cache._state.last_try = 0.0  # the retry pause is over
    assert cache.get("k") == "back"
    assert shared_cache.away() is None
    assert bumped == [live.SITE_KEY]  # the site version is in every page's validator


@pytest.mark.django_db
def test_public_pages_render_from_the_database_without_a_validator(client: Any, redis_away: None) -> None:
    t = f.ScoringTournamentFactory()
    f.players(t, 3)
    for path in (f"/t/{t.slug}/standings/", f"/api/scoring/tournaments/{t.slug}/standings/"):
        response = client.get(path)
        assert response.status_code == 200
        assert not response.has_header("ETag")
    health = client.get("/healthz").json()
    assert health["cache"].startswith("error: Redis away") and health["pages"].startswith("degraded")
