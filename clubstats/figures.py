"""The statistics' arithmetic, pure: from the tables played (``Play``) to the figures stored.

No Django and no database: ``clubstats.selectors`` reads the tables, ``clubstats.services``
stores what these functions return. Every figure keeps its counts (a rate is stored with the
two numbers it divides), so a page or a CSV shows both and a test can count them by hand.

A win is a first place; a first place shared by two players is a win for each (the standings
count it so). A ghost seat (no player) is nobody's and does not make the table bigger.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

# 95 % two-sided: the normal quantile the Wilson interval uses
Z95 = 1.959963984540054


@dataclass(frozen=True)
class SeatPlay:
    seat: int  # the turn order: seat 1 plays first
    player: int
    place: int
    club: int | None  # the player's club
    objective: str = ""


@dataclass(frozen=True)
class Play:
    """One table that counts: who sat where and finished where. ``recorded``: the game itself was
    recorded (an adjudicated record, or a final board entered at the table with its turn log),
    so its seats, cards, sdadata rolls and ending are known."""

    tournament: int
    club: int | None  # the organising club
    day: date
    table: int
    seats: tuple[SeatPlay, ...]
    recorded: bool = False
    ending: str = ""
    rolls: tuple[tuple[int, ...], ...] = ()

    @property
    def year(self) -> int:
        return self.day.year

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class EventResult:
    """A player's final position in one event's standings."""

    tournament: int
    name: str
    day: date
    player: int
    position: int
    field: int  # players in the standings
    total: str = "0"  # the standings' total (exact, as text)


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 %): (low, high), both 0 without trials.

    Chosen over the normal approximation because the counts here are small (a club's season):
    it never leaves [0, 1] and stays sensible at 0 or all successes."""
    if trials <= 0:
        return 0.0, 0.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # the interval holds the rate itself: at 0 or every success rounding could leave it out by 1e-16
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def proportion(successes: int, trials: int) -> dict[str, Any]:
    """A rate with its counts and 95 % Wilson interval (rounded to 4 places for storage)."""
    low, high = wilson(successes, trials)
    rate = successes / trials if trials else 0.0
    return {"n": successes, "of": trials, "rate": round(rate, 4), "low": round(low, 4), "high": round(high, 4)}


def _wins_by_seat(plays: Iterable[Play]) -> list[dict[str, Any]]:
    tables: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for play in plays:
        for s in play.seats:
            tables[s.seat] += 1
            wins[s.seat] += s.place == 1
    return [{"seat": seat, **proportion(wins[seat], tables[seat])} for seat in sorted(tables)]


# ------------------------------------------------------------------ a club's year


def club_year(plays: Sequence[Play], events: int, earlier: set[int] | None) -> dict[str, Any]:
    """A club's figures over ``plays`` (the tables of its events); ``earlier``: who had played at
    its events before (None: no "new players", as across years)."""
    players = {s.player for p in plays for s in p.seats}
    seats = sum(p.size for p in plays)
    return {
        "events": events,
        "players": len(players),
        "games": len(plays),
        "new_players": None if earlier is None else len(players - earlier),
        "seats": seats,
        "average_table": round(seats / len(plays), 2) if plays else None,
        "wins_by_seat": _wins_by_seat(plays),
    }


# ------------------------------------------------------------------ a player's year

@dataclass
class _Player:
    events: set[int] = field(default_factory=set)
    games: int = 0
    wins: int = 0
    places: int = 0
    clubs: set[int] = field(default_factory=set)


