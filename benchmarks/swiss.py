"""Swiss tables benchmark (K-SWISS): our plan (tables/swiss.py, through tables/seating.py) against
the clubs' desktop tool, which fills the tables in standings order and never repairs.

    .venv/bin/python benchmarks/swiss.py [--seeds N] [--no-write]

Scenarios: 1vs1 Svizzera (pairs, a bye against a ghost for an odd count) and BGL Svizzera
(tables of 4, the tables of 3 last), players in clubs of 1 to 6. Round 1 is drawn (clubs apart);
each later round is composed from the same standings and history by both methods; results are
random finishing orders scored with the S-BGL place points plus a random share. Counted per
round and summed over the event: rematches (pairs at one table who met before), same-club pairs,
repeat byes. It prints a table and rewrites the "Swiss tables" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import re
import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.rng import SeededRng  # noqa: E402
from tables.seating import History, Options, SeatingPlayer, compose, table_sizes  # noqa: E402

# (format, players, rounds)
SCENARIOS = (("1vs1 Svizzera", 16, 5), ("1vs1 Svizzera", 33, 6), ("1vs1 Svizzera", 101, 7),
             ("BGL Svizzera", 20, 4), ("BGL Svizzera", 42, 5), ("BGL Svizzera", 101, 5))
SHAPE = {"1vs1 Svizzera": "pairs_bye", "BGL Svizzera": "threes"}
PRIORITIES = {"1vs1 Svizzera": ("repeat_five", "repeat_opponents", "club_apart"),
              "BGL Svizzera": ("repeat_opponents", "club_apart")}
PLACE_POINTS = {1: (100,), 2: (100, 55), 3: (100, 60, 40), 4: (100, 60, 40, 20)}


def players_of(count: int, rng: SeededRng) -> list[SeatingPlayer]:
    out, club = [], 0
    while len(out) < count:
        size = 1 + rng.randbelow(6)
        for _ in range(min(size, count - len(out))):
            out.append(SeatingPlayer(len(out) + 1, club=f"c{club}"))
        club += 1
    return out


def clashes(tables: list[list[int]], history: History, clubs: dict[int, str | None]) -> tuple[int, int, int]:
    met = {frozenset(p) for t in history.tables for p in combinations(t, 2)}
    rematches = sum(frozenset(p) in met for t in tables for p in combinations(t, 2))
    club_pairs = sum(clubs[a] is not None and clubs[a] == clubs[b] for t in tables for a, b in combinations(t, 2))
    byes = sum(history.five_seaters.get(t[0], 0) > 0 for t in tables if len(t) == 1)
    return rematches, club_pairs, byes


def one_event(fmt: str, count: int, rounds: int, seed: int) -> dict[str, list[float]]:
    rng = SeededRng(f"swiss-bench-{seed}", stream="bench")
    players = players_of(count, rng)
    clubs = {p.id: p.club for p in players}
    points = {p.id: 0.0 for p in players}
    history = History()
    totals = {"ours": [0.0, 0.0, 0.0, 0.0], "gt": [0.0, 0.0, 0.0, 0.0]}
    sizes = table_sizes(count, shape=SHAPE[fmt])
    tables: list[list[int]] = []
    for number in range(1, rounds + 1):
        if number == 1:
            opts = Options(priorities=("club_apart",), shape=SHAPE[fmt])
            tables = [list(t) for t in compose(players, history, opts, f"{seed}-1").tables]
        else:
            order = sorted(points, key=lambda p: (-points[p], p))
            standing = {p: i + 1 for i, p in enumerate(order)}
            ranked = [SeatingPlayer(p.id, club=p.club, standing=standing[p.id]) for p in players]
            opts = Options(seeding="swiss", priorities=PRIORITIES[fmt], shape=SHAPE[fmt])
            start = time.perf_counter()
            tables = [list(t) for t in compose(ranked, history, opts, f"{seed}-{number}").tables]
            totals["ours"][3] = max(totals["ours"][3], time.perf_counter() - start)
            straight, pos = [], 0
            for size in sizes:
                straight.append(order[pos:pos + size])
                pos += size
            for key, seated in (("ours", tables), ("gt", straight)):
                for i, n in enumerate(clashes(seated, history, clubs)):
                    totals[key][i] += n
        finishing = []
        for t in tables:
            order_at = list(t)
            rng.shuffle(order_at)
            for place, p in enumerate(order_at):
                points[p] += PLACE_POINTS[max(len(t), 2)][place] + rng.randbelow(1000) / 1000
            finishing.append(order_at)
        history = history.after_game(finishing)
    return {k: list(v) for k, v in totals.items()}


def run(seeds: int) -> list[tuple[str, int, int, list[float], list[float]]]:
    rows = []
    for fmt, count, rounds in SCENARIOS:
        ours, gt = [0.0] * 4, [0.0] * 4
        for seed in range(seeds):
            got = one_event(fmt, count, rounds, seed)
            for i in range(3):
                ours[i] += got["ours"][i] / seeds
                gt[i] += got["gt"][i] / seeds
            ours[3] = max(ours[3], got["ours"][3])
        rows.append((fmt, count, rounds, ours, gt))
    return rows


def render(rows: list[tuple[str, int, int, list[float], list[float]]], seeds: int) -> str:
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"Measured {when} on `{platform.platform()}`, Python {platform.python_version()}; "
           f"averages over {seeds} seeded events per scenario, summed over rounds 2 on.", "",
           "| format | players | rounds | method | rematches | same-club pairs | repeat byes | slowest round (s) |",
           "|---|---|---|---|---|---|---|---|"]
    for fmt, count, rounds, ours, gt in rows:
        out.append(f"| {fmt} | {count} | {rounds} | **ours** | {ours[0]:.2f} | {ours[1]:.2f} | {ours[2]:.2f} | {ours[3]:.2f} |")
        out.append(f"| {fmt} | {count} | {rounds} | clubs' tool (straight fill) | {gt[0]:.2f} | {gt[1]:.2f} | {gt[2]:.2f} | – |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    table = render(run(args.seeds), args.seeds)
    print(table)
    if args.no_write:
        return
    doc = ROOT / "docs" / "benchmarks.md"
    text = doc.read_text(encoding="utf-8")
    intro = ("## Swiss tables\n\n`.venv/bin/python benchmarks/swiss.py [--seeds N]` — Swiss rounds (K-SWISS) "
             "composed by our plan and by the clubs' tool (tables filled in standings order, never repaired) "
             "from the same standings and history; random results. Every player of ours sits at most one "
             "table from their standings block, as the tool's blocks.\n\n")
    section = intro + table + "\n"
    if "## Swiss tables" in text:
        text = re.sub(r"## Swiss tables\n.*?(?=\n## |\Z)", section.rstrip("\n") + "\n", text, flags=re.S)
    else:
        text = text.replace("\n## Engine core", "\n" + section + "\n## Engine core", 1)
    doc.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
