"""The event's national ranking rows (K-RANKING: events, games, standings) among the tournament's
spreadsheets (``scoring.exports.TABLES``, registered by :mod:`ranking.apps`)."""

from __future__ import annotations

from typing import Any

from tournaments.models import Tournament

from .event import event_ranking

RANKING_EXPORTS = {"ranking-events": "events", "ranking-games": "games", "ranking-standings": "standings"}


def ranking_table(tournament: Tournament, what: str, national_ids: bool = False
                  ) -> tuple[list[str], list[list[Any]]]:
    """K-RANKING rows (events, games, standings) in the national ranking's column names
    (players' national ids only for an organizer)."""
    rows = event_ranking(tournament, national_ids=national_ids)[RANKING_EXPORTS[what]]
    head = list(rows[0]) if rows else []
    return head, [list(r.values()) for r in rows]


def register() -> None:
    from scoring import exports

    for what in RANKING_EXPORTS:
        exports.TABLES[what] = lambda tournament, ids, what=what: ranking_table(tournament, what, ids)
