"""Tournament standings as a pure function over plain data (no ORM, no Django).

- K-BEST2 / K-BESTN (format "rtu"): a player's score is the sum of their ``best_n`` best game
  totals (all their games when they played fewer). Ties: extra-objective points of the counted
  games, then armies on the board in the counted games, then the place is shared.
- K-ITALIANA ("italiana"): every game counts, same tie-breaks.
- K-KO ("knockout"): each game is a round; a table's winner (place 1) goes on. Players are
  ranked by the last round they reached, then their place in it, then that game's points,
  extra-objective points and armies; what is still equal is shared.

Ties are broken by a **chain of small named metrics** (:data:`METRICS`: total, wins, best game,
second best, game scores in round order, total after the previous round…) that a preset orders
(:data:`DEFAULT_CHAIN` is K-BEST2's). Each row says which metric separated it from the rows it
was level with on the first metric (``tiebreak``), so the standings explain every tie-break.
K-KO-RCU: with ``final_games`` the players of a final come first, by their place in it (equal
places in parallel finals are level and go on down the chain), then everyone else by the chain.

The result never depends on the order the games arrive in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine import Number, decimal, number
from tournaments import formats
from tournaments.names import sort_key

ZERO = Decimal(0)
LOWEST = Decimal("-Infinity")


@dataclass(frozen=True)
class GameResult:
    player: int
    game: int  # game (round) number, 1-based
    points: Decimal  # tournament points of the game, exact (S-TOURNAMENT: game score + place bonus)
    extra: int = 0  # extra-objective points
    armies: int = 0
    place: int = 0
    table: int = 0  # table number (display only)
    game_score: Decimal = ZERO
    eliminated: bool = False

    def __post_init__(self) -> None:
        # exact whatever the caller gave (an int, a Decimal, a stored number)
        object.__setattr__(self, "points", decimal(self.points))
        object.__setattr__(self, "game_score", decimal(self.game_score))


@dataclass(frozen=True)
class Cell:
    game: int
    points: Decimal
    counted: bool
    place: int
    table: int
    extra: int
    armies: int
    game_score: Decimal


@dataclass
class Row:
    player: int
    rank: int = 0
    shared: bool = False
    total: Decimal = ZERO
    extra: int = 0
    armies: int = 0
    played: int = 0
    reached: int = 0  # K-KO: last round reached
    advanced: bool = False  # K-KO: won their table in the last round played
    cells: list[Cell] = field(default_factory=list)
    wins: int = 0
    finalist: bool = False  # K-KO-RCU: played a final
    tiebreak: str | None = None  # the metric that separated this row from rows level on the first

    def as_dict(self) -> dict[str, object]:
        return {
            "player": self.player, "rank": self.rank, "shared": self.shared,
            "total": _num(self.total), "extra": self.extra, "armies": self.armies,
            "played": self.played, "reached": self.reached, "advanced": self.advanced,
            "wins": self.wins, "finalist": self.finalist, "tiebreak": self.tiebreak,
            "games": [
                {"game": c.game, "points": _num(c.points), "counted": c.counted, "place": _num(c.place),
                 "table": c.table, "extra": c.extra, "armies": c.armies, "game_score": _num(c.game_score)}
                for c in self.cells
            ],
        }


def _num(x: object) -> Number:
    """Exact: 7.2875 stays 7.2875 (engine.exact), a whole number is an int."""
    return number(x)


def best_games(games: list[GameResult], n: int) -> set[int]:
    """The game numbers that count: the n best by points, then extra, armies, earlier game."""
    ranked = sorted(games, key=lambda g: (-g.points, -g.extra, -g.armies, g.game))
    return {g.game for g in ranked[:n]}


# ------------------------------------------------------------------ the tie-break metrics
Value = tuple[Decimal, ...]


@dataclass(frozen=True)
class PlayerGames:
    """What a metric may look at: a player's games in round order and which of them count."""

    games: tuple[GameResult, ...]
    counted: frozenset[int]
    final_games: frozenset[int] = frozenset()

    def counted_games(self) -> list[GameResult]:
        return [g for g in self.games if g.game in self.counted]


def _kth_best(k: int) -> Callable[[PlayerGames], Value]:
    def metric(pg: PlayerGames) -> Value:
        points = sorted((g.points for g in pg.games if g.game not in pg.final_games), reverse=True)
        return (points[k - 1],) if len(points) >= k else (LOWEST,)
    return metric


