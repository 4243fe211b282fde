"""K-RANKING: the national ranking contribution of an event, its yearly rules as data, a year's
ranking explained per player, and the ranking's row formats (events, games, standings). Pure
Python, no ORM.

VT = a × (100 + T) × C, with a = 1.2 for the winner (1 otherwise), every position p ≥ 2 also
× e^(−p/20), p being the position in the event's standings as they were written (tied players
share it, so a tied first is a winner: 1.2 each), T = the event's non-empty tables over all rounds
and C the class of the event's type. An event counts with at least ``min_table_games`` table-games (6 since
2020). A player's year sums, per type, their best events up to the type's cap (a share of the
number N of valid events of that type nationally that year; since 2024 periodic championships
count until 45 rounds instead). A year without its own rules uses the closest earlier year's.
The year's rows are numbered 1..n by the unrounded total (never a shared position).

Arithmetic is exact decimal: a VT is kept unrounded, a player's total is the sum of the unrounded
VTs, and both are shown rounded to one decimal, half down, as the national ranking shows them.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from types import MappingProxyType
from typing import Any

# The ten event types of the clubs' desktop tool and their ranking class C.
TYPES: Mapping[str, str] = MappingProxyType({
    "CNI": "Campionato Nazionale", "RDN": "Raduno Nazionale", "MST": "Torneo Master", "OPN": "Torneo Open",
    "ITC": "Torneo Interclub", "CPP": "Campionato Periodico", "SQD": "Torneo a Squadre", "2V2": "Torneo 2VS2",
    "IVT": "Torneo a Inviti", "AMC": "Amichevoli",
})
CLASSES: Mapping[str, Decimal] = MappingProxyType({
    "RDN": Decimal(5), "MST": Decimal(4), "OPN": Decimal(2), "ITC": Decimal("1.5")})
# Campionato periodico: class by declared rounds (fewer than 3 → 0.2; 6 or more → 1)
CPP_CLASS_BY_ROUNDS: tuple[tuple[int, Decimal], ...] = (
    (6, Decimal(1)), (5, Decimal("0.8")), (4, Decimal("0.7")), (3, Decimal("0.5")), (0, Decimal("0.2")))
WINNER_FACTOR = Decimal("1.2")
DECAY = 20
ONE_DECIMAL = Decimal("0.1")
_CONTEXT = decimal.Context(prec=34)


def shown(value: Decimal) -> Decimal:
    """A VT or a total as the ranking shows it: one decimal, half down."""
    return value.quantize(ONE_DECIMAL, rounding=decimal.ROUND_HALF_DOWN)


@dataclass(frozen=True)
class Cap:
    """How many of a player's events of one type count in a year.

    ``percent`` set: max(``minimum``, floor(``percent`` % × N)) events, N = the valid events of
    that type nationally that year. ``rounds`` set: the best events, added while the rounds
    already counted are fewer than ``rounds`` (so the last one may take the total past it).
    Neither: every event counts."""

    minimum: int = 0
    percent: Decimal | None = None
    rounds: int | None = None

    def events(self, n_events: int) -> int | None:
        if self.percent is None:
            return None
        return max(self.minimum, int(Decimal(n_events) * self.percent / 100))


@dataclass(frozen=True)
class YearRules:
    """One year's rules: the minimum table-games of an event, and the cap of every type that
    counts (a type absent from ``caps`` does not count in that year's ranking)."""

    min_table_games: int
    caps: Mapping[str, Cap] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"min_table_games": self.min_table_games,
                "caps": {k: {"minimum": c.minimum, "percent": str(c.percent) if c.percent is not None else None,
                             "rounds": c.rounds} for k, c in self.caps.items()}}


_ALL = Cap(1, Decimal(100))
_CAPS_2020 = {"MST": Cap(3, Decimal(30)), "OPN": Cap(3, Decimal("13.5")), "RDN": Cap(1, Decimal("33.3")),
              "ITC": Cap(1, Decimal("33.3")), "CPP": _ALL}
