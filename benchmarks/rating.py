"""The rating's benchmark (docs/rating.md): 3,000 players and 50,000 tables rated from scratch,
and the worker time of one confirmation's update.

    .venv/bin/python benchmarks/rating.py [--players 3000] [--tables 50000] [--repeat 3] [--no-write]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/risiko_x .venv/bin/python benchmarks/rating.py

On a throw-away database, events of 25 tables × 4 games (four players a table drawn from
``--players``, a random finishing order, one table in ten with a shared place) are stored with
confirmed results in bulk. Then ``ratings.services.recompute`` (what ``manage.py
recompute_ratings`` runs) is timed once, and the update a confirmation queues
(``ratings.tasks.update_ratings`` on a new table of the last game) best of ``--repeat``. The
updated ratings are checked against a rebuild.

Targets: the rebuild in < 60 s; an update in < 50 ms of worker time. Prints the figures and
rewrites the "Rating (SQLite)" or "Rating (PostgreSQL)" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from typing import Any

from django_bench import database, measured, start_django, write_section

REBUILD_S, UPDATE_MS = 60.0, 50.0
TABLES_PER_GAME, GAMES_PER_EVENT = 25, 4


def _scores(rng: random.Random, people: list[int]) -> list[dict[str, Any]]:
    places = list(range(1, len(people) + 1))
    rng.shuffle(places)
    if rng.random() < 0.1:  # a shared place
        low = sorted(places)[:2]
        places = [low[0] if p in low else p for p in places]
    return [{"seat": i + 1, "player": p, "place": place} for i, (p, place) in enumerate(zip(people, places, strict=True))]


def populate(players: int, tables: int, seed: int = 28) -> tuple[Any, Any]:
    """The instance's history; returns the last event's last game and a user to confirm with."""
    from django.contrib.auth import get_user_model

    from scoring.models import Confirmation, ResultSubmission
    from tables.models import Game, Table
    from tournaments.models import Player, Tournament

    rng = random.Random(seed)
    ids = [p.pk for p in Player.objects.bulk_create(
        Player(first_name=f"Nome{i}", last_name=f"Cognome{i}", normalised_name=f"nome{i} cognome{i}")
        for i in range(players))]
    user = get_user_model().objects.create(username="bench")
    events = -(-tables // (TABLES_PER_GAME * GAMES_PER_EVENT))
    day = dt.date(2020, 1, 4)
    game = None
    for e in range(events):
        event = Tournament.objects.create(name=f"Evento {e}", slug=f"evento-{e}", date=day + dt.timedelta(days=7 * e),
                                          status=Tournament.Status.FINISHED)
        games = Game.objects.bulk_create(Game(tournament=event, number=n + 1) for n in range(GAMES_PER_EVENT))
        made = Table.objects.bulk_create(Table(game=g, number=t + 1) for g in games for t in range(TABLES_PER_GAME))
        subs = ResultSubmission.objects.bulk_create(
            ResultSubmission(table=t, tournament=event, number=1, kind="short", ended_by="sdadata",
                             scores=_scores(rng, rng.sample(ids, 4))) for t in made)
        Confirmation.objects.bulk_create(Confirmation(submission=s, user=user, by_organizer=True) for s in subs)
        game = games[-1]
    return game, user


def update_time(game: Any, user: Any, repeat: int) -> tuple[float, float]:
    """Best wall and CPU ms of the update a confirmation of a new table of ``game`` queues."""
    from ratings import tasks
    from scoring.models import Confirmation, ResultSubmission
    from tables.models import Table
    from tournaments.models import Player

    table = Table.objects.create(game=game, number=TABLES_PER_GAME + 1)
    people = list(Player.objects.order_by("pk").values_list("pk", flat=True)[:4])
    sub = ResultSubmission.objects.create(table=table, tournament_id=game.tournament_id, number=1, kind="short",
                                          ended_by="sdadata", scores=_scores(random.Random(1), people))
    Confirmation.objects.create(submission=sub, user=user, by_organizer=True)
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        tasks.update_ratings(table.pk)
        best = min(best, ((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000))
    return best


def snapshot() -> list[tuple[Any, ...]]:
    from ratings.models import Rating

    return list(Rating.objects.order_by("player").values_list("player", "mu", "sigma", "games"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=3000)
    ap.add_argument("--tables", type=int, default=50000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()

    load = os.getloadavg()[0]
    teardown = start_django()
    try:
        from ratings import services
        from ratings.models import RatedGame

        began = time.perf_counter()
        game, user = populate(args.players, args.tables)
        setup = time.perf_counter() - began
        start, cpu = time.perf_counter(), time.process_time()
        rated = services.recompute()
        rebuild, rebuild_cpu = time.perf_counter() - start, time.process_time() - cpu
        history = RatedGame.objects.count()
        update_ms, update_cpu_ms = update_time(game, user, args.repeat)
        updated = snapshot()
        services.recompute()
        assert snapshot() == updated, "an update differs from a rebuild"
        where, db = measured(load), database()
        load_end = os.getloadavg()[0]
    finally:
        teardown()
    ok_rebuild, ok_update = rebuild_cpu < REBUILD_S, update_cpu_ms < UPDATE_MS
    lines = [
        f"## Rating ({db})",
        "",
        f"`.venv/bin/python benchmarks/rating.py` (prefix `DATABASE_URL=postgres://…` for PostgreSQL) — {where} "
        f"at the start, {load_end:.1f} at the end. {args.players:,} players, {rated:,} tables of four "
        f"(events of {TABLES_PER_GAME} tables × {GAMES_PER_EVENT} games, random finishing orders, one table in ten "
        f"with a shared place), stored with confirmed results in {setup:.0f} s (setup).",
        "",
        "| what | wall | CPU | target |",
        "|---|---|---|---|",
        f"| `recompute_ratings`: every table rated, {history:,} history rows written | {rebuild:.1f} s | "
        f"{rebuild_cpu:.1f} s | < {REBUILD_S:.0f} s: {'met' if ok_rebuild else 'NOT met'} |",
        f"| one confirmation's update (a new table of the last game; best of {args.repeat}) | {update_ms:.1f} ms | "
        f"{update_cpu_ms:.1f} ms | < {UPDATE_MS:.0f} ms of worker time: {'met' if ok_update else 'NOT met'} |",
        "",
        "The update rates again from the confirmed table on (here: that table), reading each of its players' "
        "state from their last history row, and is checked equal to a rebuild. A correction to an old event "
        "replays every table after it, up to a rebuild's cost. CPU time is this process's (for PostgreSQL "
        "the server's share is not in it).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section(f"Rating ({db})", text)
    sys.exit(0 if ok_rebuild and ok_update else 1)


if __name__ == "__main__":
    main()
