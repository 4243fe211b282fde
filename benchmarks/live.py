"""Live at national scale: public pages polled by every phone, measured through the production
stack (gunicorn + PostgreSQL + Redis + a Celery worker), each page side by side with a static file
of the same size served by the same gunicorn.

    .venv/bin/python benchmarks/live.py --postgres postgres://postgres@127.0.0.1:5432/risiko_x \\
        --redis redis://127.0.0.1:6379/N [--players 5000] [--seconds 5] [--write]

The database and the Redis number given are EMPTIED first. It measures:

1. the standings computation (what the worker task does after a confirmation) at 100, 500,
   2,000 and 5,000 players (``--sizes``);
2. with ``--players`` (5,000) in one tournament plus 30 events of 40 players, gunicorn ``-w 2``
   (threaded, :func:`start_servers`) and a Celery worker started on free loopback ports: for each public page (leaderboard,
   tables page, table page, player page, standings API, clock API) wrk requests/s of an unchanged
   poll (``If-None-Match``: a 304), of the full page (gzip accepted, as phones do) and of a static
   file of the page's size, interleaved (static, 304, full, static); the ratios static ÷ page;
3. from a referee's confirmation (a corrected result, confirmed through ``scoring.services``) to
   the new total on the page: the server part (a client asking every 10 ms) and what phones
   polling every 1.5 s (the leaderboard's htmx interval) at random phases see, p50/p95;
4. 1,200 polling clients (30 events × 40 players, each its event's leaderboard every 1.5 s on
   average with ``If-None-Match``, while results keep being confirmed) for ``--poll-seconds``:
   p50/p95/p99 and errors (wrk with a Lua script, :func:`crowd`: one wrk per event, one
   kept-alive connection per phone, the events arriving over 10 s, and again all within one poll
   period: ``--crowd-arrival``).

5. with ``--full-api``, on its own: the full standings API (every row,
   ``/api/scoring/tournaments/<slug>/standings/``, what an integration or an overlay polls) at
   ``--full-api-sizes`` players (500, 5,000): from a referee's confirmation to the full API
   showing the changed row, the server part (one client asking back to back, ``If-None-Match``,
   gzip) and end to end (``--full-api-clients`` clients each polling every second from a random
   phase), p50/p95, with the server's CPU seconds and the load average during the trials.
   ``--write`` replaces the "Full standings API" section of docs/benchmarks.md.

wrk (Debian package ``wrk``) and the load client run on the same cores as the server: the figures
are a floor. ``--write`` replaces the "Live" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import os
import platform
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from load import _free_port, _ms, _wait  # noqa: E402  (the load benchmark beside this one: same server helpers)

BENCH_STATIC = ROOT / "static" / "_live_bench"  # removed again at the end
POLL = 1.5  # seconds: the leaderboard's hx-trigger
# Threads per gunicorn process, as docker/entrypoint.sh runs it: with 8, the threads' contention
# for the interpreter lock cost 1.2-1.6 ms of CPU per poll among 1,200 kept-alive phones, with 2
# 0.8-0.9 ms (measured side by side at load 12-15), with fewer errors and shorter waits.
THREADS = 2


def _module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------------------ data
def build(slug: str, players: int, seed: int, games: int = 3) -> dict[str, Any]:
    """A running tournament of ``players`` (tables of 4, ``games`` games), every result entered
    and confirmed; bulk-created (no signals: the caches start empty anyway)."""
    from django.contrib.auth import get_user_model

    from scoring import engine_bridge as eb
    from scoring.models import Confirmation, ResultSubmission
    from tables.models import Game, Seat, Table
    from tournaments.models import Club, Player, Registration, Tournament, TournamentRole

    rnd = random.Random(seed)
    boards = [b for b in _module("standings")._boards(players, rnd) if b[0] <= games]
    ctx = eb.context_for("RTU", {}, "S-RTU")
    seat_info = [eb.SeatInfo(n, n, f"P{n}") for n in range(1, 5)]
    users = get_user_model().objects
    ref = users.get_or_create(username="bench-ref")[0]
    ref2 = users.get_or_create(username="bench-ref2")[0]
    t = Tournament.objects.create(name=f"Torneo {slug}", slug=slug, date=dt.date(2026, 6, 1),
                                  status=Tournament.Status.RUNNING)
    TournamentRole.objects.bulk_create([TournamentRole(tournament=t, user=ref, role="referee"),
                                        TournamentRole(tournament=t, user=ref2, role="referee")])
    clubs = Club.objects.bulk_create([Club(name=f"Club {slug} {i}", city="Roma") for i in range(25)])
    people = Player.objects.bulk_create([
        Player(first_name=f"Nome{i}", last_name=f"Cognome{slug}{i}", nickname=f"N{i}" if i % 3 else "",
               club=clubs[i % 25], email=f"p{i}@example.org", normalised_name=f"nome{i} cognome{slug}{i}")
        for i in range(players)])
    Registration.objects.bulk_create([Registration(tournament=t, player=p) for p in people])
    game_rows = {n: Game.objects.create(tournament=t, number=n) for n in range(1, games + 1)}
    count: dict[int, int] = {}
    tables, seats, subs, seated_of = [], [], [], []
    for game, seated, data in boards:
        count[game] = count.get(game, 0) + 1
        tables.append(Table(game=game_rows[game], number=count[game]))
        seated_of.append((game, seated, data))
    tables = Table.objects.bulk_create(tables)
    for table, (game, seated, data) in zip(tables, seated_of, strict=True):
        seats += [Seat(table=table, game=game_rows[game], number=i + 1, player=people[pid - 1])
                  for i, pid in enumerate(seated)]
        scores = eb.score_short(ctx, seat_info, data, "sdadata")
        for r in scores:
            r["player"] = people[seated[r["seat"] - 1] - 1].pk
        subs.append(ResultSubmission(table=table, tournament=t, number=1, kind="short", ended_by="sdadata",
                                     data=data, scores=scores, entered_by=ref))
    Seat.objects.bulk_create(seats)
    subs = ResultSubmission.objects.bulk_create(subs)
    Confirmation.objects.bulk_create([Confirmation(submission=s, user=ref2) for s in subs])
    return {"t": t, "people": people, "tables": tables, "ref": ref, "ref2": ref2}


def correction(d: dict[str, Any], rnd: random.Random) -> int:
    """A referee corrects a game-1 table's result and another confirms it (services, as the
    pages do); returns the player whose total shows the change."""
    from scoring import services
    from scoring.models import ResultSubmission

    table = rnd.choice([t for t in d["tables"] if t.game.number == 1])
    last = ResultSubmission.objects.filter(table=table).order_by("-number").first()
    rows = [dict(r) for r in last.data["players"]]
    rows[0]["objective_points"], rows[1]["objective_points"] = rows[1]["objective_points"], rows[0]["objective_points"]
    if rows[0]["objective_points"] == rows[1]["objective_points"]:
        rows[0]["armies"] += 1
    sub = services.submit_result(actor=d["ref"], table=table, kind="short", data={"players": rows},
                                 ended_by="sdadata", expected_version=last.number)
    services.confirm_result(actor=d["ref2"], submission=sub)
    return int(table.seats.get(number=1).player_id)


# ------------------------------------------------------------------------------ servers and load
def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def wrk(url: str, seconds: int, headers: dict[str, str] | None = None, connections: int = 8) -> dict[str, float]:
    cmd = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency"]
    for k, v in (headers or {}).items():
        cmd += ["-H", f"{k}: {v}"]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"\s50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"\s99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"rps": rps, "p50": p50, "p99": p99, "non2xx": float(errors.group(1)) if errors else 0,
            "requests": requests}


def server_cpu(servers: list[subprocess.Popen[bytes]]) -> float:
    """CPU seconds (user + system) spent so far by gunicorn's processes (Linux /proc): per
    request, what the server costs whatever else shares the cores."""
    master = servers[-1].pid
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    for pid in [str(master), *children]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a worker gone meanwhile
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def measured(servers: list[subprocess.Popen[bytes]], run: Any) -> dict[str, float]:
    """``run()`` (a wrk run's figures) with the server's CPU microseconds per request."""
    before = server_cpu(servers)
    found = run()
    found["cpu_us"] = (server_cpu(servers) - before) / max(found["requests"], 1) * 1e6
    return found


# wrk's Lua: one wrk per event, its connections polling that event's leaderboard like phones
# (htmx, gzip, If-None-Match with the last ETag seen), each waiting a random 0.5–1.5 periods
# between polls (phases spread out); done() prints the counts and errors as one JSON line and the
# whole latency histogram (µs value:count pairs), so the events' figures merge exactly.
# A connection's first poll goes at once: wrk opens every connection first, and one waiting
# before its first request would hold a server thread (phones connect when they poll).
CROWD_LUA = """
local path = "%(path)s"
function init(args)
  etag = nil
  first = %(per_thread)d
  math.randomseed(%(seed)d)
end
function request()
  local h = {["HX-Request"] = "true", ["Accept-Encoding"] = "gzip"}
  if etag then h["If-None-Match"] = etag end
  return wrk.format("GET", path, h)
end
function response(status, headers, body)
  local e = headers["ETag"] or headers["etag"]
  if e then etag = e end
end
function delay()
  if first > 0 then
    first = first - 1
    return 0
  end
  return math.random(%(low)d, %(high)d)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('CROWD {"requests": %%d, "errors": %%d, "non2xx": %%d, "seconds": %%.2f}\\n',
    summary.requests, e.connect + e.read + e.write + e.timeout, e.status, summary.duration / 1e6))
  local buckets = {}
  for i = 1, #latency do
    local v, c = latency(i)
    buckets[#buckets + 1] = string.format("%%d:%%d", v, c)
  end
  io.write("HIST " .. table.concat(buckets, ",") .. "\\n")
end
"""


def _percentile(histogram: dict[int, int], p: float) -> float:
    """The ``p``-th percentile, in ms, of a latency histogram (µs → count)."""
    total = sum(histogram.values())
    rank, seen = p / 100 * total, 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value / 1000
    return 0.0


def crowd(base: str, paths: list[str], clients: int, seconds: int, period: float,
          arrival: float) -> dict[str, float]:
    """``clients`` phones (shared out between ``paths``, one event's leaderboard each) polling
    every ``period`` seconds on average, all of them for ``seconds``: requests/s, p50/p95/p99 ms
    over every request and errors (socket errors and answers other than 2xx/3xx).

    One wrk per event, the events arriving one after another over ``arrival`` seconds, and all
    of them ending together after the last has polled for ``seconds``. Each wrk opens all its
    connections at the same instant and sends their first polls at once (one waiting before its
    first request would hold a server thread), which phones never do, and each wrk's start costs
    CPU on the same cores as the server: the shorter ``arrival``, the harsher."""
    import json
    import tempfile

    n = len(paths)
    per = clients // n
    scripts, runs = [], []
    try:
        for i, path in enumerate(paths):
            with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
                f.write(CROWD_LUA % {"path": path, "per_thread": per, "seed": (i + 1) * 7919,
                                     "low": int(period * 500), "high": int(period * 1500)})
            scripts.append(f.name)
        started = time.monotonic()
        for i, script in enumerate(scripts):
            time.sleep(max(0.0, started + i * arrival / n - time.monotonic()))
            left = started + arrival + seconds - time.monotonic()
            runs.append(subprocess.Popen(["wrk", "-t1", f"-c{per}", f"-d{max(1, round(left))}s", "--timeout", "10s",
                                          "-s", script, base], stdout=subprocess.PIPE, text=True))
        outs = [r.communicate()[0] for r in runs]
    finally:
        for script in scripts:
            os.unlink(script)
    histogram: dict[int, int] = {}
    totals = {"requests": 0, "errors": 0, "non2xx": 0, "rps": 0.0}
    for out in outs:
        found = json.loads(out.split("CROWD ", 1)[1].splitlines()[0])
        for key in ("requests", "errors", "non2xx"):
            totals[key] += found[key]
        totals["rps"] += found["requests"] / found["seconds"]
        for pair in out.split("HIST ", 1)[1].splitlines()[0].split(","):
            if pair:
                value, count = pair.split(":")
                histogram[int(value)] = histogram.get(int(value), 0) + int(count)
    return {**totals, "p50": _percentile(histogram, 50), "p95": _percentile(histogram, 95),
            "p99": _percentile(histogram, 99), "max": max(histogram, default=0) / 1000,
            "seconds": float(seconds), "period": period, "clients": per * n, "arrival": arrival}


def load_average() -> float:
    return os.getloadavg()[0]


def sample_load(stop: threading.Event, into: list[float], every: float = 5.0) -> threading.Thread:
    """Appends the 1-minute load average to ``into`` every ``every`` seconds until ``stop``."""
    def run() -> None:
        while not stop.wait(every):
            into.append(load_average())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def crowd_with_writes(base: str, events: list[dict[str, Any]], clients: int, seconds: int, period: float,
                      arrival: float, loads: list[float], servers: list[subprocess.Popen[bytes]]) -> dict[str, Any]:
    """:func:`crowd` on the events' leaderboards while a referee confirms a correction in one of
    them every 2 s (through ``scoring.services``, in this process)."""
    from django.db import connections

    stop = threading.Event()
    writes = [0]

    def writer() -> None:
        rnd = random.Random(5)
        while not stop.is_set():
            correction(rnd.choice(events), rnd)
            writes[0] += 1
            stop.wait(2.0)
        connections.close_all()

    # every event's leaderboard as its phones first load it, a few times so that both server
    # processes have rendered it once: the events were bulk-created, so their first request
    # computes the standings (nothing stored yet) and a fresh process compiles its templates. Not
    # warmed, that start fell on the crowd's first seconds and was its whole tail (p99 0.3-0.9 s
    # against 20-40 ms warmed, both arrival patterns, 2026-11-27)
    for e in events:
        for _ in range(4):
            _get(f"{base}/t/{e['t'].slug}/standings/", {"HX-Request": "true", "Accept-Encoding": "gzip"})
    w = threading.Thread(target=writer)
    w.start()
    seen = [load_average()]
    sampler = sample_load(stop, seen)
    result = measured(servers, lambda: crowd(base, [f"/t/{e['t'].slug}/standings/" for e in events], clients,
                                             seconds, period, arrival))
    stop.set()
    w.join()
    sampler.join()
    result.update(writes=writes[0], load=max(seen))
    loads += seen
    print(f"{result['clients']} clients polling every {period} s, arriving over {arrival} s: "
          f"{result['rps']:.0f} req/s, p50 "
          f"{result['p50']:.1f} ms, p95 {result['p95']:.1f} ms, p99 {result['p99']:.1f} ms, errors "
          f"{result['errors'] + result['non2xx']}, {writes[0]} results confirmed meanwhile, server CPU "
          f"{result['cpu_us']:.0f} µs a request, load average up to {result['load']:.1f}", flush=True)
    return result


def _row(html: bytes, player: int) -> bytes:
    m = re.search(rb'<tr id="player-%d".*?</tr>' % player, html, re.S)
    return m.group(0) if m else b""


def visibility(base: str, d: dict[str, Any], trials: int, phones: int) -> dict[str, float]:
    """Seconds from a confirmation (committed) to the new row: the server's part (asked every
    10 ms) and phones polling every POLL seconds at random phases."""
    rnd = random.Random(11)
    server: list[float] = []
    seen: list[float] = []
    slug = d["t"].slug
    game1 = [t for t in d["tables"] if t.game.number == 1]
    for _ in range(trials):
        table = rnd.choice(game1)
        pid = int(table.seats.get(number=1).player_id)
        url = f"{base}/t/{slug}/standings/?player={pid}"
        before = _row(_get(url, {"HX-Request": "true"})[2], pid)
        t0 = time.perf_counter()
        correction(dict(d, tables=[table]), rnd)
        committed = time.perf_counter()
        while time.perf_counter() - t0 < 30:
            if _row(_get(url, {"HX-Request": "true"})[2], pid) != before:
                server.append(time.perf_counter() - committed)
                break
            time.sleep(0.01)
        else:
            continue
        # a phone polling every POLL s from a random phase sees it at its first poll after the
        # server has it (that poll's own answer time is in the server figure)
        seen += [server[-1] + (rnd.uniform(0, POLL) - server[-1]) % POLL for _ in range(phones)]
        time.sleep(0.3)
    server.sort()
    seen.sort()
    return {"server_p50": statistics.median(server), "server_p95": server[int(len(server) * 0.95)],
            "phone_p50": statistics.median(seen), "phone_p95": seen[int(len(seen) * 0.95)], "trials": len(server)}


# ------------------------------------------------------------------------------ main
def settle(tournament_id: int, timeout: float = 120) -> None:
    """Wait until the worker has stored the tournament's standings (a first reader with an empty
    cache computes them once and queues the worker, whose store is a new validator): measuring
    304s before that would measure the change."""
    from scoring import stored

    deadline = time.time() + timeout
    while stored.read(tournament_id) is None and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)


def stack(postgres: str, redis: str) -> dict[str, str]:
    """Production settings on the given database and Redis (DEBUG off, a worker for the tasks),
    in this process (Django set up) and for the servers started: their environment."""
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": postgres, "REDIS_URL": redis,
        "DEBUG": "false", "HTTPS": "false", "SECRET_KEY": "live-benchmark-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING", "CELERY_TASK_ALWAYS_EAGER": "false",
        "LIVE_CACHE": "true",
    })
    os.environ.update(env)
    import django

    django.setup()
    return env


def start_servers(env: dict[str, str], port: int) -> list[subprocess.Popen[bytes]]:
    """One Celery worker (solo) and gunicorn on ``port`` as docker/entrypoint.sh runs it, with 2
    processes (the 2 cores): threaded workers with keep-alive, so a phone's connection waiting
    between two polls holds no process (a sync worker is held by an open connection until its
    request arrives: 60 phones kept 2 sync workers waiting, p50 3.4 s)."""
    return [
        subprocess.Popen(
            [str(ROOT / ".venv/bin/celery"), "-A", "config", "worker", "-c", "1", "-P", "solo", "-l", "WARNING",
             "-Q", "celery", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True),
        subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-w", "2", "-k", "gthread", "--threads", str(THREADS),
             "--keep-alive", "5", "-b", f"127.0.0.1:{port}",
             "--log-level", "warning", "--backlog", "2048"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--postgres", default="", help="a PostgreSQL URL (its data is replaced)")
    ap.add_argument("--redis", default="", help="a Redis URL with its db number (emptied)")
    ap.add_argument("--players", type=int, default=5000)
    ap.add_argument("--sizes", default="100,500,2000,5000")
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--clients", default="1200", help="polling phones, a comma-separated list to run several")
    ap.add_argument("--poll-seconds", type=int, default=30)
    ap.add_argument("--crowd-poll", default="1.5", help="the clients' polling periods, seconds")
    ap.add_argument("--crowd-arrival", default="10,1.5",
                    help="seconds over which the 30 events' phones arrive, a comma-separated list to run several "
                         "(the first is the goal's; 1.5: all of them within one poll period)")
    ap.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--full-api", action="store_true",
                    help="only the full standings API's freshness (part 5), at --full-api-sizes players")
    ap.add_argument("--full-api-sizes", default="500,5000")
    ap.add_argument("--full-api-clients", type=int, default=4)
    ap.add_argument("--label", default="", help="names the run in the written section (e.g. the branch)")
    ap.add_argument("--crowd-only", action="store_true",
                    help="only the 1,200 polling clients (part 4), for working on its tail; not written")
    args = ap.parse_args()
    if args.crowd_only and args.write:
        print("--crowd-only measures one part: it is not written to docs/benchmarks.md", file=sys.stderr)
        return 2
    if not shutil.which("wrk"):
        print("needs wrk (apt-get install -y wrk)", file=sys.stderr)
        return 2
    if not (args.postgres and args.redis):
        print("needs --postgres and --redis (both are emptied)", file=sys.stderr)
        return 2
    env = stack(args.postgres, args.redis)
    if args.full_api:
        return full_api_main(env, args)
    from django.core.cache import cache
    from django.core.management import call_command

    from scoring import recompute, selectors

    call_command("migrate", verbosity=0)
    out: dict[str, Any] = {"compute": {}, "pages": [], "loads": [load_average()], "machine": f"Python {platform.python_version()}, "
                           f"{platform.machine()}, nproc {os.cpu_count()}, load average at the start "
                           f"{os.getloadavg()[0]:.1f}"}
    sizes = [] if args.crowd_only else [int(x) for x in args.sizes.split(",") if x]
    d: dict[str, Any] = {}
    for n in sorted(set(sizes) | {args.players}) if sizes else []:
        call_command("flush", interactive=False, verbosity=0)
        cache.clear()
        started = time.perf_counter()
        d = build("bench", n, 20261122)
        built = time.perf_counter() - started
        times, steps = [], []
        for _ in range(3):
            t0 = time.perf_counter()
            selectors.full_standings(d["t"])
            times.append(time.perf_counter() - t0)
        recompute._KEPT.clear()
        recompute.compute_incremental(d["t"])  # what the worker keeps from its previous run
        recompute.recompute(d["t"].pk)  # stored once whole, as a new worker does
        rnd = random.Random(3)
        tasks = []
        with mock.patch("scoring.recompute.schedule"):  # this process is the worker here
            for _ in range(5):
                correction(d, rnd)
                t0 = time.perf_counter()
                recompute._incremental(d["t"])
                steps.append(time.perf_counter() - t0)
                correction(d, rnd)
                t0 = time.perf_counter()
                recompute.recompute(d["t"].pk)
                tasks.append(time.perf_counter() - t0)
        out["compute"][n] = (min(times), statistics.median(steps), statistics.median(tasks))
        print(f"standings of {n} players: full {min(times) * 1000:.0f} ms, after one confirmation (the worker) "
              f"{statistics.median(steps) * 1000:.0f} ms, with storing it {statistics.median(tasks) * 1000:.0f} ms "
              f"(built in {built:.0f} s)", flush=True)
        if n == args.players:
            break
    events = [build(f"evento-{i}", 40, 1000 + i, games=1) for i in range(30)]
    cache.clear()
    from django.db import connections

    connections.close_all()
    port = args.port or _free_port()
    base = f"http://127.0.0.1:{port}"
    paths = {} if args.crowd_only else _paths(d)
    BENCH_STATIC.mkdir(exist_ok=True)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        # static twins first: whitenoise indexes its files when it starts
        from django.test import Client

        client = Client(HTTP_HOST="127.0.0.1")
        sizes_of = {name: len(client.get(path).content) for name, path in paths.items()}
        for size in sizes_of.values():
            (BENCH_STATIC / f"{size}.html").write_bytes(b"x" * size)
        connections.close_all()
        servers += start_servers(env, port)
        _wait(base + f"/t/{events[0]['t'].slug}/standings/", timeout=60)
        if not args.crowd_only:
            settle(d["t"].pk)
            out["visible"] = pages_and_visibility(base, d, paths, sizes_of, servers, out, args)
        # 1,200 phones on 30 events, results confirmed meanwhile in some of them
        out["crowd"] = []
        for period in [float(x) for x in args.crowd_poll.split(",")]:
            for clients in [int(x) for x in args.clients.split(",")]:
                for arrival in [float(x) for x in args.crowd_arrival.split(",")]:
                    out["crowd"].append(crowd_with_writes(base, events, clients, args.poll_seconds, period, arrival,
                                                          out["loads"], servers))
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
        for server in servers:
            server.wait(timeout=30)
        shutil.rmtree(BENCH_STATIC, ignore_errors=True)
    if args.crowd_only:
        return 0
    section = report(out, args)
    print("\n" + section)
    if args.write:
        write_section("## Live (national scale", section)
    return 0


def _paths(d: dict[str, Any]) -> dict[str, str]:
    """The public pages measured one by one (part 2), in the big tournament."""
    people, tables = d["people"], d["tables"]
    table1 = tables[0]
    return {
        "leaderboard": "/t/bench/standings/",
        "tables page": "/t/bench/games/1/tables/",
        "table page": f"/t/bench/games/1/tables/{table1.number}/",
        "player page": f"/t/bench/standings/player/{people[7].pk}/",
        "standings API": "/api/scoring/tournaments/bench/standings/",
        "standings API, a page": "/api/scoring/tournaments/bench/standings/?limit=100",
        "clock API": f"/api/tournaments/bench/games/1/tables/{table1.number}/clock/",
    }


def pages_and_visibility(base: str, d: dict[str, Any], paths: dict[str, str], sizes_of: dict[str, int],
                         servers: list[subprocess.Popen[bytes]], out: dict[str, Any],
                         args: argparse.Namespace) -> dict[str, float]:
    """Parts 2 and 3: each public page beside its static twin, then confirmation → visible."""
    for name, path in paths.items():
        status, headers, body = _get(base + path, {"Accept-Encoding": "gzip"})
        etag = headers.get("ETag", "")
        static_url = f"{base}/static/_live_bench/{sizes_of[name]}.html"
        _wait(static_url, timeout=60)
        wrk(base + path, 1, {"Accept-Encoding": "gzip"})  # warm
        s1 = wrk(static_url, args.seconds)
        cond = measured(servers, partial(wrk, base + path, args.seconds,
                                         {"If-None-Match": etag, "Accept-Encoding": "gzip"}))
        full = measured(servers, partial(wrk, base + path, args.seconds, {"Accept-Encoding": "gzip"}))
        s2 = wrk(static_url, args.seconds)
        static_rps = (s1["rps"] + s2["rps"]) / 2
        check = _get(base + path, {"If-None-Match": etag})[0]
        row = {"name": name, "bytes": sizes_of[name], "gzip_bytes": len(body),
               "gzip": headers.get("Content-Encoding", "") == "gzip", "etag": bool(etag), "status304": check,
               "static": static_rps, "cond": cond, "full": full,
               "r304": static_rps / max(cond["rps"], 0.01), "rfull": static_rps / max(full["rps"], 0.01)}
        out["pages"].append(row)
        print(f"{name}: {row['bytes']} B (gzip {row['gzip_bytes']} B) static {static_rps:.0f} req/s | "
              f"304 {cond['rps']:.0f} req/s p99 {cond['p99']:.1f} ms ({row['r304']:.1f}x, server CPU "
              f"{cond['cpu_us']:.0f} µs) | full {full['rps']:.0f} req/s p99 {full['p99']:.1f} ms "
              f"({row['rfull']:.1f}x, {full['cpu_us']:.0f} µs) | answered {check}"
              + (f" NON-2xx/3xx {cond['non2xx'] + full['non2xx']:.0f}" if cond["non2xx"] + full["non2xx"] else ""),
              flush=True)
    out["visible"] = visibility(base, d, args.trials, 50)
    v = out["visible"]
    print(f"confirmation → visible: server p50 {v['server_p50'] * 1000:.0f} ms p95 {v['server_p95'] * 1000:.0f} "
          f"ms; phones polling every {POLL} s: p50 {v['phone_p50']:.2f} s p95 {v['phone_p95']:.2f} s", flush=True)
    return v


def _api_row(body: bytes, player: int) -> bytes:
    """The full API's row of ``player`` as it was written (its bytes up to the next row's start)."""
    at = body.find(b'"player":%d,' % player)
    if at < 0:
        return b""
    end = body.find(b'"pending_correction_note":', at)
    return body[at:body.find(b"}", end) if end >= 0 else at + 2000]


class _Poller:
    """A client of the full API: asks with ``If-None-Match`` and gzip, keeps the last body (raw)."""

    def __init__(self, url: str) -> None:
        self.url, self.etag, self.body = url, "", b""

    def poll(self) -> tuple[float, bytes]:
        """(when the answer was in, the current body)."""
        import gzip

        headers = {"Accept-Encoding": "gzip", **({"If-None-Match": self.etag} if self.etag else {})}
        status, got, body = _get(self.url, headers)
        arrived = time.perf_counter()
        if status == 200:
            self.etag = got.get("ETag", "")
            self.body = gzip.decompress(body) if got.get("Content-Encoding") == "gzip" else body
        return arrived, self.body


def full_api_freshness(base: str, d: dict[str, Any], trials: int, clients: int) -> dict[str, Any]:
    """Part 5: seconds from a confirmation (committed) to the full API showing the changed row:
    one client asking back to back (the server part) and ``clients`` clients polling every 1 s
    from random phases (end to end), all at once."""
    from django.db.utils import OperationalError

    url = f"{base}/api/scoring/tournaments/{d['t'].slug}/standings/"
    rnd = random.Random(17)
    server: list[float] = []
    seen: list[float] = []
    game1 = [t for t in d["tables"] if t.game.number == 1]
    watch: dict[str, Any] = {"pid": 0, "before": b"", "committed": None, "seen": {}}
    stop = threading.Event()

    def phone(k: int) -> None:
        poller = _Poller(url)
        stop.wait(rnd.uniform(0, 1.0))
        while not stop.is_set():
            started = time.perf_counter()
            arrived, body = poller.poll()
            committed = watch["committed"]
            if committed is not None and k not in watch["seen"] and _api_row(body, watch["pid"]) != watch["before"]:
                watch["seen"][k] = arrived - committed
            stop.wait(max(0.0, 1.0 - (time.perf_counter() - started)))

    threads = [threading.Thread(target=phone, args=(k,), daemon=True) for k in range(clients)]
    for th in threads:
        th.start()
    front = _Poller(url)
    for _ in range(trials):
        table = rnd.choice(game1)
        pid = int(table.seats.get(number=1).player_id)
        watch.update(pid=pid, before=_api_row(front.poll()[1], pid), committed=None, seen={})
        try:
            correction(dict(d, tables=[table]), rnd)
        except OperationalError as e:  # a deadlock with a task of the worker's (seen once): counted, skipped
            print(f"correction refused by the database ({type(e.__cause__).__name__}): trial skipped", flush=True)
            continue
        committed = watch["committed"] = time.perf_counter()
        while time.perf_counter() - committed < 30:
            arrived, body = front.poll()
            if _api_row(body, pid) != watch["before"]:
                server.append(arrived - committed)
                break
        deadline = time.perf_counter() + 10
        while len(watch["seen"]) < clients and time.perf_counter() < deadline:
            time.sleep(0.05)
        seen += list(watch["seen"].values())
        time.sleep(rnd.uniform(0.2, 0.6))
    stop.set()
    for th in threads:
        th.join()
    server.sort()
    seen.sort()
    return {"server_p50": statistics.median(server), "server_p95": server[int(len(server) * 0.95)],
            "e2e_p50": statistics.median(seen), "e2e_p95": seen[int(len(seen) * 0.95)],
            "trials": len(server), "seen": len(seen)}


def full_api_main(env: dict[str, str], args: argparse.Namespace) -> int:
    """Part 5 alone, at each of ``--full-api-sizes``: a fresh tournament, servers started on it."""
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    results = []
    for n in [int(x) for x in args.full_api_sizes.split(",") if x]:
        call_command("flush", interactive=False, verbosity=0)
        cache.clear()
        d = build("bench", n, 20261122)
        connections.close_all()
        port = args.port or _free_port()
        base = f"http://127.0.0.1:{port}"
        servers = start_servers(env, port)
        try:
            url = f"{base}/api/scoring/tournaments/bench/standings/"
            _wait(url, timeout=120)
            settle(d["t"].pk)
            for _ in range(3):
                _get(url, {"Accept-Encoding": "gzip"})  # both processes warm
            size = len(_get(url)[2])
            gz = len(_get(url, {"Accept-Encoding": "gzip"})[2])
            loads: list[float] = [load_average()]
            stop = threading.Event()
            sampler = sample_load(stop, loads, 2.0)
            cpu0 = server_cpu(servers)
            wall0 = time.perf_counter()
            found = full_api_freshness(base, d, args.trials, args.full_api_clients)
            found["cpu_share"] = (server_cpu(servers) - cpu0) / (time.perf_counter() - wall0)
            stop.set()
            sampler.join()
        finally:
            for server in servers:
                os.killpg(server.pid, signal.SIGTERM)
            for server in servers:
                server.wait(timeout=30)
        found.update(players=n, bytes=size, gzip=gz, load_min=min(loads), load_max=max(loads),
                     load_mean=statistics.mean(loads))
        results.append(found)
        print(f"full API at {n} players ({size} B, gzip {gz} B): server p50 {found['server_p50'] * 1000:.0f} ms "
              f"p95 {found['server_p95'] * 1000:.0f} ms; end to end (1 s poll, {args.full_api_clients} clients) "
              f"p50 {found['e2e_p50']:.2f} s p95 {found['e2e_p95']:.2f} s; server CPU {found['cpu_share']:.2f} s/s; "
              f"load {found['load_min']:.1f}-{found['load_max']:.1f} (mean {found['load_mean']:.1f})", flush=True)
    section = "\n".join([
        f"### Full standings API{' (' + args.label + ')' if args.label else ''}, "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"`benchmarks/live.py --full-api` — Python {platform.python_version()}, {platform.machine()}, nproc "
        f"{os.cpu_count()}; {args.trials} corrections confirmed per size, gunicorn -w 2 -k gthread --threads "
        f"{THREADS}, one Celery worker, PostgreSQL, Redis.",
        "",
        "| players | body (gzip) | server p50 | server p95 | end to end p50 (1 s poll) | end to end p95 | "
        "server CPU s/s | load average (min–max, mean) |",
        "|---|---|---|---|---|---|---|---|",
        *(f"| {r['players']} | {r['bytes'] / 1e6:.2f} MB ({r['gzip'] / 1e3:.0f} kB) | {r['server_p50'] * 1000:.0f} ms | "
          f"{r['server_p95'] * 1000:.0f} ms | {r['e2e_p50']:.2f} s | {r['e2e_p95']:.2f} s | {r['cpu_share']:.2f} | "
          f"{r['load_min']:.1f}–{r['load_max']:.1f}, {r['load_mean']:.1f} |" for r in results),
    ])
    print("\n" + section)
    return 0


def write_section(heading: str, section: str) -> None:
    """Replace docs/benchmarks.md's section whose heading starts with ``heading`` (or add it)."""
    doc = ROOT / "docs" / "benchmarks.md"
    text = doc.read_text()
    pattern = re.compile(re.escape(heading) + r".*?(?=\n## |\Z)", re.S)
    text = pattern.sub(lambda _m: section.rstrip() + "\n", text) if pattern.search(text) else (
        text.rstrip() + "\n\n" + section)
    doc.write_text(text)