# The rules by the year they start from; a year uses the closest earlier entry.
YEAR_RULES: Mapping[int, YearRules] = MappingProxyType({
    2019: YearRules(1, MappingProxyType(dict.fromkeys(("MST", "OPN", "RDN", "ITC", "CPP"), _ALL))),
    2020: YearRules(6, MappingProxyType(_CAPS_2020)),
    2024: YearRules(6, MappingProxyType({**_CAPS_2020, "CPP": Cap(rounds=45)})),
})


def rules_for(year: int) -> YearRules:
    known = [y for y in sorted(YEAR_RULES) if y <= year]
    return YEAR_RULES[known[-1] if known else min(YEAR_RULES)]


def event_class(event_type: str, rounds: int) -> Decimal:
    if event_type == "CPP":
        return next(c for at_least, c in CPP_CLASS_BY_ROUNDS if rounds >= at_least)
    return CLASSES.get(event_type, Decimal(0))


@lru_cache(maxsize=4096)
def _decay(position: int) -> Decimal:
    return (Decimal(-position) / DECAY).exp(_CONTEXT)


def vt_exact(position: int, table_games: int, event_type: str, rounds: int) -> Decimal:
    """The unrounded VT of a player finishing at ``position`` (1 = winner; ties share it)."""
    return _vt(_base(table_games, event_type, rounds), position)


def _base(table_games: int, event_type: str, rounds: int) -> Decimal:
    """(100 + T) × C: what every position of one event shares."""
    return (100 + table_games) * event_class(event_type, rounds)


def _vt(base: Decimal, position: int) -> Decimal:
    if position == 1:
        return base * WINNER_FACTOR
    return _CONTEXT.multiply(base, _decay(position))


def contribution(position: int, table_games: int, event_type: str, rounds: int) -> Decimal:
    """VT as shown (one decimal, half down)."""
    return shown(vt_exact(position, table_games, event_type, rounds))


def excluded_by_blacklist(starts_on: dt.date, ends_on: dt.date | None, start: dt.date, end: dt.date) -> bool:
    """Whether a player blacklisted from ``starts_on`` to ``ends_on`` (None: open ended) loses an
    event held from ``start`` to ``end``, as the national pipeline decides it: an event that began
    before the period is lost when it ends on or after the period's first day; one that began
    within the period is lost only when it also ends by the period's last day. So an event
    straddling the end of the period still counts, and one straddling its start does not."""
    if start < starts_on:
        return end >= starts_on
    return ends_on is None or end <= ends_on


def counts(table_games: int, year: int) -> bool:
    return table_games >= rules_for(year).min_table_games


def event_counts(table_games: int, event_type: str, rounds: int, year: int) -> bool:
    """Whether the national ranking counts the event at all: enough table-games, and a type the
    ranking manages with a class above 0 (as ``year_lines`` decides it for every player)."""
    return (counts(table_games, year) and event_type in rules_for(year).caps
            and event_class(event_type, rounds) > 0)


@dataclass(frozen=True)
class Standing:
    player: int  # national id (≤ 0: ghost or anonymous, never ranked)
    position: int
    points: float = 0
    wins: int = 0
    played: int = 0
    club: str = ""


def event_contributions(
    standings: Iterable[Standing], *, table_games: int, event_type: str, rounds: int, year: int,
) -> dict[int, Decimal]:
    """Every ranked player's VT (as shown) for one event ({} when the event does not count)."""
    if not counts(table_games, year):
        return {}
    return {s.player: contribution(s.position, table_games, event_type, rounds)
            for s in standings if s.player > 0}


# ------------------------------------------------------------------ a year's ranking, explained
COUNTED = "counted"
BELOW_MINIMUM = "below_minimum"  # fewer table-games than the year's minimum
NOT_RANKED_TYPE = "not_ranked_type"  # a type with no class / no cap that year
BEYOND_CAP = "beyond_cap"  # the player's better events of this type already fill the cap
BEYOND_ROUNDS = "beyond_rounds"  # periodic championships: the rounds counted already reach the cap
BLACKLISTED = "blacklisted"  # the player is on the blacklist on the event's dates
REASONS = (COUNTED, BELOW_MINIMUM, NOT_RANKED_TYPE, BEYOND_CAP, BEYOND_ROUNDS, BLACKLISTED)


