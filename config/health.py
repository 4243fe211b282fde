"""Liveness for the container healthcheck and the production smoke test.

``/healthz`` answers JSON with one entry per part of the stack:

- ``database``: a query answers;
- ``cache``: a value written to the cache reads back (Redis in production);
- ``pages``: ``ok``, or ``degraded`` while the cache is away: public pages are rendered from the
  database, without validators (no 304), and writes are saved (common/cache.py);
- ``broker``: a connection to the Celery broker opens (Redis; this imports the broker's
  transport, so a missing transport dependency shows here);
- ``worker``: a Celery worker answers a ping within a second (``eager`` when tasks run
  in-process, the embedded default);
- ``beat``: a worker ran beat's heartbeat task within the last three periods (``eager`` likewise);
- ``standings``: no tournament's stored standings miss a change older than
  ``STANDINGS_STALE_SECONDS`` (``stale: tournament 3, 7`` otherwise; the watchdog
  ``scoring.tasks.heal_standings`` recomputes them).

The status is 503 when the database, the cache or the broker fails. A stopped worker or beat, or
stale standings, are reported but keep 200 (the web server still serves, and clocks derive
expiry from the stored deadline), unless the request asks ``?strict=1``: then every entry must
be ``ok`` (or ``eager``).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse

from common import cache as shared_cache

REQUIRED = ("database", "cache", "broker")


def _error(exc: BaseException) -> str:
    return f"error: {exc.__class__.__name__}"


def _checks() -> dict[str, str]:
    from config.celery import HEARTBEAT_KEY, app

    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        checks["database"] = _error(exc)
    try:
        cache.set("healthz", "1", 5)
        checks["cache"] = "ok" if cache.get("healthz") == "1" else "error"
    except Exception as exc:  # noqa: BLE001
        checks["cache"] = _error(exc)
    away = shared_cache.away()
    if away is not None:
        checks["cache"] = f"error: Redis away for {int(away)} s"
    # what the public pages do meanwhile (common/live.py, common/cache.py)
    checks["pages"] = "ok" if checks["cache"] == "ok" else "degraded: rendered from the database, no 304"
    eager = bool(app.conf.task_always_eager)
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        checks["broker"] = "ok"
    except Exception as exc:  # noqa: BLE001 - ModuleNotFoundError included
        checks["broker"] = _error(exc)
    if eager:
        checks["worker"] = checks["beat"] = checks["standings"] = "eager"
        return checks
    try:
        replies = app.control.ping(timeout=1.0, limit=1) if checks["broker"] == "ok" else []
        checks["worker"] = "ok" if replies else "no worker answered"
    except Exception as exc:  # noqa: BLE001
        checks["worker"] = _error(exc)
    try:
        last = cache.get(HEARTBEAT_KEY)
        period = float(getattr(settings, "HEARTBEAT_SECONDS", 15))
        if last is None:
            checks["beat"] = "no heartbeat yet"
        else:
            age = time.time() - float(last)
            checks["beat"] = "ok" if age <= 3 * period else f"last heartbeat {int(age)} s ago"
    except Exception as exc:  # noqa: BLE001
        checks["beat"] = _error(exc)
    checks["standings"] = _standings_check() if checks["cache"] == "ok" else "unknown (cache away)"
    return checks


def _standings_check() -> str:
    from scoring.selectors import behind

    try:
        late = behind(older_than=float(getattr(settings, "STANDINGS_STALE_SECONDS", 90)))
    except Exception as exc:  # noqa: BLE001
        return _error(exc)
    if not late:
        return "ok"
    return "stale: tournament " + ", ".join(str(t) for t in late[:20])


def healthz(request: HttpRequest) -> JsonResponse:
    checks = _checks()
    strict = request.GET.get("strict", "") in ("1", "true", "yes")
    names = checks if strict else REQUIRED
    healthy = all(checks[n] in ("ok", "eager") for n in names)
    return JsonResponse(checks, status=200 if healthy else 503)
