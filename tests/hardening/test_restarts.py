"""Restarts: the web process killed (SIGKILL) in the middle of a result entry leaves
nothing half saved. (The Celery worker and beat side — deadlines that pass while they are down
are marked once after the restart — is tests/tables/test_worker.py plus
``test_worker_and_beat_killed_while_clocks_run`` below.)

A real gunicorn serves the TEST database (PostgreSQL, committed rows). To stop the request at
the worst moment, the test holds an exclusive lock on the audit log: the server's transaction
has already inserted the new result version and then waits to write its audit entry; the
server is killed right there.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from scoring.models import ResultSubmission
from scoring.selectors import table_state
from tables.models import Table
from tests.factories.scoring import board_data, expire_clock
from tests.gunicorn import Gunicorn
from tournaments import demo
from tournaments.models import AuditEntry, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def _test_db_url() -> str:
    url = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))


@pytest.fixture
def demo_committed(transactional_db: Any) -> Tournament:
    if not os.environ.get("DATABASE_URL") or connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): a separate server process shares the DB")
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    # The tests hash passwords with MD5 (conftest.py); the server process, with production
    # settings, knows only the real hasher: the referee it authenticates gets a real hash.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        referee = get_user_model().objects.get(username=demo.REFEREE[0])
        referee.set_password(demo.REFEREE[1])
        referee.save(update_fields=["password"])
    return Tournament.objects.get(slug="demo")


class Server(Gunicorn):
    """The web process on the TEST database (known once the test has its database)."""

    def __init__(self) -> None:
        super().__init__("", start_timeout=30)

    def start(self) -> None:
        self.database_url = _test_db_url()
        super().start()

    def post(self, path: str, body: dict[str, Any]) -> int:
        auth = base64.b64encode(f"{demo.REFEREE[0]}:{demo.REFEREE[1]}".encode()).decode()
        request = urllib.request.Request(
            f"{self.url}{path}", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Basic {auth}"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)


@pytest.fixture
def server() -> Any:
    s = Server()
    yield s
    s.kill()


def _blocked_on_audit(db_url: str) -> bool:
    with psycopg.connect(db_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query ILIKE 'INSERT INTO \"tournaments_auditentry\"%%'").fetchone()
    return bool(row and row[0])


def test_killing_the_web_process_mid_entry_saves_nothing(demo_committed: Tournament, server: Any) -> None:
    table = Table.objects.filter(game__tournament=demo_committed, game__number=2).order_by("number")[0]
    expire_clock(table)  # a sdadata ending comes after the time is up (E-SDADATA)
    seats = list(table.seats.order_by("number"))
    version = table_state(table).version
    body = {"kind": "board", "version": version, "ended_by": "sdadata",
            **board_data([s.objective for s in seats])}
    path = f"/api/scoring/tables/{table.pk}/results/"
    results_before = ResultSubmission.objects.filter(table=table).count()
    audit_before = AuditEntry.objects.count()
    server.start()
    db_url = _test_db_url()
    outcome: list[Any] = []
    with psycopg.connect(db_url) as locker:
        locker.execute("LOCK TABLE tournaments_auditentry IN EXCLUSIVE MODE")
        thread = threading.Thread(target=lambda: outcome.append(_safe_post(server, path, body)))
        thread.start()
        deadline = time.monotonic() + 30
        while not _blocked_on_audit(db_url):
            assert time.monotonic() < deadline, "the request never reached the audit insert"
            time.sleep(0.1)
        server.kill()  # SIGKILL while its transaction holds the new, uncommitted result version
        locker.rollback()
    thread.join(timeout=30)
    assert outcome and not isinstance(outcome[0], int), outcome  # the client saw no answer
    # The server's backend notices its client is gone and rolls back.
    deadline = time.monotonic() + 30
    while _blocked_on_audit(db_url) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    assert ResultSubmission.objects.filter(table=table).count() == results_before
    assert AuditEntry.objects.count() == audit_before
    assert table_state(table).version == version
    # After a restart the same entry goes through, once.
    server.start()
    assert server.post(path, body) == 201
    assert ResultSubmission.objects.filter(table=table).count() == results_before + 1


def _safe_post(server: Any, path: str, body: dict[str, Any]) -> Any:
    try:
        return server.post(path, body)
    except Exception as exc:  # noqa: BLE001 - the connection dies with the server
        return exc


# --- Celery worker and beat killed while clocks run ---------------------------------------------
def _celery(kind: str, log: Path, env: dict[str, str], tmp: Path) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "celery", "-A", "config"]
    if kind == "worker":
        args += ["worker", "--concurrency=2", "--without-gossip", "--without-mingle",
                 "--without-heartbeat", "-l", "INFO", "-n", f"e-hardening-{os.getpid()}@%h"]
    else:
        args += ["beat", "-l", "INFO", "-s", str(tmp / "beat-schedule"), "--max-interval", "1"]
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=log.open("a"),
                            stderr=subprocess.STDOUT, start_new_session=True)


@pytest.mark.celery_worker
@pytest.mark.redis
def test_worker_and_beat_killed_while_clocks_run(transactional_db: Any, tmp_path: Path) -> None:
    """SIGKILL (no clean shutdown) of the worker — holding the clocks' scheduled expiry tasks —
    and of beat, before the deadlines; the deadlines pass while both are down; after the restart
    every passed deadline is marked exactly once, and new clocks keep working."""
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL") or (
            connection.vendor != "postgresql"):
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL (a real worker)")
    from config.celery import app
    from tables import clocks
    from tables.models import ClockEvent, TurnEvent
    from tests.tables.test_clocks import make_table, make_tournament

    # marked celery_worker: the root conftest leaves the real setting (off, with REDIS_URL) alone
    assert not app.conf.task_always_eager, "a real worker needs CELERY_TASK_ALWAYS_EAGER off"
    env = {**os.environ, "DATABASE_URL": _test_db_url(), "CELERY_TASK_ALWAYS_EAGER": "false",
           "SECRET_KEY": settings.SECRET_KEY, "CONN_MAX_AGE": "0", "CI": ""}
    log = tmp_path / "celery.log"
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        procs.append(_celery("worker", log, env, tmp_path))
        procs.append(_celery("beat", log, env, tmp_path))
        deadline = time.monotonic() + 40
        while "ready." not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "ready." in log.read_text(), log.read_text()[-3000:]

    def kill_all() -> None:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)

    def marked(tables: list[Table]) -> int:
        return Table.objects.filter(pk__in=[t.pk for t in tables],
                                    expired_marked_at__isnull=False).count()

    try:
        start()
        tournament = make_tournament(overrides={"extra": {"time_limit_seconds": 4}})
        tables = [make_table(tournament, number=i) for i in range(1, 5)]
        for t in tables:
            clocks.start_clock(t, actor=None)  # the worker now holds 4 expiry tasks (ETA)
        time.sleep(1.5)
        kill_all()
        log.write_text(log.read_text().replace("ready.", "was ready"))
        time.sleep(4)  # every deadline passes while nothing runs
        assert marked(tables) == 0
        start()
        deadline = time.monotonic() + 30
        while marked(tables) < len(tables) and time.monotonic() < deadline:
            time.sleep(0.25)
        assert marked(tables) == len(tables), log.read_text()[-3000:]
        # new clocks after the restart are marked by the running worker
        later = make_table(tournament, number=9)
        clocks.start_clock(later, actor=None)
        deadline = time.monotonic() + 30
        while marked([later]) < 1 and time.monotonic() < deadline:
            time.sleep(0.25)
        assert marked([later]) == 1
        time.sleep(1.5)  # a late duplicate (the sweep and the task) must not mark twice
        for t in [*tables, later]:
            assert ClockEvent.objects.filter(table=t, kind=ClockEvent.Kind.EXPIRE).count() == 1
            assert TurnEvent.objects.filter(table=t, kind=TurnEvent.Kind.TIME_EXPIRED).count() == 1
    finally:
        kill_all()
