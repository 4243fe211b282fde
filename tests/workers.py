"""Parallel test runs (pytest-xdist, ``python3 dev.py test`` uses one worker per core): each
worker gets a test database of its own from pytest-django (``test_<name>_gw0``…) and, from this
plugin, a Redis database of its own. Tests clear the cache between them and some start a real
Celery worker on the broker: two workers sharing one Redis number would empty each other's cache
and take each other's tasks. Loaded with ``-p`` (pyproject.toml) so that it runs before
pytest-django reads the settings."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis's default number of databases
SKIP = 3  # numbers past the run's own: CI gives the production smoke test the next one


def worker_redis_url(url: str, worker: str) -> str:
    """The Redis URL of xdist worker ``worker`` ("gw0", "gw1"…) for a run given ``url``."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    number = (base + SKIP + int(worker.removeprefix("gw"))) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{number}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], _worker)
