"""Load benchmark: the public pages of a 500-player tournament under wrk, side by side
with a static file of the same size served by the same gunicorn.

    .venv/bin/python benchmarks/load.py [--players 500] [--seconds 10] [--connections 16]
                                        [--postgres postgres://postgres@127.0.0.1:5432/risiko_load]
                                        [--write]

Builds a throw-away database (a SQLite file, or the given PostgreSQL database, emptied first)
with a 500-player tournament (slug ``bench``): 3 games of 125 tables of 4, every result entered
and confirmed. Starts ``gunicorn -w 2`` (2 cores) on loopback with production settings
(DEBUG off), and runs ``wrk`` (Debian package ``wrk``) against the leaderboard, a game's tables
page, a player's page and the standings API; then against a static file of the same byte size
(whitenoise, same server). Prints requests/s and p50/p99 latency of each and the ratio
static/dynamic (the figure to improve); ``--write`` replaces the "Load" section of
docs/benchmarks.md. wrk runs on the same two cores as gunicorn: the figures are a floor.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BENCH_STATIC = ROOT / "static" / "_load_bench"  # removed again at the end


def _standings_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_standings", ROOT / "benchmarks" / "standings.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(players: int) -> dict[str, str]:
    """The tournament, in the database of the current settings; returns the paths to load."""
    import random

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    from scoring import engine_bridge as eb
    from scoring.models import Confirmation, ResultSubmission
    from tables.models import Game, Seat, Table
    from tournaments.models import Club, Player, Registration, Tournament, TournamentRole

    rnd = random.Random(20261122)
    boards = _standings_module()._boards(players, rnd)
    ctx = eb.context_for("RTU", {}, "S-RTU")
    seat_info = [eb.SeatInfo(n, n, f"P{n}") for n in range(1, 5)]
    user = get_user_model().objects.create_user("bench-ref")
    user2 = get_user_model().objects.create_user("bench-ref2")
    t = Tournament.objects.create(name="Torneo da 500", slug="bench", date=dt.date(2026, 6, 1),
                                  status=Tournament.Status.RUNNING)
    TournamentRole.objects.create(tournament=t, user=user, role="referee")
    clubs = Club.objects.bulk_create([Club(name=f"Club {i}", city="Roma") for i in range(25)])
    people = Player.objects.bulk_create([
        Player(first_name=f"Nome{i}", last_name=f"Cognome{i}", nickname=f"N{i}" if i % 3 else "",
               club=clubs[i % 25], email=f"p{i}@example.org", normalised_name=f"nome{i} cognome{i}")
        for i in range(players)])
    Registration.objects.bulk_create([Registration(tournament=t, player=p) for p in people])
    games = {n: Game.objects.create(tournament=t, number=n) for n in (1, 2, 3)}
    count: dict[int, int] = {}
    for game, seated, data in boards:
        scores = eb.score_short(ctx, seat_info, data, "sdadata")
        count[game] = count.get(game, 0) + 1
        table = Table.objects.create(game=games[game], number=count[game])
        Seat.objects.bulk_create([Seat(table=table, game=games[game], number=i + 1,
                                       player=people[pid - 1]) for i, pid in enumerate(seated)])
        for r in scores:
            r["player"] = people[seated[r["seat"] - 1] - 1].pk
        sub = ResultSubmission.objects.create(table=table, tournament=t, number=1, kind="short",
                                              ended_by="sdadata", data=data, scores=scores,
                                              entered_by=user)
        Confirmation.objects.create(submission=sub, user=user2)
    return {
        "leaderboard": "/t/bench/standings/",
        "tables of game 1": "/t/bench/games/1/tables/",
        "player page": f"/t/bench/standings/player/{people[7].pk}/",
        "standings API": "/api/scoring/tournaments/bench/standings/",
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(url: str, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"gunicorn did not answer {url}")


def _ms(text: str) -> float:
    m = re.match(r"([\d.]+)(us|ms|s)", text)
    assert m, text
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def wrk(url: str, seconds: int, connections: int) -> dict[str, float]:
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s",
                          "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"\s50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"\s99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"rps": rps, "p50": p50, "p99": p99, "non2xx": float(errors.group(1)) if errors else 0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--postgres", default="", help="a PostgreSQL URL (its data is replaced)")
    ap.add_argument("--write", action="store_true", help="rewrite the Load section of docs/benchmarks.md")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        print("needs wrk (apt-get install -y wrk)", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp())
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": args.postgres or f"sqlite:///{tmp}/load.sqlite3",
        "DEBUG": "false", "HTTPS": "false", "SECRET_KEY": "load-benchmark-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING",
    })
    env.pop("REDIS_URL", None)
    os.environ.update(env)
    import django

    django.setup()
    started = time.perf_counter()
    paths = build(args.players)
    built = time.perf_counter() - started
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    BENCH_STATIC.mkdir(exist_ok=True)
    sizes = {}
    server = None
    rows = []
    try:
        # Static twins must exist before gunicorn starts (whitenoise indexes files at start).
        from django.test import Client

        client = Client(HTTP_HOST="127.0.0.1")
        for name, path in paths.items():
            body = client.get(path).content
            sizes[name] = len(body)
            (BENCH_STATIC / f"{len(body)}.html").write_bytes(b"x" * len(body))
        from django.db import connections

        connections.close_all()
        server = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-w", "2", "-b", f"127.0.0.1:{port}",
             "--access-logfile", "-", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True,
        )
        _wait(base + paths["leaderboard"])
        for name, path in paths.items():
            wrk(base + path, 2, args.connections)  # warm up (caches, connections)
            dyn = wrk(base + path, args.seconds, args.connections)
            static_url = f"{base}/static/_load_bench/{sizes[name]}.html"
            _wait(static_url)
            stat = wrk(static_url, args.seconds, args.connections)
            rows.append((name, sizes[name], dyn, stat))
            print(f"{name}: {sizes[name]} B  dynamic {dyn['rps']:.0f} req/s p50 {dyn['p50']:.1f} "
                  f"ms p99 {dyn['p99']:.1f} ms | static {stat['rps']:.0f} req/s p50 "
                  f"{stat['p50']:.1f} ms p99 {stat['p99']:.1f} ms | ratio "
                  f"{stat['rps'] / max(dyn['rps'], 0.01):.1f}x" + (f" NON-2xx {dyn['non2xx']:.0f}"
                                                        if dyn["non2xx"] else ""), flush=True)
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        shutil.rmtree(BENCH_STATIC, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)
    db = "PostgreSQL" if args.postgres else "SQLite"
    lines = [
        "## Load (public pages of a 500-player tournament)",
        "",
        f"`.venv/bin/python benchmarks/load.py{' --postgres …' if args.postgres else ''}` — "
        f"{args.players} players, 3 games × {args.players // 4} tables, all results confirmed; "
        f"gunicorn -w 2 (sync), DEBUG off, {db}, no Redis (per-worker memory cache); "
        f"wrk -t2 -c{args.connections} -d{args.seconds}s on the same loopback and the same 2 "
        f"cores. Measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python "
        f"{platform.python_version()}, nproc {os.cpu_count()} (data built in {built:.0f} s).",
        "",
        "| page | bytes | req/s | p50 ms | p99 ms | static file, same size: req/s | p50 ms | p99 ms "
        "| static ÷ page |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, size, dyn, stat in rows:
        lines.append(f"| {name} | {size} | {dyn['rps']:.0f} | {dyn['p50']:.1f} | {dyn['p99']:.1f} "
                     f"| {stat['rps']:.0f} | {stat['p50']:.1f} | {stat['p99']:.1f} | "
                     f"{stat['rps'] / max(dyn['rps'], 0.01):.1f}× |")
    section = "\n".join(lines) + "\n"
    print("\n" + section)
    if args.write:
        doc = ROOT / "docs" / "benchmarks.md"
        text = doc.read_text()
        pattern = re.compile(r"## Load \(public pages.*?(?=\n## |\Z)", re.S)
        text = pattern.sub(section.rstrip() + "\n", text) if pattern.search(text) else (
            text.rstrip() + "\n\n" + section)
        doc.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
