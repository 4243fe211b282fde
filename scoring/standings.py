"""Tournament standings as a pure function over plain data (no ORM, no Django).

- K-BEST2 / K-BESTN (format "rtu"): a player's score is the sum of their ``best_n`` best game
  totals (all their games when they played fewer). Ties: extra-objective points of the counted
  games, then armies on the board in the counted games, then the place is shared.
- K-ITALIANA ("italiana"): every game counts, same tie-breaks.
- K-KO ("knockout"): each game is a round; a table's winner (place 1) goes on. Players are
  ranked by the last round they reached, then their place in it, then that game's points,
  extra-objective points and armies; what is still equal is shared.

The result never depends on the order the games arrive in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameResult:
    player: int
    game: int  # game (round) number, 1-based
    points: float  # tournament points of the game (S-TOURNAMENT: game score + place bonus)
    extra: int = 0  # extra-objective points
    armies: int = 0
    place: float = 0
    table: int = 0  # table number (display only)
    game_score: float = 0
    eliminated: bool = False


@dataclass(frozen=True)
class Cell:
    game: int
    points: float
    counted: bool
    place: float
    table: int
    extra: int
    armies: int
    game_score: float


@dataclass
class Row:
    player: int
    rank: int = 0
    shared: bool = False
    total: float = 0
    extra: int = 0
    armies: int = 0
    played: int = 0
    reached: int = 0  # K-KO: last round reached
    advanced: bool = False  # K-KO: won their table in the last round played
    cells: list[Cell] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "player": self.player, "rank": self.rank, "shared": self.shared,
            "total": _num(self.total), "extra": self.extra, "armies": self.armies,
            "played": self.played, "reached": self.reached, "advanced": self.advanced,
            "games": [
                {"game": c.game, "points": _num(c.points), "counted": c.counted, "place": _num(c.place),
                 "table": c.table, "extra": c.extra, "armies": c.armies, "game_score": _num(c.game_score)}
                for c in self.cells
            ],
        }


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(float(x), 3)


def _best(games: list[GameResult], n: int) -> set[int]:
    """The game numbers that count: the n best by points, then extra, armies, earlier game."""
    ranked = sorted(games, key=lambda g: (-g.points, -g.extra, -g.armies, g.game))
    return {g.game for g in ranked[:n]}


def compute(
    results: Iterable[GameResult],
    *,
    method: str = "rtu",
    best_n: int = 2,
    players: Iterable[int] = (),
    names: Mapping[int, str] | None = None,
) -> list[Row]:
    """Standings rows, best first. ``players`` adds registered players with no game yet;
    ``names`` only orders rows that share a place (alphabetically), for a stable display."""
    by_player: dict[int, dict[int, GameResult]] = defaultdict(dict)
    for r in results:
        by_player[r.player][r.game] = r
    for p in players:
        by_player.setdefault(p, {})
    names = names or {}
    rows: list[Row] = []
    for player, games_by_no in by_player.items():
        games = sorted(games_by_no.values(), key=lambda g: g.game)
        if method == "knockout":
            counted = {g.game for g in games}
        elif method == "italiana":
            counted = {g.game for g in games}
        else:
            counted = _best(games, max(1, best_n))
        row = Row(player=player, played=len(games))
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
        rows.append(row)

    def key(row: Row) -> tuple[float, ...]:
        if method == "knockout":
            last = row.cells[-1] if row.cells else None
            return (
                -row.reached,
                last.place if last else 99,
                -(last.points if last else 0), -(last.extra if last else 0), -(last.armies if last else 0),
            )
        return (-row.total, -row.extra, -row.armies)

    rows.sort(key=lambda r: (key(r), names.get(r.player, ""), r.player))
    previous: tuple[float, ...] | None = None
    for i, row in enumerate(rows):
        k = key(row)
        if k == previous:
            row.rank = rows[i - 1].rank
            row.shared = rows[i - 1].shared = True
        else:
            row.rank = i + 1
        previous = k
    return rows