def _previous_rounds(pg: PlayerGames) -> Value:
    """CNI: the total after the previous round, then two rounds back, and so on."""
    games = [g for g in pg.games if g.game not in pg.final_games]
    last = max((g.game for g in games), default=0)
    return tuple(sum((g.points for g in games if g.game <= r), ZERO) for r in range(last - 1, 0, -1))


def _final_place(pg: PlayerGames) -> Value:
    finals = [g for g in pg.games if g.game in pg.final_games]
    return (Decimal(1), Decimal(-finals[-1].place)) if finals else (ZERO,)


# name → (metric, what it means). Bigger is better for every metric.
METRICS: Mapping[str, tuple[Callable[[PlayerGames], Value], str]] = {
    "final": (_final_place, "place in the final (K-KO-RCU: finalists first)"),
    "total": (lambda pg: (sum((g.points for g in pg.counted_games() if g.game not in pg.final_games), ZERO),),
              "total of the games that count"),
    "wins": (lambda pg: (Decimal(sum(1 for g in pg.games if g.place == 1 and g.game not in pg.final_games)),),
             "games won"),
    "best_game": (_kth_best(1), "best single game"),
    "second_best": (_kth_best(2), "second best game"),
    "third_best": (_kth_best(3), "third best game"),
    "rounds_in_order": (lambda pg: tuple(g.points for g in pg.games if g.game not in pg.final_games),
                        "game scores in round order (round 1 first)"),
    "previous_round": (_previous_rounds, "total after the previous round (then two rounds back…)"),
    "extra": (lambda pg: (Decimal(sum(g.extra for g in pg.counted_games())),),
              "extra-objective points of the games that count"),
    "armies": (lambda pg: (Decimal(sum(g.armies for g in pg.counted_games())),),
               "armies on the board in the games that count"),
    "raw_points": (lambda pg: (sum((g.game_score for g in pg.counted_games()), ZERO),),
                   "table points (P) of the games that count"),
    "raw_points_all": (lambda pg: (sum((g.game_score for g in pg.games), ZERO),), "table points (P) of every game"),
}
DEFAULT_CHAIN: tuple[str, ...] = formats.DEFAULT_CHAIN  # K-BEST2's; written once, in the format's home


def check_chain(chain: Sequence[str]) -> tuple[str, ...]:
    unknown = [m for m in chain if m not in METRICS]
    if unknown or not chain:
        raise ValueError(f"unknown tie-break metrics {unknown} (known: {', '.join(METRICS)})")
    return tuple(chain)


def compute(
    results: Iterable[GameResult],
    *,
    method: str = "rtu",
    best_n: int = 2,
    players: Iterable[int] = (),
    names: Mapping[int, str] | None = None,
    chain: Sequence[str] | None = None,
    final_games: Collection[int] = (),
) -> list[Row]:
    """Standings rows, best first. ``players`` adds registered players with no game yet;
    ``names`` only orders rows that share a place (alphabetically), for a stable display.
    ``chain`` orders the tie-break metrics (default K-BEST2's); ``final_games`` are the game
    numbers of K-KO-RCU finals. The work is :func:`player_entry` for each player (their own games
    only), then :func:`rank` over every entry: a change to one table needs the first for its
    players only (``scoring.selectors`` keeps the entries between computations)."""
    chain, finals = full_chain(chain, final_games)
    by_player: dict[int, dict[int, GameResult]] = defaultdict(dict)
    for r in results:
        by_player[r.player][r.game] = r
    for p in players:
        by_player.setdefault(p, {})
    entries = {player: player_entry(player, games_by_no.values(), method=method, best_n=best_n, chain=chain,
                                    finals=finals)
               for player, games_by_no in by_player.items()}
    return rank(entries, method=method, chain=chain, names=names or {})


def full_chain(chain: Sequence[str] | None, final_games: Collection[int]) -> tuple[tuple[str, ...], frozenset[int]]:
    """The chain as checked (K-KO-RCU: "final" first when there are finals) and the finals."""
    checked = check_chain(chain or DEFAULT_CHAIN)
    finals = frozenset(final_games)
    if finals and checked[0] != "final":
        checked = ("final", *checked)
    return checked, finals


Entry = tuple[Row, list[Value]]


