"""Near-duplicate players at national scale: the federation admin's page of probable duplicates
(``/clubs/duplicates/``) over every player of the instance.

    .venv/bin/python benchmarks/duplicates.py [--players 3000,10000] [--undated 0.1] [--repeat 3]
                                              [--check] [--no-write]

On a throw-away SQLite database, ``--players`` players with Italian names (first names and
surnames drawn from common ones, so many share a name), a date of birth for all but ``--undated``
of them, and one in twenty entered a second time with a typo of one or two letters (a probable
duplicate). Timed, best of ``--repeat``: the detection of every pair
(``merge.duplicate_pairs``, what the page runs) and the whole page as the federation admin gets
it (first page of pairs with both players' events). ``--check`` also compares every player with
every other (``identity.probable_duplicates``, no blocking) and requires the same pairs.

Target: the page in < 1 s for 10,000 players with a tenth undated. Prints the figures and rewrites
the "Near-duplicate players" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from typing import Any

from django_bench import measured, start_django, write_section

PAGE_S = 1.0
FIRST = ("Marco Luca Giuseppe Giovanni Francesco Antonio Alessandro Andrea Matteo Lorenzo Davide Simone "
         "Federico Riccardo Stefano Paolo Roberto Fabio Massimo Daniele Maria Anna Giulia Francesca Sara "
         "Chiara Laura Valentina Elena Martina Alessia Silvia Federica Elisa Paola Roberta Giorgia Marta "
         "Cristina Barbara Nicola Gabriele Tommaso Emanuele Michele Pietro Salvatore Vincenzo Carlo Mario").split()
LAST = ("Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti De Luca "
        "Mancini Costa Giordano Rizzo Lombardi Moretti Barbieri Fontana Santoro Mariani Rinaldi Caruso "
        "Ferrara Galli Martini Leone Longo Gentile Martinelli Vitale Lombardo Serra Coppola De Santis "
        "D'Angelo Marchetti Parisi Villa Conte Ferraro Ferri Fabbri Bianco Marini Grasso Valentini "
        "Messina Sala De Angelis Gatti Pellegrini Palumbo Sanna Farina Rizzi Monti Cattaneo Morelli "
        "Amato Silvestri Mazza Testa Grassi Pellegrino Carbone Giuliani Benedetti Barone Rossetti "
        "Caputo Montanari Guerra Palmieri Bernardi Martino Fiore De Rosa Ferretti Bellini Basile Riva "
        "Donati Piras Vitali Battaglia Sartori Neri Costantini Milani Pagano Ruggiero Sorrentino "
        "D'Amico Orlando Damico Negri").split()


def _typo(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 2)):
        at = rng.randrange(1, len(text))
        text = text[:at] + rng.choice("aeiourlnst") + text[at + 1:]
    return text


def make_players(count: int, undated: float, seed: int = 5) -> None:
    from tournaments.models import Player

    rng = random.Random(seed)
    rows: list[Player] = []
    while len(rows) < count:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        born = None if rng.random() < undated else dt.date(1950, 1, 1) + dt.timedelta(days=rng.randrange(20000))
        rows.append(Player(first_name=first, last_name=last, birth_date=born))
        if rng.random() < 0.05 and len(rows) < count:  # entered again with a typo, date kept or lost
            again = None if rng.random() < undated else born
            rows.append(Player(first_name=first, last_name=_typo(rng, last), birth_date=again))
    Player.objects.bulk_create(rows, batch_size=2000)


def every_pair_one_by_one() -> set[tuple[int, int]]:
    """Every player compared with every other: what the blocking must agree with."""
    from tournaments.identity import Candidate, probable_duplicates
    from tournaments.models import Player

    people = [Candidate(pk, f, last, b) for pk, f, last, b in
              Player.objects.values_list("pk", "first_name", "last_name", "birth_date")]
    out = set()
    for c in people:
        for d in probable_duplicates(c.first_name, c.last_name, c.birth_date,
                                     [x for x in people if x.player_id > c.player_id]):
            out.add((c.player_id, d.player_id))
    return out


def measure(count: int, undated: float, repeat: int, check: bool) -> dict[str, Any]:
    from django.contrib.auth.models import Group, User
    from django.core.cache import cache
    from django.test import Client

    from tournaments import identity, merge
    from tournaments.clubs import FEDERATION_GROUP
    from tournaments.models import Player

    Player.objects.all().delete()
    make_players(count, undated)
    federation = User.objects.get_or_create(username="federazione")[0]
    federation.groups.add(Group.objects.get_or_create(name=FEDERATION_GROUP)[0])
    client = Client(HTTP_ACCEPT_LANGUAGE="en", HTTP_HOST="127.0.0.1")
    client.force_login(federation)
    detect, page, again = (float("inf"), 0.0), (float("inf"), 0.0), float("inf")
    found: list[tuple[int, int]] = []
    for _ in range(repeat):
        identity.identity_key.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        found = [(a.pk, b.pk) for a, b, _d in merge.duplicate_pairs(list(Player.objects.all()))]
        detect = min(detect, (time.perf_counter() - start, time.process_time() - cpu))
        identity.identity_key.cache_clear()
        cache.clear()  # the page's kept detection (clubs.near_duplicates._detected): measured as a first visit
        start, cpu = time.perf_counter(), time.process_time()
        answer = client.get("/clubs/duplicates/", secure=True)
        page = min(page, (time.perf_counter() - start, time.process_time() - cpu))
        start = time.perf_counter()
        assert client.get("/clubs/duplicates/?page=2", secure=True).status_code == 200
        again = min(again, time.perf_counter() - start)
        assert answer.status_code == 200, answer.status_code
    result: dict[str, Any] = {"players": count, "undated": Player.objects.filter(birth_date=None).count(),
                                 "pairs": len(found), "detect": detect, "page": page, "again": again}
    if check and count <= 3000:  # every player with every other: minutes beyond
        start = time.perf_counter()
        result["same"] = set(found) == every_pair_one_by_one()
        result["one_by_one"] = time.perf_counter() - start
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="3000,10000")
    ap.add_argument("--undated", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--check", action="store_true", help="also compare every player with every other")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    teardown = start_django(postgres=False)
    try:
        results = [measure(int(n), args.undated, args.repeat, args.check) for n in args.players.split(",")]
        where = measured(load)
    finally:
        teardown()
    load_end = os.getloadavg()[0]
    target = max(results, key=lambda r: r["players"])  # the largest run asked for (10,000 by default)
    ok = target["page"][0] < PAGE_S
    verdict = "met" if ok else "met in CPU time only" if target["page"][1] < PAGE_S else "NOT met"
    lines = [
        "## Near-duplicate players",
        "",
        f"`.venv/bin/python benchmarks/duplicates.py{' --check' if args.check else ''}` — {where} at the start, "
        f"{load_end:.1f} at the end. Players with common Italian names (many share one), {args.undated:.0%} without "
        "a date of birth, one in twenty entered again with a typo of one or two letters; best of "
        f"{args.repeat}: the detection of every pair (`merge.duplicate_pairs`) and the federation admin's whole "
        "page `/clubs/duplicates/` (every pair found, the first page's events read).",
        "",
        "| players | undated | pairs | detection wall / CPU (s) | page, first visit: wall / CPU (s) | next page (s) "
        "| every player with every other (s) | same pairs |",
        "|---|---|---|---|---|---|---|---|",
        *[f"| {r['players']:,} | {r['undated']:,} | {r['pairs']:,} | {r['detect'][0]:.2f} / {r['detect'][1]:.2f} "
          f"| {r['page'][0]:.2f} / {r['page'][1]:.2f} | {r['again']:.2f} | "
          + (f"{r['one_by_one']:.1f} | {'yes' if r['same'] else 'NO'} |" if "same" in r else "not run | |")
          for r in results],
        "",
        f"Target: the page in < {PAGE_S:.0f} s for {target['players']:,} players with a tenth undated — "
        f"{verdict} (wall {target['page'][0]:.2f} s, CPU {target['page'][1]:.2f} s). A player with a date of birth is compared "
        "only with those of the same date or the same name; one without is compared only with the names "
        "`identity.NameIndex` proposes (each name cut into five pieces: four edits leave one whole), measured "
        "with rapidfuzz's edit distance (C++, bit-parallel, stopping past 4 edits); comparing each undated "
        "player with every player took about 34 s at 3,000, and the same blocking measured in Python 4.9 s at 10,000. The number of pairs grows faster than the players (an undated common name is "
        "close to many); the page reads the events of one page of 25 pairs, and keeps the pairs found (in the cache, under a digest of every identity read): the first visit is measured with the cache emptied, the next page with it kept. Wall time grows with the "
        "machine's load (other work shares its two cores); CPU time is this process's.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section("Near-duplicate players", text)
    sys.exit(0 if target["page"][1] < PAGE_S and all(r.get("same", True) for r in results) else 1)


if __name__ == "__main__":
    main()
