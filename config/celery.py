"""The Celery app. Without REDIS_URL tasks run eagerly (see settings).

Two tasks of its own prove the stack works (``/healthz``, scripts/prod_smoke.sh):
``config.ping`` writes a token to the cache when a worker runs it, and ``config.heartbeat``,
sent by beat every ``HEARTBEAT_SECONDS``, records when beat last reached a worker.
"""

import os
import time

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("risiko")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

HEARTBEAT_KEY = "celery:heartbeat"
PING_KEY = "celery:ping:{}"


@app.task(name="config.ping", ignore_result=True)
def ping(token: str) -> str:
    """Leave ``token`` in the cache: whoever enqueued it sees that a worker ran it."""
    from django.core.cache import cache

    cache.set(PING_KEY.format(token), time.time(), 300)
    return token


@app.task(name="config.heartbeat", ignore_result=True)
def heartbeat() -> float:
    """Sent by beat; the time a worker ran it is beat's and the worker's sign of life."""
    from django.core.cache import cache

    now = time.time()
    cache.set(HEARTBEAT_KEY, now, 3600)
    return now
