"""Standings benchmark: 500 players × 3 games (125 tables of 4 per game).

    .venv/bin/python benchmarks/standings.py [--players 500] [--repeat 20] [--no-write]

Measures (1) the engine scoring the 375 tables' final boards (what entering results costs,
check_board + score_game through scoring.engine_bridge), (2) the pure standings computation
(scoring/standings.py, K-BEST2) over the 1,500 game results, and (3) the same through the
database: ``scoring.selectors.standings`` (uncached, then cached) on a throw-away SQLite file.
It prints the figures and rewrites the "Standings" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import time

from django_bench import measured, start_django, write_section


def _boards(players: int, rnd: random.Random) -> list[tuple[list[int], dict]]:
    """Random complete boards (4 per table) as short forms: 164 points split among 4 seats."""
    out = []
    ids = list(range(1, players + 1))
    for game in range(1, 4):
        rnd.shuffle(ids)
        for k in range(0, players, 4):
            seated = ids[k:k + 4]
            totals = [0]
            while min(totals) < 8:
                cuts = sorted(rnd.sample(range(8, 157), 3))
                totals = [a - b for a, b in zip([*cuts, 164], [0, *cuts], strict=True)]
            rows = []
            for total in totals:
                obj = rnd.randint(2, min(85, total - 2))
                rows.append({"seat": len(rows) + 1, "objective_points": obj, "extra_points": total - obj,
                             "armies": rnd.randint(10, 100), "eliminated": None, "risiko": False})
            out.append((game, seated, {"players": rows}))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()

    teardown = start_django()
    try:
        text = _measure(args)
    finally:
        teardown()
    print(text)
    if not args.no_write:
        write_section("Standings", text)


def _measure(args: argparse.Namespace) -> str:
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    from scoring import engine_bridge as eb
    from scoring import selectors
    from scoring import standings as st
    from scoring.models import Confirmation, ResultSubmission
    from tables.models import Game, Seat, Table
    from tournaments.models import Player, Registration, Tournament, TournamentRole

    rnd = random.Random(20261122)
    boards = _boards(args.players, rnd)
    ctx = eb.context_for("RTU", {}, "S-RTU")
    seats = [eb.SeatInfo(n, n, f"P{n}") for n in range(1, 5)]

    t0 = time.perf_counter()
    scored = [eb.score_short(ctx, seats, data, "sdadata") for _g, _s, data in boards]
    engine_s = time.perf_counter() - t0

    results = []
    for (game, seated, _d), scores in zip(boards, scored, strict=True):
        for r in scores:
            results.append(st.GameResult(player=seated[r["seat"] - 1], game=game, points=r["tournament_points"],
                                         extra=r["extra_objective"], armies=r["armies"], place=r["place"]))
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        st.compute(results, method="rtu", best_n=2)
        times.append(time.perf_counter() - t0)
    pure_ms = statistics.median(times) * 1000

    # the same through the database
    user = get_user_model().objects.create_user("bench-ref")
    user2 = get_user_model().objects.create_user("bench-ref2")
    t = Tournament.objects.create(name="Bench", slug="bench", date=dt.date(2026, 6, 1))
    TournamentRole.objects.create(tournament=t, user=user, role="referee")
    people = Player.objects.bulk_create(
        [Player(first_name=f"N{i}", last_name=f"C{i}", normalised_name=f"n{i} c{i}") for i in range(args.players)])
    Registration.objects.bulk_create([Registration(tournament=t, player=p) for p in people])
    games = {n: Game.objects.create(tournament=t, number=n) for n in (1, 2, 3)}
    count: dict[int, int] = {}
    for (game, seated, data), scores in zip(boards, scored, strict=True):
        count[game] = count.get(game, 0) + 1
        table = Table.objects.create(game=games[game], number=count[game])
        Seat.objects.bulk_create([Seat(table=table, game=games[game], number=i + 1, player=people[pid - 1])
                                  for i, pid in enumerate(seated)])
        for r in scores:
            r["player"] = people[seated[r["seat"] - 1] - 1].pk
        sub = ResultSubmission.objects.create(table=table, tournament=t, number=1, kind="short",
                                              ended_by="sdadata", data=data, scores=scores, entered_by=user)
        Confirmation.objects.create(submission=sub, user=user2)
    db_times = []
    for _ in range(max(3, args.repeat // 4)):
        cache.clear()
        t0 = time.perf_counter()
        data = selectors.standings(t)
        db_times.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    selectors.standings(t)
    cached_ms = (time.perf_counter() - t0) * 1000
    db_ms = statistics.median(db_times) * 1000
    assert len(data["rows"]) == args.players

    tables = len(boards)
    lines = [
        "## Standings",
        "",
        f"`.venv/bin/python benchmarks/standings.py` — {args.players} players × 3 games ({tables} tables of 4, "
        f"{len(results)} game results), K-BEST2, {measured()}.",
        "",
        "| what | result |",
        "|---|---|",
        f"| engine check + score of one table (short form → board → check/score) | {engine_s / tables * 1000:.2f} ms |",
        f"| pure standings computation (`scoring/standings.py`), median of {args.repeat} | {pure_ms:.1f} ms |",
        f"| `selectors.standings` uncached (a fixed number of queries + compute), median | {db_ms:.0f} ms |",
        f"| `selectors.standings` cached | {cached_ms:.2f} ms |",
        "",
        "Writes invalidate the cache, so a confirmation shows at the leaderboard's next htmx poll "
        "(every 5 s) after one uncached computation.",
        "",
    ]
    return "\n".join(lines)

if __name__ == "__main__":
    main()
