"""Careful reads of a club season: its standings from its evenings' standings.

Each evening's standings come from ``selectors.standings_many`` (cached, a fixed number of
queries for the whole season), so an evening counts exactly what its own standings count:
confirmed results only (unless the evening publishes unconfirmed ones), never a rehearsal game,
and no game its own best-N drops. ``season_standings.compute`` then combines them by the
season's rule. Drafts are no evening of the standings yet.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import decimal, number
from scoring import selectors
from scoring import standings as st
from tournaments import labels
from tournaments.models import Season, Tournament

from . import standings as ss
from .services import chain_of


def scored_evenings(season: Season) -> QuerySet[Tournament]:
    return season.evenings.exclude(status=Tournament.Status.DRAFT).order_by("date", "pk")


def _evening(tournament: Tournament, data: dict[str, Any]) -> ss.Evening:
    results, counted = [], set()
    for row in data["rows"]:
        for c in row["games"]:
            results.append(st.GameResult(
                player=row["player"], game=c["game"], points=decimal(c["points"]), extra=c["extra"],
                armies=c["armies"], place=int(decimal(c["place"])), table=c["table"],
                game_score=decimal(c["game_score"])))
            if c["counted"]:
                counted.add((row["player"], c["game"]))
    return ss.Evening(key=tournament.pk, date=tournament.date, rounds=len(data["games"]),
                      results=tuple(results), counted=frozenset(counted))


def standings(season: Season) -> dict[str, Any]:
    """{"rule", "best_n", "chain", "chain_explained", "evenings": [...], "rows": [...]}: every
    row as an event's (rank, shared, total, tiebreak and its label) plus its evenings."""
    evenings = list(scored_evenings(season))
    by_evening = selectors.standings_many(evenings, labelled=False)
    names: dict[int, str] = {}
    clubs: dict[int, str] = {}
    for t in evenings:  # the latest evening's name and club win
        for row in by_evening[t.pk]["rows"]:
            names[row["player"]], clubs[row["player"]] = row["name"], row.get("club", "")
    chain = chain_of(season)
    read = [_evening(t, by_evening[t.pk]) for t in evenings]
    rows = ss.compute(read, rule=season.rule, n=season.best_n, chain=chain, names=names)
    best = ss.best_games(read)
    return {
        "rule": season.rule, "rule_explained": rule_text(season), "best_n": season.best_n,
        "chain": chain, "chain_explained": {m: labels.metric(m) for m in chain},
        "evenings": [{"id": t.pk, "number": i, "name": t.name, "slug": t.slug, "date": t.date,
                      "rounds": len(by_evening[t.pk]["games"])} for i, t in enumerate(evenings, start=1)],
        "rows": [{**r.as_dict(), "name": names.get(r.row.player, "?"), "club": clubs.get(r.row.player, ""),
                  "tiebreak_label": labels.metric(r.row.tiebreak),
                  "evenings_played": sum(1 for c in r.evenings if c.played),
                  "best_game": number(best.get(r.row.player, st.ZERO))} for r in rows],
    }


def rule_text(season: Season) -> str:
    """The season's rule in one sentence of the page's language."""
    n = season.best_n or 0
    return {
        ss.SUM: _("Every evening counts."),
        ss.BEST_EVENINGS: ngettext("Each player's best evening counts.",
                                   "The best %(n)s evenings of each player count.", n) % {"n": n},
        ss.BEST_GAMES: ngettext("Each player's best game counts (K-BESTN).",
                                "The best %(n)s games of each player count (K-BESTN).", n) % {"n": n},
        ss.ROUNDS_2024: _("Each player's best evenings count until %(rounds)s rounds are reached (the "
                          "national rule for periodic championships since 2024, K-RANKING): the last "
                          "evening counted may take the total past it.") % {"rounds": ss.ROUNDS_CAP},
    }.get(season.rule, "")
