"""A REAL Celery worker on Redis marks a table's time as expired without anyone loading a page,
and a deadline missed while the worker was stopped is caught when it starts again (the sweep).

Needs PostgreSQL and Redis (``DATABASE_URL``, ``REDIS_URL``; CI sets both). The worker runs as a
subprocess against the TEST database, so the rows must be committed (``transaction=True``).
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from tables import clocks
from tables.models import ClockEvent, Table, TurnEvent
from tests.tables.test_clocks import make_table, make_tournament

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker():
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL (a real worker)")
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    from config.celery import app

    assert not app.conf.task_always_eager, "a real worker needs CELERY_TASK_ALWAYS_EAGER off"
    url = urlsplit(os.environ["DATABASE_URL"])
    test_db_url = urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))
    env = {**os.environ, "DATABASE_URL": test_db_url, "CELERY_TASK_ALWAYS_EAGER": "false",
           "SECRET_KEY": settings.SECRET_KEY, "CONN_MAX_AGE": "0", "CI": ""}
    procs: list[subprocess.Popen] = []
    logs: list[Path] = []

    class Worker:
        def start(self) -> None:
            log = Path(tempfile.mkstemp(prefix="celery-worker-", suffix=".log")[1])
            logs.append(log)
            proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                 "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO",
                 "-n", f"b2-test-{os.getpid()}@%h"],
                cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
            )
            procs.append(proc)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if "ready." in log.read_text():
                    return
                if proc.poll() is not None:
                    break
                time.sleep(0.2)
            pytest.fail("the Celery worker did not start:\n" + log.read_text()[-3000:])

        def stop(self) -> None:
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
                    try:
                        proc.wait(timeout=15)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()

        def log(self) -> str:
            return "\n".join(p.read_text()[-2000:] for p in logs)

    w = Worker()
    yield w
    w.stop()
    for log in logs:
        log.unlink(missing_ok=True)


def wait_marked(table: Table, seconds: float, worker) -> Table:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        fresh = Table.objects.get(pk=table.pk)  # a plain read: nothing derived, nothing marked
        if fresh.expired_marked_at is not None:
            return fresh
        time.sleep(0.25)
    pytest.fail(f"table {table.pk} was not marked within {seconds} s; worker log:\n{worker.log()}")


def test_the_worker_marks_the_deadline_without_anyone_loading_a_page(worker):
    worker.start()
    table = make_table(make_tournament(overrides={"extra": {"time_limit_seconds": 3}}))
    clocks.start_clock(table, actor=None)  # schedules tables.tasks.expire_table at the deadline
    assert Table.objects.get(pk=table.pk).expired_marked_at is None
    marked = wait_marked(table, 20, worker)
    assert marked.status == Table.Status.TIME_EXPIRED
    assert marked.expired_marked_at >= marked.deadline
    assert marked.closure_state["phase"] == "finish"
    assert ClockEvent.objects.filter(table=table, kind=ClockEvent.Kind.EXPIRE).count() == 1
    assert TurnEvent.objects.filter(table=table, kind=TurnEvent.Kind.TIME_EXPIRED).count() == 1


def test_a_deadline_missed_while_the_worker_was_stopped_is_caught_after_restart(worker):
    tournament = make_tournament(overrides={"extra": {"time_limit_seconds": 2}})
    # a table whose expiry task was lost altogether (e.g. the broker was wiped): only the
    # stored deadline says that time is up
    lost = make_table(tournament, number=1)
    past = timezone.now() - dt.timedelta(minutes=5)
    Table.objects.filter(pk=lost.pk).update(clock_started_at=past, deadline=past + dt.timedelta(seconds=2),
                                            status=Table.Status.RUNNING)
    # a table whose task was queued while no worker was running
    queued = make_table(tournament, number=2)
    clocks.start_clock(queued, actor=None)
    time.sleep(2.5)
    assert Table.objects.filter(expired_marked_at__isnull=False).count() == 0

    worker.start()
    for table in (lost, queued):
        marked = wait_marked(table, 20, worker)
        assert marked.status == Table.Status.TIME_EXPIRED
    time.sleep(1)  # let a late duplicate (task after sweep) run: it must not mark twice
    for table in (lost, queued):
        assert ClockEvent.objects.filter(table=table, kind=ClockEvent.Kind.EXPIRE).count() == 1
        assert TurnEvent.objects.filter(table=table, kind=TurnEvent.Kind.TIME_EXPIRED).count() == 1
