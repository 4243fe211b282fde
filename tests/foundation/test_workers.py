"""Parallel test runs keep their Redis apart (tests/workers.py): CI's run uses Redis number 1
and its production smoke stack number 2, beside the tests."""

from __future__ import annotations

from tests.workers import worker_redis_url


def test_each_worker_has_its_own_redis_number_clear_of_the_smoke_stack() -> None:
    urls = [worker_redis_url("redis://127.0.0.1:6379/1", f"gw{n}") for n in range(4)]
    assert urls == [f"redis://127.0.0.1:6379/{n}" for n in (4, 5, 6, 7)]
    assert worker_redis_url("redis://:secret@cache:6379", "gw0") == "redis://:secret@cache:6379/3"
    assert worker_redis_url("redis://127.0.0.1:6379/14", "gw1") == "redis://127.0.0.1:6379/2"  # wraps at 16
