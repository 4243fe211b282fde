"""Faults injected into the production stack: a real gunicorn, a Celery worker (prefork, one pool
process) and beat on the TEST database (PostgreSQL, committed rows), with a private
``redis-server`` this module starts (and kills) on a port of its own. Each test is a fault a
tournament day meets, and what a referee or a phone in the hall must see:

- the worker's pool process, or the whole worker, killed during a standings recomputation: the
  standings come right by themselves, without another write;
- Redis gone: the public pages answer from the database, a result entry is saved (or refused
  with a JSON 503 that says to retry), and the pages show it once Redis is back;
- the answer to a saved result lost on the way: the retry with the same ``Idempotency-Key``
  gets the saved result, not a 409 nor a duplicate;
- a read-only database (failover, maintenance): a JSON 503 with ``Retry-After``, not a 500.

The times measured here are in docs/reliability.md (run with ``-s`` to see them).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.db import connection
from django.test import override_settings

from scoring.models import ResultSubmission
from tests.factories import scoring as f
from tests.gunicorn import Gunicorn, server_env, stop_process
from tournaments.models import ScoringSettings, Tournament

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
REDIS_PORTS = range(6390, 6400)  # this module's private Redis servers
PASSWORD = "referee-password-1"
BOUND = 25.0  # seconds within which the standings must heal by themselves


def _test_db_url() -> str:
    url = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))


def _free_port() -> int:
    for port in REDIS_PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.fail(f"no free port for a private redis-server in {REDIS_PORTS}")


class Redis:
    """A private redis-server without persistence: killed, it comes back empty."""

    def __init__(self, tmp: Path) -> None:
        self.port = _free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        pytest.fail("the private redis-server did not start")

    def kill(self) -> None:
        stop_process(self.proc, signal.SIGKILL)


class Stack:
    """gunicorn + a Celery worker + beat on the private Redis and the test database."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.redis = Redis(tmp)
        self.env = server_env(
            _test_db_url(), REDIS_URL=f"redis://127.0.0.1:{self.redis.port}/0",
            STANDINGS_WATCHDOG_SECONDS="2", STANDINGS_STALE_SECONDS="5", HEARTBEAT_SECONDS="2",
            LOG_LEVEL="INFO")
        self.web = Gunicorn("", env=self.env, start_timeout=60)
        self.log = tmp / "celery.log"
        self.worker: subprocess.Popen[bytes] | None = None
        self.beat: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.redis.start()
        self.beat = self._celery(["beat", "-l", "INFO", "-s", str(self.tmp / "beat-schedule"),
                                  "--max-interval", "1"])
        self.start_worker()
        self.web.start()

    def start_worker(self) -> None:
        ready = self.log.read_text().count(" ready.") if self.log.exists() else 0
        self.worker = self._celery(["worker", "--concurrency=1", "--without-gossip", "--without-mingle",
                                    "-l", "INFO", "-n", f"faults-{os.getpid()}-{time.monotonic_ns()}@%h"])
        deadline = time.monotonic() + 40
        while self.log.read_text().count(" ready.") <= ready:
            assert time.monotonic() < deadline, self.log.read_text()[-3000:]
            time.sleep(0.2)

    def _celery(self, args: list[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT,
                                env=self.env, stdout=self.log.open("a"), stderr=subprocess.STDOUT,
                                start_new_session=True)

    def stop(self) -> None:
        self.web.kill()
        for proc in (self.worker, self.beat):
            stop_process(proc, signal.SIGKILL)
        self.redis.kill()

    def pool_process(self) -> int:
        """The pid of the worker's pool process (the child that runs the tasks)."""
        assert self.worker is not None
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.worker.pid:
                    return int(entry.name)
        pytest.fail("the worker has no pool process")

    # --- HTTP, as a referee's phone or a public screen
    def request(self, method: str, path: str, body: dict[str, Any] | None = None, *, user: str | None = None,
                headers: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
        all_headers = {"Accept": "application/json", **(headers or {})}
        if body is not None:
            all_headers["Content-Type"] = "application/json"
        if user:
            token = base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()
            all_headers["Authorization"] = f"Basic {token}"
        request = urllib.request.Request(f"{self.web.url}{path}", method=method, headers=all_headers,
                                         data=json.dumps(body).encode() if body is not None else None)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read()


@pytest.fixture(scope="module")
def stack(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Iterator[Stack]:
    if not os.environ.get("DATABASE_URL") or connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): the servers share the test database")
    if shutil.which("redis-server") is None:
        pytest.skip("needs the redis-server binary (a private Redis this module kills)")
    with django_db_blocker.unblock():
        s = Stack(tmp_path_factory.mktemp("faults"))
    try:
        s.start()
        yield s
    finally:
        s.stop()


def _event(players: int = 4) -> tuple[Tournament, Any, Any]:
    """A running tournament whose standings count unconfirmed results, one table of four, a
    referee the server can authenticate (the server hashes with its own, real, hasher)."""
    t = f.ScoringTournamentFactory()
    ScoringSettings.objects.create(tournament=t, publish_unconfirmed=True)
    ps = f.players(t, players)
    table = f.make_table(t, 1, ps[:4])
    referee = f.role(t)
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        referee.set_password(PASSWORD)
        referee.save(update_fields=["password"])
    return t, table, referee


def _result(table: Any, version: int = 0) -> dict[str, Any]:
    objectives = [s.objective for s in table.seats.order_by("number")]
    return {"kind": "board", "version": version, "ended_by": "objective",
            **f.board_data(objectives, winner=2, armies=[30, 40, 30, 30])}


def _totals(stack: Stack, slug: str) -> dict[int, Any]:
    status, _headers, body = stack.request("GET", f"/api/scoring/tournaments/{slug}/standings/")
    assert status == 200, body[:500]
    return {r["player"]: r["total"] for r in json.loads(body)["rows"]}


def _wait_for(what: str, check: Any, bound: float, log: Path | None = None) -> float:
    started = time.monotonic()
    while time.monotonic() - started < bound:
        if check():
            return time.monotonic() - started
        time.sleep(0.2)
    pytest.fail(f"{what} not within {bound} s" + (":\n" + log.read_text()[-3000:] if log else ""))


def _waiting_on_lock(table: str) -> bool:
    with psycopg.connect(_test_db_url(), autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                           "AND query ILIKE %s", [f'%"{table}"%']).fetchone()
    return bool(row and row[0])


# ------------------------------------------------------------------------------------------------
@contextmanager
def _recomputation_under_way(stack: Stack, table: Any, referee: Any) -> Iterator[None]:
    """A result entered and its standings recomputation started and held: it reads first whether
    the event was imported, and that table is locked until the block ends."""
    t = table.game.tournament
    done = stack.log.read_text().count("recompute_standings")
    assert set(_totals(stack, t.slug).values()) == {0}  # the first reader; the worker stores them
    _wait_for("the first standings stored",  # received and succeeded
              lambda: stack.log.read_text().count("recompute_standings") >= done + 2, 20, stack.log)
    with psycopg.connect(_test_db_url()) as locker:
        locker.execute('LOCK TABLE "scoring_workbookevent" IN ACCESS EXCLUSIVE MODE')
        status, _h, body = stack.request("POST", f"/api/scoring/tables/{table.pk}/results/", _result(table),
                                         user=referee.username)
        assert status == 201, body[:500]
        _wait_for("the recomputation under way", lambda: _waiting_on_lock("scoring_workbookevent"), 20, stack.log)
        yield
        locker.rollback()


def test_a_recomputation_killed_with_its_pool_process_heals_without_a_new_write(stack: Stack) -> None:
    t, table, referee = _event()
    winner = table.seats.get(number=2).player_id
    with _recomputation_under_way(stack, table, referee):
        os.kill(stack.pool_process(), signal.SIGKILL)
        killed = time.monotonic()
    healed = _wait_for("the standings right again without a new write",
                       lambda: _totals(stack, t.slug).get(winner) == 130, BOUND, stack.log)
    print(f"\n[faults] pool process killed mid-recompute: standings right after {time.monotonic() - killed:.1f} s")
    assert healed < BOUND
    assert ResultSubmission.objects.filter(table=table).count() == 1  # nobody wrote again


def test_a_recomputation_lost_with_the_whole_worker_is_redone_by_the_next_worker(stack: Stack) -> None:
    """The worker's main process killed too: its message stays taken in Redis until the visibility
    timeout (CELERY_VISIBILITY_TIMEOUT); the watchdog does not wait for it."""
    t, table, referee = _event()
    winner = table.seats.get(number=2).player_id
    with _recomputation_under_way(stack, table, referee):
        stop_process(stack.worker, signal.SIGKILL)  # main process and pool, at once
    killed = time.monotonic()
    stack.start_worker()
    _wait_for("the standings right again with a new worker",
              lambda: _totals(stack, t.slug).get(winner) == 130, BOUND, stack.log)
    print(f"\n[faults] whole worker killed mid-recompute: standings right {time.monotonic() - killed:.1f} s "
          "after the kill (a new worker started at once)")


def test_a_retry_of_a_saved_result_whose_answer_was_lost_gets_the_saved_result(stack: Stack) -> None:
    t, table, referee = _event()
    path = f"/api/scoring/tables/{table.pk}/results/"
    key = {"Idempotency-Key": "7c1f4e2a-retry-test"}
    lost: list[Any] = []
    # The answer is lost after the commit: the request waits on the audit log until the client
    # has given up (its connection closed), then commits.
    with psycopg.connect(_test_db_url()) as locker:
        locker.execute('LOCK TABLE "tournaments_auditentry" IN EXCLUSIVE MODE')
        thread = threading.Thread(target=lambda: lost.append(_gives_up(stack, path, _result(table), referee, key)))
        thread.start()
        _wait_for("the entry waiting to commit", lambda: _waiting_on_lock("tournaments_auditentry"), 20)
        thread.join(timeout=10)
        locker.rollback()
    assert lost == ["timed out"]
    _wait_for("the lost entry committed", lambda: ResultSubmission.objects.filter(table=table).exists(), 10)
    saved = ResultSubmission.objects.get(table=table)
    # The phone retries the same entry (same version seen, same key): it is told it was saved.
    status, _h, body = stack.request("POST", path, _result(table), user=referee.username, headers=key)
    assert status == 201, body[:500]
    assert json.loads(body)["id"] == saved.pk and json.loads(body)["version"] == 1
    assert ResultSubmission.objects.filter(table=table).count() == 1
    # A different key is a new write: the version it started from is gone (409, as before).
    status, _h, _b = stack.request("POST", path, _result(table), user=referee.username,
                                   headers={"Idempotency-Key": "another-write"})
    assert status == 409


def _gives_up(stack: Stack, path: str, body: dict[str, Any], referee: Any, headers: dict[str, str]) -> str:
    try:
        stack.request("POST", path, body, user=referee.username, headers=headers, timeout=3)
    except (TimeoutError, OSError):
        return "timed out"
    return "answered"


def test_a_read_only_database_answers_a_json_503_with_a_retry_hint(stack: Stack) -> None:
    t, table, referee = _event()
    name = connection.settings_dict["NAME"]
    admin = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        try:
            status, headers, body = stack.request(
                "POST", f"/api/scoring/tables/{table.pk}/results/", _result(table), user=referee.username)
        finally:
            conn.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
    assert status == 503, body[:300]
    assert headers.get("Content-Type", "").startswith("application/json")
    assert int(headers["Retry-After"]) > 0
    assert "detail" in json.loads(body)
    assert not ResultSubmission.objects.filter(table=table).exists()


def test_with_redis_gone_pages_answer_from_the_database_and_writes_are_kept(stack: Stack) -> None:
    t, table, referee = _event()
    standings = f"/api/scoring/tournaments/{t.slug}/standings/"
    status, headers, _b = stack.request("GET", standings)
    etag = headers["ETag"]
    assert stack.request("GET", standings, headers={"If-None-Match": etag})[0] == 304
    stack.redis.kill()
    down = time.monotonic()
    try:
        # a process keeps the version numbers it read for a second (common/live.py)
        time.sleep(1.2)
        for path in (standings, f"/t/{t.slug}/standings/", f"/t/{t.slug}/"):
            status, headers, body = stack.request("GET", path, headers={"Accept": "text/html"})
            assert status == 200, (path, body[:300])
            assert "ETag" not in headers, path  # no validator while the versions are away: no false 304
        status, headers, body = stack.request("POST", f"/api/scoring/tables/{table.pk}/results/",
                                              _result(table), user=referee.username)
        assert status in (201, 503), body[:300]
        assert headers.get("Content-Type", "").startswith("application/json")
        saved = status == 201
        assert ResultSubmission.objects.filter(table=table).exists() == saved
        winner = table.seats.get(number=2).player_id
        if saved:  # the standings read from the database show it at once
            assert _totals(stack, t.slug)[winner] == 130
        status, _h, body = stack.request("GET", "/healthz")
        assert json.loads(body)["cache"].startswith("error")
    finally:
        stack.redis.start()
    back = time.monotonic()
    # The phone that cached the page before the outage gets the new one, not a 304.
    _wait_for("the polled standings showing the result after Redis came back",
              lambda: stack.request("GET", standings, headers={"If-None-Match": etag})[0] == 200
              and _totals(stack, t.slug)[winner] == (130 if saved else 0), BOUND, stack.log)
    print(f"\n[faults] Redis down {back - down:.1f} s: pages answered from the database, the entry "
          f"{'saved (201)' if saved else 'refused (503)'}; polled page current {time.monotonic() - back:.1f} s "
          "after Redis came back")
