"""A club season's standings (*Campionato periodico*) as a pure function over its evenings'
results (no ORM, no Django).

Each evening is a tournament with its rounds. What an evening gives the season is the results
that count in that evening's own standings: rehearsal games and unconfirmed results are already
left out (``scoring.selectors``), and so is a game the evening's own best-N drops. The season's
rule then chooses which of them count, per player:

- ``sum``: every evening;
- ``best_evenings``: the N evenings with the highest evening total (then the earlier evening);
- ``best_games``: the N best games of the whole season (K-BESTN);
- ``rounds_2024``: the national ranking's rule for periodic championships since 2024
  (K-RANKING, ``ranking.formula``): the best evenings, each added while the rounds already
  counted are fewer than 45, checked before adding, so the last one may take the total past 45.

The season's games are numbered across its evenings in date order, and the rows are ranked by the
same tie-break metrics, with the same explanations, as an event (``scoring.standings``). The
result never depends on the order the evenings arrive in.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine import number
from ranking.formula import rules_for
from scoring import standings as st

SUM, BEST_EVENINGS, BEST_GAMES, ROUNDS_2024 = "sum", "best_evenings", "best_games", "rounds_2024"
RULES = (SUM, BEST_EVENINGS, BEST_GAMES, ROUNDS_2024)
NEEDS_N = (BEST_EVENINGS, BEST_GAMES)
# the rounds a periodic championship counts since 2024: the national ranking's own number
ROUNDS_CAP: int = rules_for(2024).caps["CPP"].rounds or 45


@dataclass(frozen=True)
class Evening:
    """One evening as the season reads it: ``results`` use the evening's own game numbers;
    ``counted`` holds the (player, game) pairs that count in the evening's standings (None: every
    result counts); ``rounds`` are its declared rounds (rehearsal games are no round)."""

    key: int
    date: dt.date
    rounds: int
    results: tuple[st.GameResult, ...] = ()
    counted: frozenset[tuple[int, int]] | None = None

    def counts(self, result: st.GameResult) -> bool:
        return self.counted is None or (result.player, result.game) in self.counted


@dataclass(frozen=True)
class EveningCell:
    """A player's evening in the season: its total, and how much of it the season counts."""

    evening: int
    total: Decimal
    played: int
    rounds: int
    counted_points: Decimal
    counted: bool  # some of its games count towards the season


@dataclass
class SeasonRow:
    row: st.Row  # rank, shared, total, wins, tiebreak… exactly as an event's row
    evenings: list[EveningCell] = field(default_factory=list)
    rounds_counted: int = 0

    def as_dict(self) -> dict[str, object]:
        return {
            **self.row.as_dict(),
            "rounds_counted": self.rounds_counted,
            "evenings": [{"evening": c.evening, "total": number(c.total), "played": c.played,
                          "rounds": c.rounds, "counted_points": number(c.counted_points),
                          "counted": c.counted} for c in self.evenings],
        }


def check_rule(rule: str, n: int | None) -> None:
    if rule not in RULES:
        raise ValueError(f"unknown season rule {rule!r} (known: {', '.join(RULES)})")
    if rule in NEEDS_N and (n is None or n < 1):
        raise ValueError(f"the rule {rule} needs N of at least 1")


def compute(
    evenings: Iterable[Evening],
    *,
    rule: str = SUM,
    n: int | None = None,
    chain: Sequence[str] | None = None,
    names: Mapping[int, str] | None = None,
) -> list[SeasonRow]:
    """The season's rows, best first (only players with a result that counts in an evening)."""
    check_rule(rule, n)
    full, _finals = st.full_chain(chain, ())
    ordered = sorted(evenings, key=lambda e: (e.date, e.key))
    # season-wide game numbers, evening after evening: "rounds_in_order" reads the season in order
    number: dict[tuple[int, int], int] = {}
    for e in ordered:
        for g in sorted({r.game for r in e.results}):
            number[(e.key, g)] = len(number) + 1
    mine: dict[int, dict[int, list[st.GameResult]]] = defaultdict(lambda: defaultdict(list))
    for e in ordered:
        for r in e.results:
            if e.counts(r):
                mine[r.player][e.key].append(_renumbered(r, number[(e.key, r.game)]))
    entries: dict[int, st.Entry] = {}
    cells: dict[int, list[EveningCell]] = {}
    rounds_counted: dict[int, int] = {}
    for player, by_evening in mine.items():
        counted = _counted(by_evening, ordered, rule, n)
        games = [g for e in ordered for g in by_evening.get(e.key, [])]
        entries[player] = st.player_entry(player, games, method="rtu", best_n=0, chain=full,
                                          finals=frozenset(), counts=counted)
        cells[player] = [_cell(e, by_evening[e.key], counted) for e in ordered if e.key in by_evening]
        rounds_counted[player] = sum(c.rounds for c in cells[player] if c.counted)
    rows = st.rank(entries, method="rtu", chain=full, names=names or {})
    return [SeasonRow(r, cells[r.player], rounds_counted[r.player]) for r in rows]


def _renumbered(r: st.GameResult, game: int) -> st.GameResult:
    return st.GameResult(player=r.player, game=game, points=r.points, extra=r.extra, armies=r.armies,
                         place=r.place, table=r.table, game_score=r.game_score, eliminated=r.eliminated)


def _cell(e: Evening, games: list[st.GameResult], counted: set[int]) -> EveningCell:
    kept = [g for g in games if g.game in counted]
    return EveningCell(e.key, sum((g.points for g in games), st.ZERO), len(games), e.rounds,
                       sum((g.points for g in kept), st.ZERO), bool(kept))


def _counted(by_evening: Mapping[int, list[st.GameResult]], ordered: Sequence[Evening], rule: str,
             n: int | None) -> set[int]:
    """The season game numbers of one player that count under ``rule``."""
    every = {g.game for games in by_evening.values() for g in games}
    if rule == SUM:
        return every
    if rule == BEST_GAMES:
        games = [g for games in by_evening.values() for g in games]
        return st.best_games(games, n or 1)
    # best evenings first: evening total, then extra-objective points, armies, the earlier evening
    order = {e.key: i for i, e in enumerate(ordered)}
    ranked = sorted(by_evening, key=lambda k: (-sum((g.points for g in by_evening[k]), st.ZERO),
                                               -sum(g.extra for g in by_evening[k]),
                                               -sum(g.armies for g in by_evening[k]), order[k]))
    rounds_of = {e.key: e.rounds for e in ordered}
    taken: list[int] = []
    rounds = 0
    for k in ranked:
        if rule == BEST_EVENINGS and len(taken) >= (n or 1):
            break
        if rule == ROUNDS_2024 and rounds >= ROUNDS_CAP:
            break  # checked before adding: the last evening counted may take the total past the cap
        taken.append(k)
        rounds += rounds_of[k]
    return {g.game for k in taken for g in by_evening[k]}


def best_games(evenings: Iterable[Evening]) -> dict[int, Decimal]:
    """Each player's best single-game score of the season, among the results that count in
    their evenings (the final phase's ripescaggio)."""
    best: dict[int, Decimal] = {}
    for e in evenings:
        for r in e.results:
            if e.counts(r) and r.points > best.get(r.player, r.points - 1):
                best[r.player] = r.points
    return best