def player_years(plays: Iterable[Play], results: Iterable[EventResult], club_of: Mapping[int, int | None],
                 best: int = 3) -> dict[int, dict[str, Any]]:
    """Every player's figures over ``plays``: events, games, wins, average place, their ``best``
    event results, the clubs they met (their table-mates' clubs other than their own)."""
    acc: dict[int, _Player] = defaultdict(_Player)
    for play in plays:
        for s in play.seats:
            row = acc[s.player]
            row.events.add(play.tournament)
            row.games += 1
            row.wins += s.place == 1
            row.places += s.place
            row.clubs.update(o.club for o in play.seats if o.player != s.player and o.club is not None)
    tops: dict[int, list[EventResult]] = defaultdict(list)
    for r in results:
        tops[r.player].append(r)
    out = {}
    for player, row in acc.items():
        own = club_of.get(player)
        ranked = sorted(tops[player], key=lambda r: (r.position, -r.field, r.day, r.tournament))[:best]
        out[player] = {
            "events": len(row.events), "games": row.games, "wins": row.wins, "place_sum": row.places,
            "average_place": round(row.places / row.games, 2),
            "best": [{"tournament": r.tournament, "name": r.name, "date": r.day.isoformat(),
                      "position": r.position, "field": r.field} for r in ranked],
            "clubs_met": sorted(c for c in row.clubs if c != own),
        }
    return out


# ------------------------------------------------------------------ a club's own ranking

SUM, BEST = "sum", "best"


def club_ranking(results: Iterable[EventResult], rule: str, best_n: int) -> list[dict[str, Any]]:
    """A club's ranking over its events: each player's standings totals, all of them added
    (``sum``) or their ``best_n`` highest (``best``); ties share a position."""
    from decimal import Decimal

    totals: dict[int, list[Decimal]] = defaultdict(list)
    for r in results:
        totals[r.player].append(Decimal(r.total))
    rows = []
    for player, points in totals.items():
        kept = sorted(points, reverse=True)[:best_n] if rule == BEST else points
        rows.append({"player": player, "points": sum(kept, Decimal(0)), "counted": len(kept), "events": len(points)})
    rows.sort(key=lambda r: (-r["points"], -r["events"], r["player"]))
    position = 0
    for i, row in enumerate(rows):
        if i == 0 or row["points"] != rows[i - 1]["points"]:
            position = i + 1
        row["position"] = position
    return [{**row, "points": _text(row["points"])} for row in rows]


def _text(value: Any) -> str:
    """An exact total as the standings write it: 30, 12.5 (never 3E+1)."""
    return str(int(value)) if value == value.to_integral_value() else str(value.normalize())


# ------------------------------------------------------------------ recorded games

def _by_size(plays: Sequence[Play]) -> list[dict[str, Any]]:
    sizes: dict[int, list[Play]] = defaultdict(list)
    for p in plays:
        sizes[p.size].append(p)
    return [{"size": size, "games": len(group), "expected": round(1 / size, 4), "seats": _wins_by_seat(group)}
            for size, group in sorted(sizes.items())]


def _by_objective(plays: Sequence[Play]) -> list[dict[str, Any]]:
    held: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for p in plays:
        for s in p.seats:
            if s.objective:
                held[s.objective] += 1
                wins[s.objective] += s.place == 1
    return [{"objective": card, **proportion(wins[card], held[card])} for card in sorted(held)]


def _sdadata(plays: Sequence[Play]) -> dict[str, Any]:
    """The sdadata rolls: how many, in how many games, and how often a roll ended the game (the
    last roll of a game that ended by sdadata ended it; every other roll did not)."""
    rolls = sum(len(p.rolls) for p in plays)
    rolled = [p for p in plays if p.rolls]
    ended = sum(1 for p in rolled if p.ending == "sdadata")
    sums: Counter[int] = Counter(sum(r) for p in plays for r in p.rolls)
    return {"rolls": rolls, "games": len(rolled), "per_game": round(rolls / len(rolled), 2) if rolled else None,
            "ending": proportion(ended, rolls), "sums": [[total, n] for total, n in sorted(sums.items())]}


def play_figures(plays: Iterable[Play]) -> dict[str, Any]:
    """The figures of recorded games: win rate by seat order, by table size (each seat), by
    objective card; how games end; the sdadata rolls. Each rate with its 95 % Wilson interval."""
    games = [p for p in plays if p.recorded]
    endings: Counter[str] = Counter(p.ending for p in games if p.ending)
    return {
        "games": len(games),
        "by_seat": _wins_by_seat(games),
        "by_size": _by_size(games),
        "by_objective": _by_objective(games),
        "endings": [{"ending": e, **proportion(n, len(games))} for e, n in sorted(endings.items(), key=lambda x: (-x[1], x[0]))],
        "sdadata": _sdadata(games),
    }
