"""Team standings (K-TEAM): the rules' arithmetic, pure (no Django).

Every game of a team event is scored per player by the tournament's scoring system (S-GUFO for
the presets: place bonus 12/7/5/3/2, eliminated 3/2/1/0, plus P ÷ 100, × 1.25 at a 5-player table,
× 0.75 at a 3-player table). A team's score is the sum of its best ``best`` results (9), whoever
of its players made them and in whichever round; every result also adds to ``total_all``.

Ties are broken by the best single result, then the best 2, … the best 8 summed, higher first;
teams equal on all of these share the position (1, 2, 2, 4). The clubs' desktop tool has a "wins"
step between the total and the best results that compares a team's wins with themselves, so it
never decides anything: it is left out here, which orders every team exactly as that tool does.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

ZERO = Decimal(0)
BEST = 9
TIE_BREAKS = 8  # best 1, best 2 … best 8


@dataclass(frozen=True)
class TeamResult:
    """One player's result in one game, as it counts for their team."""

    player: int
    game: int
    table: int
    score: Decimal
    won: bool = False


@dataclass(frozen=True)
class TeamRow:
    team: Hashable
    position: int
    shared: bool
    total: Decimal  # the best ``best`` results
    total_all: Decimal  # every result
    wins: int
    counted: tuple[TeamResult, ...]  # the results in ``total``, best first
    results: tuple[TeamResult, ...]  # every result, best first
    bests: tuple[Decimal, ...]  # best 1, best 2 … best 8 summed: the tie-breaks
    tiebreak: int | None = None  # which best-k decided against the team just above (None: the total)


def _ordered(results: Sequence[TeamResult]) -> tuple[TeamResult, ...]:
    """Best first; equal scores in game, table, player order (so the list reads the same every time)."""
    return tuple(sorted(results, key=lambda r: (-r.score, r.game, r.table, r.player)))


def _bests(ordered: Sequence[TeamResult], n: int) -> tuple[Decimal, ...]:
    out, running = [], ZERO
    for k in range(n):
        running += ordered[k].score if k < len(ordered) else ZERO
        out.append(running)
    return tuple(out)


def _key(total: Decimal, bests: tuple[Decimal, ...]) -> tuple[Decimal, ...]:
    return (total, *bests)


def rank(teams: Mapping[Hashable, Sequence[TeamResult]], *, best: int = BEST,
         order: Sequence[Hashable] | None = None) -> list[TeamRow]:
    """The teams ranked. ``order`` (e.g. by name) settles the listing of teams that share a
    position; teams with no result are listed too, last, with 0."""
    listing = list(order) if order is not None else list(teams)
    listing += [t for t in teams if t not in listing]
    built = []
    for team in listing:
        ordered = _ordered(teams.get(team, ()))
        counted = ordered[:best]
        total = sum((r.score for r in counted), ZERO)
        built.append((team, ordered, counted, total, _bests(ordered, min(TIE_BREAKS, best - 1) if best > 1 else 0)))
    built.sort(key=lambda b: tuple(-x for x in _key(b[3], b[4])))  # stable: ``order`` among equals
    rows: list[TeamRow] = []
    for i, (team, ordered, counted, total, bests) in enumerate(built):
        position, shared, decided = i + 1, False, None
        if rows:
            above = rows[-1]
            if _key(above.total, above.bests) == _key(total, bests):
                position, shared = above.position, True
                rows[-1] = replace(above, shared=True)
            elif above.total == total:
                decided = next(k for k, (a, b) in enumerate(zip(above.bests, bests, strict=True), start=1) if a != b)
        rows.append(TeamRow(team, position, shared, total, sum((r.score for r in ordered), ZERO),
                            sum(1 for r in ordered if r.won), counted, ordered, bests, decided))
    return rows
