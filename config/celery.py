"""The Celery app. Without REDIS_URL tasks run eagerly (see settings).

The apps never import this module (config is wiring, above every app): a task is declared with
``celery.shared_task`` and queued or inspected through ``celery.current_app``
(``current_app.tasks["scoring.tasks.recompute_standings"].delay(...)``,
``current_app.conf.task_always_eager``). This app is made the default of every thread
(``set_default``), so ``current_app`` is it in a gunicorn thread or a test's thread too, not
Celery's unconfigured fallback.

Two tasks of its own prove the stack works (``/healthz``, scripts/prod_smoke.sh):
``config.ping`` writes a token to the cache when a worker runs it, and ``config.heartbeat``,
sent by beat every ``HEARTBEAT_SECONDS``, records when beat last reached a worker.
"""

import os
import time

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("risiko")
app.set_default()  # current_app in every thread (the apps' one way to reach it), not only this one
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
