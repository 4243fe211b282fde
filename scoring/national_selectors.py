"""Reads of the stored national ranking (K-RANKING) for its pages, API and exports: a fixed
number of queries per call, whatever the number of players."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import QuerySet

from tournaments.models import normalise_name

from .models import NationalRanking, NationalRankingEntry, NationalRankingRow

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
    return qs.order_by("position", "name", "id")


def entries_of(row_ids: list[int]) -> dict[int, list[NationalRankingEntry]]:
    out: dict[int, list[NationalRankingEntry]] = defaultdict(list)
    for e in (NationalRankingEntry.objects.filter(row_id__in=row_ids).select_related("tournament")
              .order_by("row_id", "id")):
        out[e.row_id].append(e)
    return out


def event_dict(e: NationalRankingEntry) -> dict[str, Any]:
    return {"event": e.tournament.slug, "name": e.tournament.name, "type": e.event_type,
            "position": e.position, "vt": float(e.vt), "counted": e.counted, "reason": e.reason}


def row_dicts(rows: list[NationalRankingRow]) -> list[dict[str, Any]]:
    """Rows as the API and the JSON export give them: name and club only, no other personal data."""
    entries = entries_of([r.pk for r in rows])
    return [{"position": r.position, "player": {"id": r.player_id, "name": r.name, "club": r.club},
             "points": float(r.points), "events": [event_dict(e) for e in entries[r.pk]]}
            for r in rows]