@dataclass(frozen=True)
class Event:
    """A finished event as the ranking reads it: ``standings`` = (player, position) of every
    player who played (ghosts and anonymous players already left out)."""

    key: Any
    event_type: str
    table_games: int
    rounds: int
    start: dt.date
    end: dt.date
    standings: Sequence[tuple[int, int]] = ()


@dataclass
class Line:
    """One event on a player's card."""

    event: Event
    position: int
    vt: Decimal  # unrounded
    reason: str = COUNTED

    @property
    def counted(self) -> bool:
        return self.reason == COUNTED

    @property
    def shown_vt(self) -> Decimal:
        return shown(self.vt)


@dataclass
class PlayerYear:
    player: int
    lines: list[Line] = field(default_factory=list)
    position: int | None = None
    exact: Decimal = Decimal(0)  # the sum of the unrounded VT counted (set once the caps are applied)

    @property
    def points(self) -> Decimal:
        return shown(self.exact)


@dataclass
class YearRanking:
    year: int
    rules: YearRules
    valid_events: dict[str, int]  # type → N
    caps: dict[str, int | None]  # type → events counted per player (None: no count cap)
    players: list[PlayerYear]  # ranked first (by points), then those with nothing counted


def _is_valid(e: Event, rules: YearRules) -> bool:
    return e.event_type in rules.caps and e.table_games >= rules.min_table_games and bool(e.standings)


def year_ranking(year: int, events: Iterable[Event],
                 blacklisted: Callable[[int, Event], bool] = lambda player, event: False) -> YearRanking:
    """The year's ranking explained per player: every event of each player with its VT, whether
    it counted and, if not, why (``REASONS``)."""
    rules = rules_for(year)
    events = list(events)
    valid: dict[str, int] = defaultdict(int)
    for e in events:
        if _is_valid(e, rules):
            valid[e.event_type] += 1
    caps = {kind: cap.events(valid.get(kind, 0)) for kind, cap in rules.caps.items()}
    mine: dict[int, PlayerYear] = {}
    for e in events:
        managed = e.event_type in rules.caps and event_class(e.event_type, e.rounds) > 0
        base = _base(e.table_games, e.event_type, e.rounds)  # vt_exact's, once per event
        for player, position in e.standings:
            line = Line(e, position, _vt(base, position))
            if not managed:
                line.reason = NOT_RANKED_TYPE
            elif e.table_games < rules.min_table_games:
                line.reason = BELOW_MINIMUM
            elif blacklisted(player, e):
                line.reason = BLACKLISTED
            mine.setdefault(player, PlayerYear(player)).lines.append(line)
    for py in mine.values():
        by_type: dict[str, list[Line]] = defaultdict(list)
        for ln in py.lines:
            if ln.counted:
                by_type[ln.event.event_type].append(ln)
        for kind, lines in by_type.items():
            cap, limit = rules.caps[kind], caps[kind]
            lines.sort(key=lambda ln: (-ln.vt, ln.event.end, str(ln.event.key)))
            taken, rounds = 0, 0
            for ln in lines:
                if limit is not None and taken >= limit:
                    ln.reason = BEYOND_CAP
                elif cap.rounds is not None and rounds >= cap.rounds:
                    ln.reason = BEYOND_ROUNDS  # checked before adding: the last one may pass the cap
                else:
                    taken += 1
                    rounds += ln.event.rounds
        py.lines.sort(key=lambda ln: (ln.event.end, ln.event.start, str(ln.event.key)))
        py.exact = sum((ln.vt for ln in py.lines if ln.counted), Decimal(0))
    # Positions 1..n, never shared, as the national ranking numbers its rows: by the unrounded
    # total, and equal totals in the order the players first appear in the year's events.
    seen = {player: k for k, player in enumerate(dict.fromkeys(
        player for e in sorted(events, key=lambda e: (e.end, e.start, str(e.key)))
        for player, _pos in sorted(e.standings, key=lambda s: s[1])))}
    ranked = sorted((p for p in mine.values() if p.exact > 0), key=lambda p: (-p.exact, seen[p.player], p.player))
    for i, p in enumerate(ranked, start=1):
        p.position = i
    rest = sorted((p for p in mine.values() if p.exact <= 0), key=lambda p: p.player)
    return YearRanking(year, rules, dict(valid), caps, ranked + rest)


