"""The clubs' current draw, re-implemented from its manual's description as
the baseline our composition must beat: a shuffle, the "sventurati" (one player with the fewest
earlier 5-seats fixed at each 5-table), then greedy pairwise swaps one priority at a time.

A swap is kept only if it strictly improves the priority being repaired and worsens none of the
higher ones; each pass repeats until nothing changes (at most 15 times) and the whole list is
re-run until stable (at most 15 times). It uses our cost functions, so the comparison is on
exactly the same measures. Seeded here (the original is not) so the benchmark can be rerun.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rng import SeededRng
from tables.seating import (
    History,
    Options,
    SeatingPlayer,
    _Problem,
    _Search,
    _State,
    evaluate,
    table_sizes,
)

MAX_ITERATIONS = 15  # NUMERO_MASSIMO_ITERAZIONI


def _offending(problem: _Problem, s: _State, key: str, t: int, x: int) -> bool:
    """Does player x add to priority ``key`` at table t?"""
    members = s.tables[t]
    if key == "repeat_five":
        return problem.odd_table[t] and problem.five[x] > 0
    for y in members:
        if y == x:
            continue
        if key == "winners_apart" and problem.winner[x] and problem.winner[y]:
            return True
        if key == "club_apart" and problem.club[x] >= 0 and problem.club[x] == problem.club[y]:
            return True
        if key == "region_apart" and problem.region[x] >= 0 and \
                problem.region[x] == problem.region[y]:
            return True
        if key == "repeat_opponents" and y in problem.meet[x]:
            return True
    return False


def greedy_compose(
    players: Sequence[SeatingPlayer], history: History, options: Options, seed: str
) -> tuple[tuple[tuple[int, ...], ...], dict[str, object]]:
    sizes = table_sizes(len(players), options.prefer, options.odd_count)
    problem = _Problem(players, history, sizes)
    rng = SeededRng(seed, stream="club-tool")
    search = _Search(problem, options.priorities, rng)
    order = list(range(problem.n))
    rng.shuffle(order)

    # Sventurati: the 5-tables each get one player with the fewest earlier 5-seats, fixed.
    fixed: set[int] = set()
    tables: list[list[int]] = [[] for _ in sizes]
    if "repeat_five" in options.priorities:
        by_five = sorted(order, key=lambda x: problem.five[x])
        for t, odd in enumerate(problem.odd_table):
            if odd:
                x = by_five.pop(0)
                tables[t].append(x)
                fixed.add(x)
        order = [x for x in order if x not in fixed]
    for t, size in enumerate(sizes):
        while len(tables[t]) < size:
            tables[t].append(order.pop())
    s = search.state(tables)

    keys = list(options.priorities)
    for _ in range(MAX_ITERATIONS):
        changed_any = False
        for k, key in enumerate(keys):
            for _ in range(MAX_ITERATIONS):
                changed = False
                for t in range(len(s.tables)):
                    if _try_table(problem, search, s, keys, k, key, t, fixed):
                        changed = True
                if not changed:
                    break
                changed_any = True
        if not changed_any:
            break
    result = tuple(tuple(problem.ids[x] for x in members) for members in s.tables)
    return result, evaluate(result, players, history, options)


def _try_table(
    problem: _Problem, search: _Search, s: _State, keys: list[str], k: int, key: str, t: int,
    fixed: set[int],
) -> bool:
    """One bad table: swap one offending player with any player elsewhere, first that fits."""
    for x in list(s.tables[t]):
        if not _offending(problem, s, key, t, x):
            continue
        for u in range(len(s.tables)):
            if u == t:
                continue
            for y in list(s.tables[u]):
                if (x in fixed) != (y in fixed):
                    continue  # a "fisso" only swaps with another "fisso"
                delta = search.swap_delta(s, x, y)
                if delta[k] < 0 and all(d <= 0 for d in delta[:k]):
                    search.apply(s, x, y, delta)
                    return True
    return False
