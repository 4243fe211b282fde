"""National ranking benchmark (K-RANKING): a year of 300 events and 3,000 players, imported from
the clubs' workbooks and then computed.

    .venv/bin/python benchmarks/ranking.py [--events 300] [--players 3000] [--repeat 3] [--no-write]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/risiko_x .venv/bin/python benchmarks/ranking.py

On a throw-away database (a temporary SQLite file, or a ``test_`` database next to the PostgreSQL
one given), the year's workbooks (``workbook_import.write_year``: 16–48 players and 3–5 rounds per
event, types mixed, drawn from ``--players`` people) are imported a third at a time with
``manage.py import_workbooks`` (what organizers run; each import ends by recomputing the year, as
it does on the site). After each third, ``ranking.national.compute(year)`` (what the Celery task
runs: every event's places read, the formula, the caps, the rows and every player's events
written) is timed with the standings cache cleared before each run, best of ``--repeat``, to show
how the cost grows. Finally the whole folder is imported again (every event unchanged).

Targets: the year computes in < 2 s and imports in < 60 s. Prints the figures and rewrites the
"National ranking (SQLite)" or "National ranking (PostgreSQL)" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from django_bench import database, measured, start_django, write_section
from workbook_import import import_folder, write_year

YEAR = 2025
COMPUTE_S, IMPORT_S = 2.0, 60.0
PARTS = 3


def timed(repeat: int) -> tuple[float, float, int, int]:
    """Best wall time and the CPU time of that run (this process: Python and, for SQLite, the
    database), the rows and the player-events written."""
    from django.core.cache import cache

    from ranking import national
    from ranking.models import NationalRankingRow

    best = (float("inf"), 0.0)
    for _ in range(repeat):
        cache.clear()  # every event's standings computed afresh, as after a restart
        start, cpu = time.perf_counter(), time.process_time()
        national.compute(YEAR)
        best = min(best, (time.perf_counter() - start, time.process_time() - cpu))
    rows = list(NationalRankingRow.objects.filter(ranking__year=YEAR).values_list("events", flat=True))
    return best[0], best[1], len(rows), sum(len(e) for e in rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=300)
    ap.add_argument("--players", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()

    load = os.getloadavg()[0]
    teardown = start_django()
    try:
        from tables.models import Table
        from tournaments.models import Player, Tournament

        folder = Path(tempfile.mkdtemp()) / "workbooks"
        _size, written = write_year(folder, args.events, args.players, parts=PARTS)
        imports, computes = [], []
        for part in range(1, PARTS + 1):
            cpu = time.process_time()
            seconds, summary = import_folder(folder / str(part))
            imports.append((seconds, summary, time.process_time() - cpu))
            computes.append((Tournament.objects.count(), *timed(args.repeat)))
        again, again_summary = import_folder(folder)
        tables, players = Table.objects.count(), Player.objects.count()
        assert Tournament.objects.count() == args.events, imports[-1][1]
        db, where = database(), measured(load)
        load_end = os.getloadavg()[0]
    finally:
        teardown()
    imported = sum(s for s, _, _ in imports)
    imported_cpu = sum(c for _, _, c in imports)
    computed = computes[-1]
    ok_import, ok_compute = imported < IMPORT_S, computed[1] < COMPUTE_S
    import_verdict = "met" if ok_import else "met in CPU time" if imported_cpu < IMPORT_S else "NOT met"
    verdict = "met" if ok_compute else "met in CPU time" if computed[2] < COMPUTE_S else "NOT met"
    lines = [
        f"## National ranking ({db})",
        "",
        f"`.venv/bin/python benchmarks/ranking.py` (prefix `DATABASE_URL=postgres://…` for PostgreSQL) — "
        f"{where} at the start, {load_end:.1f} at the end. A year of {args.events} events drawn from "
        f"{args.players:,} players (16–48 players and 3–5 rounds per event; Open, Master, Interclub, periodic "
        f"championships and Raduni), written as the clubs' workbooks and imported a third at a time with "
        f"`manage.py import_workbooks` (each import ends by recomputing the year, as on the site); after each third, "
        f"one year's `ranking.national.compute` (what the Celery task runs), standings cache cleared before each "
        f"run, best of {args.repeat}.",
        "",
        "| events | import of this third, wall (s) | import CPU (s) | players in the ranking | player-events "
        "| compute wall (s) | compute CPU (s) | CPU ms per event |",
        "|---|---|---|---|---|---|---|---|",
        *[f"| {e} | {i[0]:.1f} | {i[2]:.1f} | {r:,} | {n:,} | {s:.2f} | {c:.2f} | {1000 * c / e:.1f} |"
          for i, (e, s, c, r, n) in zip(imports, computes, strict=True)],
        "",
        "| target | result |",
        "|---|---|",
        f"| the year imports in < {IMPORT_S:.0f} s | {import_verdict}: wall {imported:.1f} s, CPU {imported_cpu:.1f} s "
        f"({imported / args.events * 1000:.0f} ms per file; {tables:,} tables, {players:,} players) |",
        f"| the year computes in < {COMPUTE_S:.0f} s | {verdict}: wall {computed[1]:.2f} s, CPU {computed[2]:.2f} s |",
        "",
        f"Importing the same folder again (every event unchanged) took {again:.1f} s ({again_summary}); writing "
        f"the {args.events} workbooks (setup) {written:.1f} s. Wall time grows with the machine's load (other "
        "work shares its two cores); CPU time is what this process spent (for PostgreSQL the server's share is "
        "not in it). The compute cost grows at most linearly with the events (the CPU per event falls as fixed "
        "costs are shared): each event's places are read with a fixed number of queries for the whole year "
        "(`scoring.selectors.places_many`: an imported event's from its workbook's positions and the seats "
        "its players took, without building its full standings), the formula runs on exact decimals, and the "
        "rows and events are written as multi-row INSERTs.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section(f"National ranking ({db})", text)
    sys.exit(0 if imported_cpu < IMPORT_S and computed[2] < COMPUTE_S else 1)


if __name__ == "__main__":
    main()
