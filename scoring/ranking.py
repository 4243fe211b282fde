"""K-RANKING: the national ranking contribution of an event, its yearly rules as data, and the
ranking's row formats (events, games, standings). Pure Python, no ORM.

VT = a × (100 + T) × C, with a = 1.2 for the winner (1 otherwise), every position p ≥ 2 also
× e^(−p/20) (tied players share a position), T = the table-games over all rounds and C the class
of the event's type. An event counts with at least ``min_table_games`` table-games (6 since
2020). A player's year sums, per type, their best events up to the type's cap (a share of the
number N of valid events of that type nationally that year). A year without its own rules uses
the closest earlier year's.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

# The ten event types of the clubs' desktop tool and their ranking class C.
TYPES: Mapping[str, str] = MappingProxyType({
    "CNI": "Campionato Nazionale", "RDN": "Raduno Nazionale", "MST": "Torneo Master", "OPN": "Torneo Open",
    "ITC": "Torneo Interclub", "CPP": "Campionato Periodico", "SQD": "Torneo a Squadre", "2V2": "Torneo 2VS2",
    "IVT": "Torneo a Inviti", "AMC": "Amichevoli",
})
CLASSES: Mapping[str, float] = MappingProxyType({"RDN": 5, "MST": 4, "OPN": 2, "ITC": 1.5})
# Campionato periodico: class by declared rounds (fewer than 3 → 0.2; 6 or more → 1)
CPP_CLASS_BY_ROUNDS: tuple[tuple[int, float], ...] = ((6, 1.0), (5, 0.8), (4, 0.7), (3, 0.5), (0, 0.2))
WINNER_FACTOR = 1.2
DECAY = 20.0


@dataclass(frozen=True)
class Cap:
    """How many of a player's events of one type count: max(minimum, floor(share × N)); share
    None = all; ``rounds`` = best events until that many rounds are reached."""

    share: float | None = None
    minimum: int = 0
    rounds: int | None = None

    def events(self, n_events: int) -> int | None:
        if self.share is None:
            return None
        return max(self.minimum, math.floor(self.share * n_events + 1e-9))


@dataclass(frozen=True)
class YearRules:
    min_table_games: int
    caps: Mapping[str, Cap] = field(default_factory=dict)


_CAPS_2020 = {"MST": Cap(0.30, 3), "OPN": Cap(0.135, 3), "RDN": Cap(0.333, 1), "ITC": Cap(0.333, 1), "CPP": Cap()}
YEAR_RULES: Mapping[int, YearRules] = MappingProxyType({
    2019: YearRules(1, MappingProxyType({})),
    2020: YearRules(6, MappingProxyType(_CAPS_2020)),
    2024: YearRules(6, MappingProxyType({**_CAPS_2020, "CPP": Cap(rounds=45)})),
})


def rules_for(year: int) -> YearRules:
    known = [y for y in sorted(YEAR_RULES) if y <= year]
    return YEAR_RULES[known[-1] if known else min(YEAR_RULES)]


def event_class(event_type: str, rounds: int) -> float:
    if event_type == "CPP":
        return next(c for at_least, c in CPP_CLASS_BY_ROUNDS if rounds >= at_least)
    return float(CLASSES.get(event_type, 0.0))


def contribution(position: int, table_games: int, event_type: str, rounds: int) -> float:
    """VT of a player finishing at ``position`` (1 = winner; tied players share a position)."""
    c = event_class(event_type, rounds)
    vt = (100 + table_games) * c
    if position == 1:
        vt *= WINNER_FACTOR
    else:
        vt *= math.exp(-position / DECAY)
    return round(vt, 3)


def counts(table_games: int, year: int) -> bool:
    return table_games >= rules_for(year).min_table_games


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
) -> dict[int, float]:
    """Every ranked player's VT for one event ({} when the event does not count)."""
    if not counts(table_games, year):
        return {}
    return {s.player: contribution(s.position, table_games, event_type, rounds)
            for s in standings if s.player > 0}


@dataclass(frozen=True)
class Result:
    player: int
    event: str
    event_type: str
    vt: float
    rounds: int = 0


def yearly_ranking(results: Iterable[Result], year: int) -> dict[int, float]:
    """A player's year: per type, the best events up to the type's cap; then the sum over types."""
    rules = rules_for(year)
    by_type_events: dict[str, set[str]] = defaultdict(set)
    mine: dict[tuple[int, str], list[Result]] = defaultdict(list)
    for r in results:
        by_type_events[r.event_type].add(r.event)
        mine[(r.player, r.event_type)].append(r)
    total: dict[int, float] = defaultdict(float)
    for (player, kind), rs in mine.items():
        rs.sort(key=lambda r: -r.vt)
        cap = rules.caps.get(kind, Cap())
        limit = cap.events(len(by_type_events[kind]))
        chosen: list[Result] = []
        rounds = 0
        for r in rs:
            if limit is not None and len(chosen) >= limit:
                break
            if cap.rounds is not None and rounds >= cap.rounds:
                break  # checked before adding: the last one may take the total past the cap
            chosen.append(r)
            rounds += r.rounds
        total[player] += sum(r.vt for r in chosen)
    return {p: round(v, 3) for p, v in total.items()}


# ------------------------------------------------------------------ the ranking's row formats
def event_id(last_date: dt.date, organizer: str) -> str:
    return f"{last_date:%Y%m%d} - {organizer}"


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


def standing_rows(event: str, standings: Iterable[Standing], vt: Mapping[int, float],
                  national_ids: Mapping[int, str] | None = None) -> list[dict[str, Any]]:
    """CLASSIFICHE: one row per player, with the ranking contribution and the player's national
    id when known (the ranking's key across events)."""
    ids = national_ids or {}
    return [{"idTorneo": event, "giocatore": s.player, "idNazionale": ids.get(s.player, ""), "club": s.club,
             "posizione": s.position, "punti": s.points, "vittorie": s.wins, "partiteGiocate": s.played,
             "vt": vt.get(s.player, 0.0)}
            for s in standings]
