"""A real gunicorn serving this checkout on a free loopback port, for the tests that need a
server process of their own: the clubs' shared instance (tests/publishing/test_two_instances.py)
and a web process killed mid-request (tests/hardening/test_restarts.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a production-like process on ``database_url``: no Redis (eager tasks)
    unless ``extra`` gives ``REDIS_URL`` (then a worker runs them: see ``celery_worker``)."""
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "false", "HTTPS": "false",
           "ALLOWED_HOSTS": "127.0.0.1", "SECRET_KEY": settings.SECRET_KEY, "CONN_MAX_AGE": "0",
           "CELERY_TASK_ALWAYS_EAGER": "true", "LOG_LEVEL": "WARNING", "CI": ""}
    env.pop("REDIS_URL", None)
    env.update(extra)
    if "REDIS_URL" in extra:
        env["CELERY_TASK_ALWAYS_EAGER"] = "false"
    return env


def celery_worker(env: dict[str, str], log: Path, name: str, *, start_timeout: float = 40) -> subprocess.Popen[bytes]:
    """A real Celery worker (one process) with ``env``; returns once it is ready."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--without-gossip",
         "--without-mingle", "--without-heartbeat", "-l", "INFO", "-n", f"{name}-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + start_timeout
    while time.monotonic() < deadline:
        if "ready." in log.read_text():
            return proc
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    stop_process(proc)
    pytest.fail("the Celery worker did not start:\n" + log.read_text()[-3000:])


def stop_process(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
    """Stop a process started in a session of its own, with its children."""
    if proc and proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


class Gunicorn:
    """One worker on 127.0.0.1; :meth:`start` returns once ``/healthz`` answers."""

    def __init__(self, database_url: str, *, start_timeout: float = 60, env: dict[str, str] | None = None) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.database_url = database_url
        self.own_env = env  # else the production-like environment on database_url, made at start
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def env(self) -> dict[str, str]:
        return self.own_env or server_env(self.database_url)

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "--timeout", "120",
             "-b", f"127.0.0.1:{self.port}"], cwd=ROOT, env=self.env,
            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=2)
                return
            except OSError:
                time.sleep(0.2)
        pytest.fail("gunicorn did not start")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
        stop_process(self.proc, sig, timeout)

    def kill(self) -> None:
        """SIGKILL: the process dies wherever it is, its transaction left open."""
        self.stop(signal.SIGKILL, timeout=10)
