"""The statistics' benchmark (docs/statistics.md): the worker time of one recomputation after an
event, on an instance with years of history.

    .venv/bin/python benchmarks/yearly_statistics.py [--players 1000] [--tables 10000] [--clubs 20] [--no-write]

The history is like the rating benchmark's (benchmarks/rating.py: events of 25 tables × 4 games,
four players a table, a random finishing order, confirmed results stored in bulk, one event a
week), with tournament points, one table in four a final board entered at the table (a recorded
game, its cards known), its events spread over ``--clubs`` clubs and its players over the same clubs. Then ``clubstats.services.recompute`` (what
the task after each finished event runs, and ``manage.py rebuild_statistics``) is timed twice:
the first computes every event's standings too (a fresh instance's cache is empty), the second
finds them computed, as a worker after an event does. Prints the figures and rewrites the
"Statistics (SQLite)" or "Statistics (PostgreSQL)" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import time
from typing import Any

from django_bench import database, measured, start_django, write_section

POINTS = {1: 10, 2: 6, 3: 3, 4: 1}
TABLES_PER_GAME, GAMES_PER_EVENT = 25, 4


def _result(rng: random.Random, people: list[int], recorded: bool) -> dict[str, Any]:
    places = list(range(1, 5))
    rng.shuffle(places)
    scores = [{"seat": i + 1, "player": p, "place": place, "tournament_points": POINTS[place], "game_score": 0,
               "extra_objective": 0, "armies": 0, "tiebreak": None, "eliminated": None}
              for i, (p, place) in enumerate(zip(people, places, strict=True))]
    cards = rng.sample([f"RTU-{n:02d}" for n in range(1, 17)], 4)
    data = {"players": [{"seat": i + 1, "objective": c} for i, c in enumerate(cards)]} if recorded else {}
    ending = rng.choice(["objective", "sdadata"]) if recorded else "sdadata"
    return {"kind": "board" if recorded else "short", "ended_by": ending, "scores": scores, "data": data}


def populate(players: int, tables: int, seed: int = 28) -> None:
    from django.contrib.auth import get_user_model

    from scoring.models import Confirmation, ResultSubmission
    from tables.models import Game, Table
    from tournaments.models import Player, Tournament

    rng = random.Random(seed)
    ids = [p.pk for p in Player.objects.bulk_create(
        Player(first_name=f"Nome{i}", last_name=f"Cognome{i}", normalised_name=f"nome{i} cognome{i}")
        for i in range(players))]
    user = get_user_model().objects.create(username="bench")
    day = dt.date(2020, 1, 4)
    for e in range(-(-tables // (TABLES_PER_GAME * GAMES_PER_EVENT))):
        event = Tournament.objects.create(name=f"Evento {e}", slug=f"evento-{e}", date=day + dt.timedelta(days=7 * e),
                                          status=Tournament.Status.FINISHED, format="italiana")
        games = Game.objects.bulk_create(Game(tournament=event, number=n + 1) for n in range(GAMES_PER_EVENT))
        made = Table.objects.bulk_create(Table(game=g, number=t + 1) for g in games for t in range(TABLES_PER_GAME))
        subs = ResultSubmission.objects.bulk_create(
            ResultSubmission(table=t, tournament=event, number=1, **_result(rng, rng.sample(ids, 4), k % 4 == 0))
            for k, t in enumerate(made))
        Confirmation.objects.bulk_create(Confirmation(submission=s, user=user, by_organizer=True) for s in subs)


def spread(clubs: int) -> None:
    from tournaments.models import Club, Player, Tournament

    made = Club.objects.bulk_create(Club(name=f"Circolo {c}") for c in range(clubs))
    for i, club in enumerate(made):
        Tournament.objects.filter(pk__in=[pk for k, pk in enumerate(Tournament.objects.order_by("pk")
                                                                     .values_list("pk", flat=True)) if k % clubs == i]).update(club=club)
        Player.objects.filter(pk__in=[pk for k, pk in enumerate(Player.objects.order_by("pk")
                                                                 .values_list("pk", flat=True)) if k % clubs == i]).update(club=club)


def timed() -> tuple[int, float, float]:
    from clubstats import services

    start, cpu = time.perf_counter(), time.process_time()
    stored = services.recompute()
    return stored, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=10000)
    ap.add_argument("--clubs", type=int, default=20)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    teardown = start_django()
    try:
        from tournaments.models import Tournament

        populate(args.players, args.tables)
        spread(args.clubs)
        events = Tournament.objects.count()
        years = len({d.year for d in Tournament.objects.values_list("date", flat=True)})
        stored, cold, cold_cpu = timed()
        _stored, warm, warm_cpu = timed()
        where, db = measured(load), database()
    finally:
        teardown()
    lines = [
        f"## Statistics ({db})",
        "",
        f"`.venv/bin/python benchmarks/yearly_statistics.py` (prefix `DATABASE_URL=postgres://…` for PostgreSQL) — {where}. "
        f"{args.players:,} players in {args.clubs} clubs, {args.tables:,} tables of four in {events} events over "
        f"{years} years, one table in four a final board entered at the table.",
        "",
        "| what | wall | CPU |",
        "|---|---|---|",
        f"| the recomputation after an event, every event's standings still to compute ({stored:,} sheets) "
        f"| {cold:.1f} s | {cold_cpu:.1f} s |",
        f"| the same with the standings computed (a worker after an event) | {warm:.1f} s | {warm_cpu:.1f} s |",
        "",
        "A worker's time, never a request's: the pages read the stored sheets. Without a worker the "
        "recomputation runs in the request that finishes an event.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section(f"Statistics ({db})", text)


if __name__ == "__main__":
    main()