def report(out: dict[str, Any], args: argparse.Namespace) -> str:
    lines = [
        "## Live (national scale: polling phones, 304s, the worker's standings)",
        "",
        f"`.venv/bin/python benchmarks/live.py --postgres … --redis …` — {args.players} players in one "
        f"tournament (3 games of {args.players // 4} tables, every result confirmed) plus 30 events of 40 "
        f"players; gunicorn -w 2 -k gthread --threads {THREADS} (keep-alive 5 s), DEBUG off, PostgreSQL, Redis (cache, versions, broker), one Celery "
        f"worker; wrk -t1 -c8 -d{args.seconds}s on the same loopback and cores. Measured "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {out['machine']}, at the end "
        f"{os.getloadavg()[0]:.1f} (sampled during the run: {min(out['loads']):.1f}–{max(out['loads']):.1f}). The static twin of a page is a file of the page's uncompressed size, "
        "served uncompressed: for the big pages (tables, standings API) it costs more than a gzip answer.",
        "",
        "Standings computation: in full (a cold cache), and the worker's incremental step after one "
        "confirmation (never in a request):",
        "",
        "| players | " + " | ".join(str(n) for n in out["compute"]) + " |",
        "|---|" + "---|" * len(out["compute"]),
        "| full, ms | " + " | ".join(f"{v[0] * 1000:.0f}" for v in out["compute"].values()) + " |",
        "| after one confirmation, ms | " + " | ".join(f"{v[1] * 1000:.0f}" for v in out["compute"].values()) + " |",
        "| the task: that and storing it, ms | " + " | ".join(f"{v[2] * 1000:.0f}" for v in out["compute"].values())
        + " |",
        "",
        "Server CPU: microseconds of CPU that gunicorn's processes spent per request during the run "
        "(robust to other work on the cores, unlike requests/s).",
        "",
        "| page | bytes (gzip) | static req/s | 304 req/s | p99 ms | static ÷ 304 | 304 CPU µs | full req/s (gzip) "
        "| p99 ms | static ÷ full | full CPU µs |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in out["pages"]:
        lines.append(f"| {r['name']} | {r['bytes']} ({r['gzip_bytes'] if r['gzip'] else '–'}) | {r['static']:.0f} | "
                     f"{r['cond']['rps']:.0f} | {r['cond']['p99']:.1f} | {r['r304']:.1f}× | {r['cond']['cpu_us']:.0f} "
                     f"| {r['full']['rps']:.0f} | {r['full']['p99']:.1f} | {r['rfull']:.1f}× | {r['full']['cpu_us']:.0f} |")
    v = out.get("visible")
    if v:
        lines += ["", f"From a referee's confirmation to the new total on the leaderboard ({v['trials']} corrections "
                      f"at {args.players} players): server part p50 {v['server_p50'] * 1000:.0f} ms, p95 "
                      f"{v['server_p95'] * 1000:.0f} ms; on phones polling every {POLL} s at random phases p50 "
                      f"{v['phone_p50']:.2f} s, p95 {v['phone_p95']:.2f} s.",
                  "", "Which poll interval meets 2 s: a phone polling every P seconds from a random phase sees a "
                      "change at its first poll after the server has it, so it waits the server part S plus a "
                      "uniform wait on [0, P): p95 ≤ S₉₅ + 0.95 P. With S₉₅ = "
                      f"{v['server_p95']:.2f} s as measured here, P = {POLL} s gives ≤ "
                      f"{v['server_p95'] + 0.95 * POLL:.2f} s, and the longest interval that keeps 2 s is "
                      f"{max(0.0, (2 - v['server_p95']) / 0.95):.2f} s (with S₉₅ = 0.3 s: 1.79 s). The leaderboard "
                      f"polls every {POLL} s; 1,200 phones then make 800 requests/s, nearly all 304s."]
    for c in out.get("crowd", []):
        lines += ["", f"{c['clients']} clients polling their event's leaderboard every {c['period']} s on average "
                      f"(30 events, {c['clients'] // 30} phones each, htmx + If-None-Match, one wrk per event, "
                      f"the events arriving over {c['arrival']:g} s, {c['writes']} results confirmed meanwhile), "
                      f"{args.poll_seconds} s all present: {c['rps']:.0f} req/s, p50 {c['p50']:.1f} ms, "
                      f"p95 {c['p95']:.1f} ms, "
                      f"p99 {c['p99']:.1f} ms, {c['errors'] + c['non2xx']} errors; server CPU {c['cpu_us']:.0f} µs "
                      f"a request ({c['cpu_us'] * c['rps'] / 1e4:.0f}% of one core); load average up to "
                      f"{c['load']:.1f}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
