"""Workbook import benchmark: a year of event workbooks imported into an empty database.

    .venv/bin/python benchmarks/workbook_import.py [--events 300] [--players 3000] [--no-write]

Writes ``--events`` .xls workbooks (as the clubs' tool lays them out: TORNEO, Iscritti, one sheet
per round, Classifica Ridotta) drawn from ``--players`` distinct people (every one plays at least
once; a third carry a national id), 16–48 players and 3–5 rounds per event, into a temporary
folder; then times ``manage.py import_workbooks FOLDER`` on a throw-away SQLite file (every file
opened, checked, matched and stored in its own transaction), and the same folder again (every
event unchanged). Target: the year imports in under 60 s. It prints the figures and rewrites the
"Workbook import" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import random
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

from django_bench import measured, start_django, write_section

TARGET_S = 60.0


def _events(n_events: int, n_players: int, rnd: random.Random) -> list[object]:
    from workbook.event import (
        Event,
        Registrant,
        RoundEntry,
        SeatEntry,
        StandingEntry,
        TableEntry,
    )
    from workbook.spec import TYPES

    people = [(f"Nome{i}", f"Cognome{i}", dt.date(1960, 1, 1) + dt.timedelta(days=rnd.randrange(15000)),
               100000 + i if i % 3 == 0 else None) for i in range(n_players)]
    unseen = list(range(n_players))
    rnd.shuffle(unseen)
    out = []
    for e in range(n_events):
        size = 4 * rnd.randint(4, 12)
        chosen = [unseen.pop() for _ in range(min(size, len(unseen)))]
        chosen += rnd.sample([i for i in range(n_players) if i not in set(chosen)], size - len(chosen))
        regs = [Registrant(k + 1, people[p][0], people[p][1], club=f"CLUB {p % 40}", birth_date=people[p][2],
                           national_id=people[p][3]) for k, p in enumerate(chosen)]
        rounds, totals = [], {r.id: 0.0 for r in regs}
        n_rounds = rnd.randint(3, 5)
        for n in range(1, n_rounds + 1):
            ids = [r.id for r in regs]
            rnd.shuffle(ids)
            tables = []
            for k in range(0, size, 4):
                cuts = sorted(rnd.sample(range(10, 150), 3))
                scores = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 164 - cuts[2]]
                seats = tuple(SeatEntry(s + 1, ids[k + s], float(scores[s])) for s in range(4))
                tables.append(TableEntry(k // 4 + 1, seats))
                for s in seats:
                    totals[s.id] += s.score
            rounds.append(RoundEntry(n, tuple(tables)))
        ranked = sorted(totals, key=lambda i: -totals[i])
        standings = [StandingEntry(1 + sum(1 for o in totals.values() if o > totals[i]), i, totals[i])
                     for i in ranked]
        start = dt.date(2025, 1, 4) + dt.timedelta(days=e)
        kind = rnd.choice(["OPN", "MST", "CPP", "ITC", "RDN"])
        out.append(Event(organizer=f"CLUB {e % 40} [{e}]", name=f"Torneo {e}", type_label=TYPES[kind],
                         planned_rounds=n_rounds, dates=[start] * n_rounds, venue="Sede", registrants=regs,
                         rounds=rounds, standings=standings))
    return out


def write_year(folder: Path, n_events: int, n_players: int, *, parts: int = 1,
               seed: int = 2025) -> tuple[int, float]:
    """A year of ``n_events`` workbooks written into ``folder`` (into ``folder/1`` … ``folder/parts``
    when ``parts`` > 1, the events in date order): (bytes written, seconds)."""
    from workbook.event import file_name, to_book
    from workbook.files import write

    t0 = time.perf_counter()
    events = _events(n_events, n_players, random.Random(seed))
    size = 0
    for k, ev in enumerate(events):
        where = folder / str(1 + k * parts // n_events) if parts > 1 else folder
        where.mkdir(parents=True, exist_ok=True)
        data = write(to_book(ev))  # type: ignore[arg-type]
        size += len(data)
        (where / file_name(ev)).write_bytes(data)  # type: ignore[arg-type]
    return size, time.perf_counter() - t0


def import_folder(folder: Path) -> tuple[float, str]:
    """``manage.py import_workbooks FOLDER`` timed: (seconds, its summary line)."""
    from django.core.management import call_command

    out = io.StringIO()
    start = time.perf_counter()
    with redirect_stdout(out):
        try:
            call_command("import_workbooks", str(folder), "--quiet-warnings", stdout=out)
        except SystemExit:
            pass
    return time.perf_counter() - start, out.getvalue().strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=300)
    ap.add_argument("--players", type=int, default=3000)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()

    load = os.getloadavg()[0]
    teardown = start_django()
    try:
        from tables.models import Table
        from tournaments.models import Player, Tournament

        folder = Path(tempfile.mkdtemp()) / "workbooks"
        size, written = write_year(folder, args.events, args.players)
        first, summary1 = import_folder(folder)
        second, summary2 = import_folder(folder)
        tables = Table.objects.count()
        players = Player.objects.count()
        assert Tournament.objects.count() == args.events, summary1
        assert players == args.players, players
        where = measured(load)
    finally:
        teardown()
    lines = [
        f"{args.events} workbooks written in {written:.1f} s ({size / 2**20:.1f} MB of .xls)",
        f"first import: {first:.1f} s ({summary1}) — {tables:,} tables, {players:,} players",
        f"same folder again: {second:.1f} s ({summary2})",
    ]
    print("\n".join(lines))
    ok = first < TARGET_S
    print("target met" if ok else f"TARGET MISSED: {first:.1f} s ≥ {TARGET_S:.0f} s")
    if not args.no_write:
        write_section("Workbook import", (
            "## Workbook import\n\n"
            "`.venv/bin/python benchmarks/workbook_import.py [--events N] [--players N]` (prefix "
            f"`DATABASE_URL=postgres://…` for PostgreSQL) — {where} (at the start).\n\n"
            f"A year of {args.events} event workbooks (.xls, 16–48 players and 3–5 rounds each) drawn from "
            f"{args.players:,} distinct players, imported into an empty database with "
            "`manage.py import_workbooks FOLDER` (each file opened, checked, its players matched, stored in one "
            "transaction). `benchmarks/ranking.py` runs the same import and then the year's ranking.\n\n"
            "| what | result | target |\n|---|---|---|\n"
            f"| first import of the folder | {first:.1f} s ({first / args.events * 1000:.0f} ms per file; "
            f"{tables:,} tables, {players:,} players) | < {TARGET_S:.0f} s |\n"
            f"| the same folder again (every event unchanged) | {second:.1f} s | — |\n"
            f"| writing the {args.events} workbooks (setup) | {written:.1f} s | — |\n"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
