"""The clubs' Sunday: 30 clubs each running a 40-player event at once on one instance. Referees
enter every table's result through the REST API and a second referee confirms it, while every
player's phone polls the event's leaderboard; measured through the production stack (gunicorn +
PostgreSQL + Redis + a Celery worker, as benchmarks/live.py starts them).

    .venv/bin/python benchmarks/sunday.py --postgres postgres://postgres@127.0.0.1:5432/risiko_x \\
        --redis redis://127.0.0.1:6379/N [--clubs 30] [--players 40] [--port P] [--write]

The database and the Redis number given are EMPTIED first. Each club's event has played game 1;
game 2's tables are seated and their results are entered now: per club one referee session posts
each table's result (``POST /api/scoring/tables/<id>/results/``) and another confirms it
(``POST /api/scoring/results/<id>/confirm/``), a table every ``--pace`` seconds, while
``--players`` phones per club poll the leaderboard every 1.5 s on average with ``If-None-Match``
(wrk, benchmarks/live.py's crowd). Prints and records the p50/p95 latency of the writes and of
the standings polls, the errors (the goal is 0) and the load average during the run. ``--write``
replaces the "Sunday" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from live import (  # noqa: E402  (the live benchmark beside this one)
    POLL,
    THREADS,
    build,
    crowd,
    load_average,
    sample_load,
    settle,
    stack,
    start_servers,
    write_section,
)
from load import _free_port, _wait  # noqa: E402


def sessions(users: list[Any]) -> dict[int, str]:
    """A logged-in session per user, as the login page makes (no password hashing per run)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore
    out = {}
    for user in users:
        s = store()
        s[SESSION_KEY], s[BACKEND_SESSION_KEY] = str(user.pk), "django.contrib.auth.backends.ModelBackend"
        s[HASH_SESSION_KEY] = user.get_session_auth_hash()
        s.create()
        out[user.pk] = s.session_key
    return out


def referee(base: str, cookie: str) -> Any:
    """An HTTP client with a referee's session and a CSRF token (cookie + header, as the pages send)."""
    import requests

    token = "".join(random.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))
    client = requests.Session()
    client.cookies.set("sessionid", cookie)
    client.cookies.set("csrftoken", token)
    # a connection per write: a kept-alive one closed by the server while idle would be a reset
    client.headers.update({"X-CSRFToken": token, "Referer": base + "/", "Connection": "close"})
    return client


def club_day(base: str, event: dict[str, Any], cookies: dict[int, str], pace: float, until: float,
             writes: list[float], errors: list[str], rnd: random.Random) -> None:
    """One club's referees: each game-2 table's result entered, then confirmed by the other one."""
    enter, confirm = referee(base, cookies[event["ref"].pk]), referee(base, cookies[event["ref2"].pk])
    time.sleep(rnd.uniform(0, pace))
    for table, data in event["pending"]:
        if time.time() > until:
            return
        started = time.perf_counter()
        try:
            r = enter.post(f"{base}/api/scoring/tables/{table.pk}/results/", timeout=30,
                           json={"kind": "short", "version": 0, "ended_by": "sdadata", **data})
            writes.append((time.perf_counter() - started) * 1000)
            if r.status_code != 201:
                errors.append(f"enter {r.status_code} {r.text[:200]}")
                continue
            started = time.perf_counter()
            c = confirm.post(f"{base}/api/scoring/results/{r.json()['id']}/confirm/", timeout=30)
            writes.append((time.perf_counter() - started) * 1000)
            if c.status_code != 201:
                errors.append(f"confirm {c.status_code} {c.text[:200]}")
        except OSError as e:  # requests' connection errors are OSErrors
            errors.append(f"{type(e).__name__}: {e}")
        time.sleep(max(0.0, pace * rnd.uniform(0.5, 1.5) - (time.perf_counter() - started)))


