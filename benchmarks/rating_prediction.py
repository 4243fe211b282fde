"""Does the rating predict? Before each table, the players are ordered by their rating so far,
by their ranking points so far, and at random; each order is compared with how the table really
finished: Kendall's tau-b per table (ties allowed on both sides), averaged, and top-1 accuracy
(the predicted best finished first). Tables whose players are all new are left out (nothing to
predict from).

    .venv/bin/python benchmarks/rating_prediction.py [--seasons 5] [--players 400] [--tables 6000] [--no-write]
    .venv/bin/python benchmarks/rating_prediction.py --instance   # this instance's own tables (settings' database)

Simulated seasons: players with a hidden strength (normal, sd 1), four at a table drawn at
random, the finishing order drawn from a Plackett–Luce model of those strengths (Gumbel noise),
ties never. "Ranking points" here are points per place (4-3-2-1 at four, 5-…-1 at five) summed
over the games played so far: like the national ranking, they grow with attendance. Prints the
figures and rewrites the "Rating: does it predict?" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

Table = Sequence[tuple[int, int]]  # (player, place), place 1 best


def kendall_tau_b(predicted: Sequence[float], actual: Sequence[float]) -> float | None:
    """tau-b of two scorings of the same players (higher = better on both); None when either is
    all ties (nothing to compare)."""
    concordant = discordant = ties_p = ties_a = 0
    for i in range(len(predicted)):
        for j in range(i + 1, len(predicted)):
            p, a = predicted[i] - predicted[j], actual[i] - actual[j]
            if p == 0 and a == 0:
                continue
            if p == 0:
                ties_p += 1
            elif a == 0:
                ties_a += 1
            elif (p > 0) == (a > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_p) * (concordant + discordant + ties_a))
    return (concordant - discordant) / denominator if denominator else None


PROVISIONAL_BELOW = 10


def evaluate(tables: Iterable[Table], seed: int = 1) -> dict[str, tuple[float, float, int]]:
    """{predictor (and, after a slash, the tables it was judged on): (mean tau-b, top-1
    accuracy, tables judged)} over ``tables`` in order; "established" tables are those where
    every player had 10 games or more before it, the others are "with provisional players"."""
    from openskill.models import PlackettLuce

    model, rng = PlackettLuce(), random.Random(seed)
    ratings: dict[int, object] = {}
    games: dict[int, int] = defaultdict(int)
    points: dict[int, float] = defaultdict(float)
    taus: dict[str, list[float]] = defaultdict(list)
    tops: dict[str, list[bool]] = defaultdict(list)
    predictors: dict[str, Callable[[int], float]] = {
        "rating (mu − 3 sigma)": lambda p: ratings[p].ordinal() if p in ratings else 0.0,  # type: ignore[attr-defined]
        "rating (mu)": lambda p: ratings[p].mu if p in ratings else 25.0,  # type: ignore[attr-defined]
        "ranking points so far": lambda p: points[p],
        "chance": lambda p: rng.random(),
    }
    for table in tables:
        players = [p for p, _ in table]
        actual = [-place for _, place in table]
        if any(p in ratings for p in players):
            group = ("established" if min(games[p] for p in players) >= PROVISIONAL_BELOW
                     else "with provisional players")
            for name, score in predictors.items():
                predicted = [score(p) for p in players]
                tau = kendall_tau_b(predicted, actual)
                best = max(predicted)
                picks = [i for i, s in enumerate(predicted) if s == best]
                top = actual[rng.choice(picks)] == max(actual)
                for key in (name, f"{name} / {group}"):
                    if tau is not None:
                        taus[key].append(tau)
                    tops[key].append(top)
        after = model.rate([[ratings.get(p) or model.rating()] for p in players],
                           ranks=[float(place) for _, place in table])
        for p, (new,) in zip(players, after, strict=True):
            ratings[p] = new
        for p, place in table:
            points[p] += len(table) + 1 - place
            games[p] += 1
    return {name: (statistics.fmean(taus[name]), statistics.fmean(tops[name]), len(tops[name]))
            for name in sorted(tops, key=lambda k: ("/" in k, k.partition(" / ")[2], list(predictors).index(k.partition(" / ")[0])))}


def simulated_season(seed: int, players: int, tables: int) -> list[Table]:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    out = []
    for _ in range(tables):
        seated = rng.sample(range(players), 4)
        # strength + Gumbel noise, sorted: a Plackett–Luce draw of the finishing order
        noisy = sorted(seated, key=lambda p: -(strength[p] - math.log(-math.log(rng.random()))))
        out.append([(p, noisy.index(p) + 1) for p in seated])
    return out


def instance_tables() -> list[Table]:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from ratings.selectors import tables_from

    return [t.places for t in tables_from("")]


def table_text(rows: dict[str, list[tuple[float, float, int]]]) -> list[str]:
    lines = ["| predictor | Kendall tau-b per table (mean) | top-1 accuracy | tables judged |", "|---|---|---|---|"]
    for name, runs in rows.items():
        lines.append(f"| {name} | {statistics.fmean(r[0] for r in runs):.3f} | "
                     f"{100 * statistics.fmean(r[1] for r in runs):.1f} % | {sum(r[2] for r in runs):,} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seasons", type=int, default=5)
    ap.add_argument("--players", type=int, default=400)
    ap.add_argument("--tables", type=int, default=6000)
    ap.add_argument("--instance", action="store_true", help="this instance's tables instead of simulated seasons")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    rows: dict[str, list[tuple[float, float, int]]] = defaultdict(list)
    if args.instance:
        for name, figures in evaluate(instance_tables()).items():
            rows[name].append(figures)
        print("\n".join(table_text(rows)))
        return
    for seed in range(args.seasons):
        for name, figures in evaluate(simulated_season(seed, args.players, args.tables), seed).items():
            rows[name].append(figures)
    lines = [
        "## Rating: does it predict?",
        "",
        f"`.venv/bin/python benchmarks/rating_prediction.py` — {args.seasons} simulated seasons of {args.tables:,} "
        f"four-player tables among {args.players} players (hidden strengths, Plackett–Luce finishing orders). "
        "Before each table the players are ordered by each predictor and compared with the real order; chance "
        "expects tau 0 and top-1 25 %. `--instance` runs the same on this instance's own tables.",
        "",
        *table_text(rows),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        from django_bench import write_section

        write_section("Rating: does it predict?", text)


if __name__ == "__main__":
    main()