@dataclass(frozen=True)
class Result:
    player: int
    event: str
    event_type: str
    vt: Decimal | float
    rounds: int = 0


def yearly_ranking(results: Iterable[Result], year: int) -> dict[int, Decimal]:
    """A player's year from bare VTs (every event valid, N = the distinct events of each type in
    ``results``): per type, the best events up to the type's cap; then the sum over types, shown."""
    rules = rules_for(year)
    by_type_events: dict[str, set[str]] = defaultdict(set)
    mine: dict[tuple[int, str], list[Result]] = defaultdict(list)
    for r in results:
        by_type_events[r.event_type].add(r.event)
        mine[(r.player, r.event_type)].append(r)
    total: dict[int, Decimal] = defaultdict(Decimal)
    for (player, kind), rs in mine.items():
        if kind not in rules.caps:
            continue
        rs.sort(key=lambda r: -Decimal(r.vt))
        cap = rules.caps[kind]
        limit = cap.events(len(by_type_events[kind]))
        taken, rounds = 0, 0
        for r in rs:
            if limit is not None and taken >= limit:
                break
            if cap.rounds is not None and rounds >= cap.rounds:
                break  # checked before adding: the last one may take the total past the cap
            taken += 1
            rounds += r.rounds
            total[player] += Decimal(r.vt)
    return {p: shown(v) for p, v in total.items()}


# ------------------------------------------------------------------ the ranking's row formats
def event_id(first_day: dt.date, organizer: str) -> str:
    """K-RANKING's key of an event: its first round's date ``yyyyMMdd``, " - ", the organizer."""
    return f"{first_day:%Y%m%d} - {organizer.strip()}"


def event_row(*, event: str, name: str, organizer: str, venue: str, start: dt.date, end: dt.date,
              event_type: str, rounds: int, participants: int, table_games: int, note: str = "") -> dict[str, Any]:
    """TORNEI: one row per event."""
    return {"idTorneo": event, "nome": name, "organizzatore": organizer, "sede": venue,
            "dataInizio": start.isoformat(), "dataFine": end.isoformat(), "tipologia": event_type,
            "turni": rounds, "partecipanti": participants, "tavoli": table_games, "note": note}


def game_rows(event: str, games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """PARTITE: one row per table-game; ``games``: round, date, table, seats [(player, score)] in
    seat order, winner. Up to 5 players per row."""
    rows = []
    for g in games:
        row: dict[str, Any] = {"idTorneo": event, "turno": g["round"], "data": g.get("date", ""), "tavolo": g["table"]}
        seats = list(g["seats"])[:5]
        for i in range(5):
            player, score = seats[i] if i < len(seats) else ("", "")
            row[f"giocatore{i + 1}"] = player
            row[f"punteggio{i + 1}"] = score
        row["vincitore"] = g.get("winner", "")
        rows.append(row)
    return rows


def standing_rows(event: str, standings: Iterable[Standing], vt: Mapping[int, Decimal],
                  national_ids: Mapping[int, str] | None = None) -> list[dict[str, Any]]:
    """CLASSIFICHE: one row per player, with the ranking contribution and the player's national
    id when known (the ranking's key across events)."""
    ids = national_ids or {}
    return [{"idTorneo": event, "giocatore": s.player, "idNazionale": ids.get(s.player, ""), "club": s.club,
             "posizione": s.position, "punti": s.points, "vittorie": s.wins, "partiteGiocate": s.played,
             "vt": vt.get(s.player, Decimal(0))}
            for s in standings]