def pending_game(event: dict[str, Any], game: int) -> list[tuple[Any, dict[str, Any]]]:
    """Game ``game``'s tables of a built event with their results taken back out (to be entered
    through the API): (table, the short form entered)."""
    from scoring.models import ResultSubmission

    subs = ResultSubmission.objects.filter(tournament=event["t"], table__game__number=game).select_related("table")
    out = [(s.table, {"players": s.data["players"]}) for s in subs.order_by("table__number")]
    subs.delete()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--postgres", default="", help="a PostgreSQL URL (its data is replaced)")
    ap.add_argument("--redis", default="", help="a Redis URL with its db number (emptied)")
    ap.add_argument("--clubs", type=int, default=30)
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--pace", type=float, default=4.0, help="seconds between a club's results, on average")
    ap.add_argument("--seconds", type=int, default=60, help="how long the Sunday lasts")
    ap.add_argument("--arrival", type=float, default=10.0,
                    help="seconds over which the clubs' phones arrive (benchmarks/live.py's crowd)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if not (args.postgres and args.redis):
        print("needs --postgres and --redis (both are emptied)", file=sys.stderr)
        return 2
    env = stack(args.postgres, args.redis)
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    events = [build(f"club-{i}", args.players, 2000 + i, games=2) for i in range(args.clubs)]
    for e in events:
        e["pending"] = pending_game(e, 2)
    cookies = sessions([events[0]["ref"], events[0]["ref2"]])
    connections.close_all()
    port = args.port or _free_port()
    base = f"http://127.0.0.1:{port}"
    servers: list[subprocess.Popen[bytes]] = []
    loads = [load_average()]
    try:
        servers += start_servers(env, port)
        for e in events:  # every leaderboard once, as the phones' first load
            _wait(f"{base}/t/{e['t'].slug}/standings/", timeout=60)
        for e in events:
            settle(e["t"].pk)
        stop = threading.Event()
        sampler = sample_load(stop, loads)
        writes: list[float] = []
        errors: list[str] = []
        until = time.time() + args.seconds
        clubs = [threading.Thread(target=club_day, args=(base, e, cookies, args.pace, until, writes, errors,
                                                         random.Random(i))) for i, e in enumerate(events)]
        for c in clubs:
            c.start()
        polls = crowd(base, [f"/t/{e['t'].slug}/standings/" for e in events], args.clubs * args.players,
                      max(1, round(args.seconds - args.arrival)), POLL, args.arrival)
        for c in clubs:
            c.join()
        stop.set()
        sampler.join()
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
        for server in servers:
            server.wait(timeout=30)
    writes.sort()
    out = {"writes": len(writes), "write_p50": statistics.median(writes) if writes else 0,
           "write_p95": writes[int(len(writes) * 0.95)] if writes else 0, "write_errors": len(errors),
           "polls": polls, "loads": loads}
    for e in errors[:5]:
        print("error:", e, file=sys.stderr)
    section = report(out, args)
    print("\n" + section)
    if args.write:
        write_section("## Sunday (", section)
    return 0 if not errors and not polls["errors"] and not polls["non2xx"] else 1


def report(out: dict[str, Any], args: argparse.Namespace) -> str:
    import platform

    p = out["polls"]
    return "\n".join([
        "## Sunday (30 clubs' events at once on one instance)",
        "",
        f"`.venv/bin/python benchmarks/sunday.py --postgres … --redis …` — {args.clubs} events of {args.players} "
        f"players at once, game 1 played; for {args.seconds} s each club's referees enter game 2's results through "
        f"the REST API (one session enters, another confirms; a table every {args.pace:g} s on average per club) "
        f"while {p['clients']} phones poll their event's leaderboard every {POLL} s on average (htmx + "
        f"If-None-Match, wrk; the clubs' phones arriving over the first {args.arrival:g} s). gunicorn -w 2 -k gthread --threads {THREADS}, DEBUG off, PostgreSQL, Redis, one Celery worker, all on "
        f"the same cores as the clients. Measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python "
        f"{platform.python_version()}, {platform.machine()}, nproc {os.cpu_count()}; load average during the "
        f"run {min(out['loads']):.1f}–{max(out['loads']):.1f} (2 is both cores busy: the server, its worker and "
        f"database, the clubs and the phones' wrk all share them).",
        "",
        "| what | requests | p50 ms | p95 ms | errors |",
        "|---|---|---|---|---|",
        f"| writes (result entered, result confirmed) | {out['writes']} | {out['write_p50']:.0f} | "
        f"{out['write_p95']:.0f} | {out['write_errors']} |",
        f"| standings polls | {p['requests']} ({p['rps']:.0f}/s) | {p['p50']:.1f} | {p['p95']:.1f} | "
        f"{p['errors'] + p['non2xx']} |",
        "",
    ])


if __name__ == "__main__":
    raise SystemExit(main())
