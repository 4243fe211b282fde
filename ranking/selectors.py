"""Reads of the stored national ranking (K-RANKING) for its pages, API and exports: a fixed
number of queries per call, whatever the number of players."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import F, QuerySet

from tournaments.models import normalise_name

from .models import NationalRanking, NationalRankingEvent, NationalRankingRow

MAX_YEAR = 9999


def years() -> list[NationalRanking]:
    """Every year with events, newest first."""
    return list(NationalRanking.objects.filter(events__gt=0).order_by("-year"))


def year(value: int) -> NationalRanking | None:
    if not 0 < value <= MAX_YEAR:
        return None
    return NationalRanking.objects.filter(year=value).first()


def rows(ranking: NationalRanking, query: str = "") -> QuerySet[NationalRankingRow]:
    """The year's rows, ranked first (by position), then those with nothing counted; ``query``
    keeps the rows whose name or nickname contains every word of it (accents and case ignored)."""
    qs = NationalRankingRow.objects.filter(ranking=ranking)
    for word in normalise_name(query).split()[:8]:
        qs = qs.filter(search__contains=word)
    # nulls last on every database (SQLite puts them first): the ranked rows come first
    return qs.order_by(F("position").asc(nulls_last=True), "name", "id")


def events_of(ranking: NationalRanking) -> dict[int, NationalRankingEvent]:
    """The year's events by tournament id, with their tournaments (name, slug, date) and their
    K-RANKING ids (``event_id``, as in the event's workbook)."""
    from . import national

    events = {e.tournament_id: e for e in NationalRankingEvent.objects.filter(ranking=ranking)
              .select_related("tournament")}
    ids = national.event_ids(e.tournament for e in events.values())
    for pk, e in events.items():
        e.event_id = ids[pk]  # type: ignore[attr-defined]
    return events


REASONS = dict(NationalRankingRow.Reason.choices)


def card(row: NationalRankingRow, events: dict[int, NationalRankingEvent]) -> list[dict[str, Any]]:
    """A player's events as pages show them: the event, its type, position, VT, counted, why not."""
    out = []
    for item in row.events:
        e = events.get(item["tournament"])
        if e is None:
            continue
        out.append({"tournament": e.tournament, "event_id": getattr(e, "event_id", ""), "type": e.event_type, "table_games": e.table_games,
                    "position": item["position"], "vt": Decimal(item["vt"]), "reason": item["reason"],
                    "counted": item["reason"] == NationalRankingRow.Reason.COUNTED,
                    "reason_label": str(REASONS.get(item["reason"], item["reason"]))})
    return out


def event_dict(item: dict[str, Any]) -> dict[str, Any]:
    t = item["tournament"]
    return {"event": t.slug, "event_id": item.get("event_id", ""), "name": t.name, "type": item["type"], "position": item["position"],
            "vt": float(item["vt"]), "counted": item["counted"], "reason": item["reason"]}


def row_dicts(ranking: NationalRanking, rows: list[NationalRankingRow]) -> list[dict[str, Any]]:
    """Rows as the API and the JSON export give them: name and club only, no other personal data."""
    events = events_of(ranking)
    return [{"position": r.position, "player": {"id": r.player_id, "name": r.name, "club": r.club},
             "points": float(r.points), "events": [event_dict(item) for item in card(r, events)]}
            for r in rows]


def player_years(player_id: int) -> list[NationalRankingRow]:
    """A player's line of every year's national ranking, newest first (``ranking.year``,
    ``position``, ``points``): one query."""
    return list(NationalRankingRow.objects.filter(player_id=player_id, ranking__events__gt=0)
                .select_related("ranking").order_by("-ranking__year"))
