"""The shared cache in production: Django's Redis cache, which keeps serving when Redis is away.

Nothing the cache holds is the only copy of anything: results live in the database, standings and
pages are computed from it. So while Redis cannot be reached, a cache operation is a miss (reads)
or does nothing (writes) instead of an error, and every page is rendered from the database. What
must not be believed meanwhile is told by :func:`away`: the live pages (common/live.py) give no
validator and answer no 304 (their version numbers cannot be read), ``/healthz`` says so.

After a failure the cache is not asked again for ``CACHE_RETRY_SECONDS`` (a Redis that does not
answer would cost every request its socket timeout). The first operation that succeeds after an
outage runs the callbacks given to :func:`on_recovery` (common/live.py bumps every page's
version: changes written meanwhile could not announce themselves).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

log = logging.getLogger(__name__)


class _State:
    """This process's view of Redis: when it went away (None: reachable), how many failures and
    recoveries it has seen (a reader compares them before and after its reads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_since: float | None = None
        self.last_try = 0.0
        self.failures = 0
        self.recoveries = 0
        self.callbacks: list[Callable[[], None]] = []


_state = _State()


def away() -> float | None:
    """Seconds since Redis was found away (None: reachable, as far as this process knows)."""
    since = _state.down_since
    return None if since is None else time.monotonic() - since


def skipping() -> bool:
    """Redis was found away a moment ago: the cache is not even asked (every read is a miss)."""
    since = _state.down_since
    return since is not None and time.monotonic() - _state.last_try < _retry_seconds()


def _retry_seconds() -> float:
    return float(getattr(settings, "CACHE_RETRY_SECONDS", 1.0))


def changes() -> tuple[int, int]:
    """Failures and recoveries so far: a reader whose numbers changed during its reads may have
    read nothing (a failure) or numbers older than a change (a recovery)."""
    return _state.failures, _state.recoveries


def on_recovery(callback: Callable[[], None]) -> None:
    if callback not in _state.callbacks:
        _state.callbacks.append(callback)


def _errors() -> tuple[type[BaseException], ...]:
    import redis

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


class RedisCache(DjangoRedisCache):
    """Django's Redis cache; Redis away is a miss, not an exception (see the module's text)."""

    def _call(self, name: str, fallback: Any, *args: Any, **kwargs: Any) -> Any:
        if skipping():
            return fallback
        try:
            result = getattr(super(), name)(*args, **kwargs)
        except _errors() as exc:
            with _state.lock:
                _state.last_try = time.monotonic()
                _state.failures += 1
                if _state.down_since is None:
                    _state.down_since = _state.last_try
                    log.warning("the cache (Redis) is away: pages are rendered from the database (%s)", exc)
            return fallback
        if _state.down_since is not None:
            self._recovered()
        return result

    @staticmethod
    def _recovered() -> None:
        with _state.lock:
            if _state.down_since is None:
                return
            log.warning("the cache (Redis) is back after %.1f s", time.monotonic() - _state.down_since)
            _state.down_since = None
            _state.recoveries += 1
        for callback in list(_state.callbacks):
            try:
                callback()
            except Exception:  # noqa: BLE001 - a recovery step failing must not fail this request
                log.exception("a step after the cache came back failed")

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return bool(self._call("add", False, key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._call("get", default, key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> None:
        self._call("set", None, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return bool(self._call("touch", False, key, timeout, version))

    def delete(self, key: Any, version: Any = None) -> bool:
        return bool(self._call("delete", False, key, version))

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._call("get_many", {}, keys, version)

    def has_key(self, key: Any, version: Any = None) -> bool:
        return bool(self._call("has_key", False, key, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        # Redis away: 0, not the ValueError of a missing key (callers would add it and try again)
        return self._call("incr", 0, key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._call("set_many", [], data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._call("delete_many", None, keys, version)

    def clear(self) -> bool:
        return bool(self._call("clear", False))
