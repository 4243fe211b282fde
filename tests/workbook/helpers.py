"""Workbooks as the clubs write them, built in the tests (no file from outside the repository)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from workbook import spec
from workbook.book import Book
from workbook.event import (
    Event,
    Registrant,
    RoundEntry,
    SeatEntry,
    StandingEntry,
    TableEntry,
    to_book,
)


def registrants(n: int, *, born: bool = True, start: int = 1) -> list[Registrant]:
    return [Registrant(i, f"Nome{i}", f"Cognome{i}", club="MILANO [RCU]" if i % 2 else "",
                       birth_date=dt.date(1980, 1 + i % 12, 1 + i % 28) if born else None)
            for i in range(start, start + n)]


def table(number: int, ids: Sequence[int], scores: Sequence[float] | None = None) -> TableEntry:
    scores = scores or [60 - 10 * k for k in range(len(ids))]
    return TableEntry(number, tuple(SeatEntry(k + 1, i, float(s)) for k, (i, s) in enumerate(zip(ids, scores,
                                                                                                   strict=True))))


def event(n_players: int = 8, rounds: int = 2, *, organizer: str = "ROMA [Il Gufo]", kind: str = "Torneo Open",
          first: dt.date = dt.date(2025, 3, 1), **extra: Any) -> Event:
    """A finished event: ``rounds`` rounds of 4-player tables rotating the players, and standings
    by total points (ties share a position)."""
    regs = registrants(n_players)
    ids = [r.id for r in regs]
    played: list[RoundEntry] = []
    totals = dict.fromkeys(ids, 0.0)
    for n in range(1, rounds + 1):
        order = ids[n - 1:] + ids[:n - 1]
        tables = []
        for k in range(0, len(order) - len(order) % 4, 4):
            t = table(k // 4 + 1, order[k:k + 4])
            tables.append(t)
            for s in t.seats:
                totals[s.id] += s.score
        played.append(RoundEntry(n, tuple(tables)))
    seated = {s.id for r in played for t in r.tables for s in t.seats}
    ranked = sorted(seated, key=lambda i: (-totals[i], i))
    standings = [StandingEntry(1 + sum(1 for o in seated if totals[o] > totals[i]), i, totals[i], f"Nome{i}",
                               f"Cognome{i}") for i in ranked]
    fields: dict[str, Any] = {"organizer": organizer, "name": "Torneo di prova", "type_label": kind,
                              "planned_rounds": rounds, "dates": [first + dt.timedelta(days=7 * k)
                                                                   for k in range(rounds)],
                              "venue": "Circolo", "registrants": regs, "rounds": played, "standings": standings}
    fields.update(extra)
    return Event(**fields)


def book(ev: Event | None = None) -> Book:
    return to_book(ev or event())


def codes(issues: Sequence[Any]) -> list[str]:
    return sorted({i.code for i in issues})


__all__ = ["book", "codes", "event", "registrants", "spec", "table"]