def player_entry(player: int, results: Iterable[GameResult], *, method: str, best_n: int,
                 chain: Sequence[str], finals: frozenset[int], counts: Collection[int] | None = None) -> Entry:
    """One player's row (cells, totals) and metric values, from their games alone. ``counts``:
    the games that count when the caller decided it (a club season's rule), else the method's."""
    games = sorted(results, key=lambda g: g.game)
    if counts is not None:
        counted = set(counts)
    elif method in ("knockout", "italiana"):
        counted = {g.game for g in games}
    else:
        counted = best_games(games, max(1, best_n))
    row = Row(player=player, played=len(games))
    row.wins = sum(1 for g in games if g.place == 1)
    row.finalist = any(g.game in finals for g in games)
    values = [METRICS[m][0](PlayerGames(tuple(games), frozenset(counted), finals)) for m in chain]
    for g in games:
        c = g.game in counted
        row.cells.append(Cell(g.game, g.points, c, g.place, g.table, g.extra, g.armies, g.game_score))
        if c:
            row.total += g.points
            row.extra += g.extra
            row.armies += g.armies
    if games:
        last = games[-1]
        row.reached = last.game
        row.advanced = last.place == 1
    return row, values


def rank(entries: Mapping[int, Entry], *, method: str, chain: Sequence[str], names: Mapping[int, str]) -> list[Row]:
    """Every entry's row in order with its rank, shared places and tie-break (sets them)."""
    rows = [row for row, _values in entries.values()]
    keys = {row.player: order_key(row, values, method) for row, values in entries.values()}
    rows.sort(key=lambda r: (keys[r.player], sort_key(names.get(r.player, "")), r.player))  # ties: by name
    ranks, shared = places([keys[r.player] for r in rows])
    ties = (tiebreaks([entries[r.player][1] for r in rows], chain) if method != "knockout"
            else [None] * len(rows))
    for row, place, level, tie in zip(rows, ranks, shared, ties, strict=True):
        row.rank, row.shared, row.tiebreak = place, level, tie
    return rows


def order_key(row: Row, values: Sequence[Value], method: str) -> tuple[Decimal | int, ...]:
    """What orders a row (smaller first); equal keys share a place. Names, then ids, only order
    rows that share a place."""
    if method == "knockout":
        last = row.cells[-1] if row.cells else None
        return (
            -row.reached,
            last.place if last else 99,
            -(last.points if last else ZERO), -(last.extra if last else 0), -(last.armies if last else 0),
        )
    return tuple(-x for value in values for x in (*value, LOWEST))


def places(keys: Sequence[tuple[Decimal | int, ...]]) -> tuple[list[int], list[bool]]:
    """Ranks and shared marks of rows already in order, from their :func:`order_key`."""
    ranks = [0] * len(keys)
    shared = [False] * len(keys)
    for i, k in enumerate(keys):
        if i and k == keys[i - 1]:
            ranks[i] = ranks[i - 1]
            shared[i] = shared[i - 1] = True
        else:
            ranks[i] = i + 1
    return ranks, shared


SAME = -1  # relation of two rows with identical values: they share a place


def relation(a: Sequence[Value], b: Sequence[Value]) -> int | None:
    """How two rows next to each other in the order relate: :data:`SAME`, the index of the first
    metric after the first one that tells them apart, or None (the first metric does, or a
    knock-out)."""
    if a[0] != b[0]:
        return None
    return next((i for i in range(1, len(a)) if a[i] != b[i]), SAME)


def tiebreaks(values: Sequence[Sequence[Value]], chain: Sequence[str]) -> list[str | None]:
    """Each row's tie-break (rows in order, by their metrics' values): see :func:`tiebreaks_of`."""
    if not values:
        return []
    return tiebreaks_of([relation(values[i], values[i + 1]) for i in range(len(values) - 1)], chain)


def tiebreaks_of(relations: Sequence[int | None], chain: Sequence[str]) -> list[str | None]:
    """Each row's tie-break from the :func:`relation` of each row to the next: the deepest metric
    needed to separate it from any row level with it on the first metric of the chain. Rows with
    identical values are contiguous in the order, and the order compares the metrics one after
    the other, so the row that agrees longest with a given row is in a neighbouring block of
    identical rows: one pass, where comparing every pair was quadratic in the size of a level
    (5,000 players: 0.9 s)."""
    n = len(relations) + 1
    out: list[str | None] = [None] * n
    first = 0
    for end in range(1, n + 1):
        if end < n and relations[end - 1] == SAME:
            continue
        depth = [d for d in (relations[first - 1] if first else None, relations[end - 1] if end < n else None)
                 if d is not None]
        if depth:
            out[first:end] = [chain[max(depth)]] * (end - first)
        first = end
    return out
