"""The first request of a fresh web process against the same request once it is warm.

    .venv/bin/python benchmarks/cold_start.py --postgres postgres://postgres@127.0.0.1:5432/risiko_x \\
        --redis redis://127.0.0.1:6379/N [--players 500] [--trials 5] [--write]

The database and the Redis number given are EMPTIED first. One tournament of ``--players``
players (three games, confirmed results: ``benchmarks/live.py``'s ``build``) on the production
settings (DEBUG off, PostgreSQL, Redis). For each public page, ``--trials`` times: a new gunicorn
process (one worker, as docker/entrypoint.sh runs them) is started, waited for until its worker has
loaded the application (a gunicorn hook writes a file; an HTTP request would warm it), then the page is asked once (cold) and 15 times
more (warm, the median). The pages' own cache in front of Django (``LIVE_CACHE``) is off: what is measured is
Django's path, the one a cold process pays; each page is asked once on a first process before
the trials, so the standings are stored (what is measured is a cold process, not a cold cache).

Target (docs/benchmarks.md): the first request not slower than 2 x a warm one. ``--write``
replaces the "Cold start" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from load import _free_port  # noqa: E402  (the server helpers beside this one)

TARGET = 2.0  # the first request at most this many times a warm one
WARM = 15


# gunicorn's hook once a worker has loaded the application: the benchmark waits for this file
# (gunicorn accepts connections before its worker is ready; a first request sent then would
# measure the worker's start, not the first request of a started process)
READY_HOOK = """
import os, pathlib
def post_worker_init(worker):
    pathlib.Path(os.environ["COLD_START_READY"]).write_text(str(worker.pid))
"""


def _started(ready: Path, timeout: float = 120) -> None:
    """Wait until the worker has loaded the application, without sending it a request."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if ready.exists():
            return
        time.sleep(0.05)
    raise RuntimeError("gunicorn's worker did not start")


def _timed(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()
        assert answer.status == 200, answer.status
    return time.perf_counter() - start


def one_process(env: dict[str, str], path: str) -> tuple[float, float]:
    """(first request, median warm request) of ``path`` on a new gunicorn process."""
    port = _free_port()
    work = Path(tempfile.mkdtemp())
    (work / "hook.py").write_text(READY_HOOK)
    ready = work / "ready"
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-c", str(work / "hook.py"), "-w", "1", "-k", "gthread",
         "--threads", "2", "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env={**env, "COLD_START_READY": str(ready)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        _started(ready)
        url = f"http://127.0.0.1:{port}{path}"
        first = _timed(url)
        return first, statistics.median(_timed(url) for _ in range(WARM))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--postgres", default="")
    ap.add_argument("--redis", default="")
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if not (args.postgres and args.redis):
        print("needs --postgres and --redis (both are emptied)", file=sys.stderr)
        return 2
    live: Any = __import__("live")
    env = live.stack(args.postgres, args.redis)
    env["LIVE_CACHE"] = "false"
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    d = live.build("bench", args.players, 20261122)
    connections.close_all()
    load = os.getloadavg()[0]
    paths = {**live._paths(d), "home": "/"}
    for path in paths.values():  # the standings stored once: a cold process, not a cold cache
        one_process(env, path)
    rows = []
    for name, path in paths.items():
        runs = [one_process(env, path) for _ in range(args.trials)]
        first, warm = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        rows.append((name, first, warm))
        print(f"{name}: first {first * 1000:.0f} ms, warm {warm * 1000:.0f} ms, x{first / warm:.1f}", flush=True)
    section = report(rows, args, load)
    print("\n" + section)
    if args.write:
        live.write_section("## Cold start", section)
    return 0 if all(first <= TARGET * warm for _n, first, warm in rows) else 1


def report(rows: list[tuple[str, float, float]], args: argparse.Namespace, load: float) -> str:
    worst = max(first / warm for _n, first, warm in rows)
    lines = [
        "## Cold start",
        "",
        f"`.venv/bin/python benchmarks/cold_start.py --postgres … --redis … --players {args.players} "
        f"--trials {args.trials}` — measured {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, Python "
        f"{platform.python_version()}, nproc {os.cpu_count()}, PostgreSQL + Redis, DEBUG off, load average "
        f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end. Each page on a new gunicorn process "
        f"(one worker): its first request, then {WARM} more (the median), the median of {args.trials} processes; "
        "the pages' cache in front of Django off, the standings stored beforehand.",
        "",
        "| page | first request (ms) | warm (ms) | first ÷ warm |",
        "|---|---|---|---|",
        *[f"| {name} | {first * 1000:.0f} | {warm * 1000:.0f} | {first / warm:.1f} |" for name, first, warm in rows],
        "",
        f"Target: the first request not slower than {TARGET:.0f} x a warm one — "
        f"{'met' if worst <= TARGET else 'NOT met'} (worst {worst:.1f} x). Each process compiles every template "
        "and loads every catalogue and the URL map when it starts (`config/warmup.py`), before it accepts a "
        "request; what is left to the first request is its own database connection and the page's queries.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
