"""The statistics' writes: the figures stored after an event (a worker's task, or
``manage.py rebuild_statistics``), and a club's ranking rule (its admins; audited).

A recomputation reads every finished event's counting tables and standings once (they are the
instance's, a few thousand tables a year), then rebuilds the sheets of the years asked for and
those over every year; the same tables always give the same figures."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError
from tournaments import audit, clubs
from tournaments.models import Club, Player, Tournament

from . import figures, selectors, simulator
from .figures import EventResult, Play
from .models import ALL_YEARS, RankingRule, Sheet

LOCK = 0x53544154  # "STAT": two recomputations at once take turns
MAX_BEST_N = 100
YEARLY = (Sheet.Kind.CLUB, Sheet.Kind.PLAYER, Sheet.Kind.RANKING)


def _sheet(kind: str, data: dict[str, Any], now: Any, *, year: int = ALL_YEARS, club: int | None = None,
           player: int | None = None) -> Sheet:
    return Sheet(kind=kind, club_id=club, player_id=player, year=year, data=data, computed_at=now)


def _club_sheets(events: Sequence[Tournament], plays: Sequence[Play], years: Sequence[int], now: Any) -> list[Sheet]:
    out = []
    for club in sorted({t.club_id for t in events if t.club_id is not None}):
        mine = [p for p in plays if p.club == club]
        runs = [t for t in events if t.club_id == club]
        for year in years:
            if any(t.date.year == year for t in runs):
                earlier = {s.player for p in mine if p.year < year for s in p.seats}
                data = figures.club_year([p for p in mine if p.year == year],
                                         sum(1 for t in runs if t.date.year == year), earlier)
                out.append(_sheet(Sheet.Kind.CLUB, data, now, year=year, club=club))
        out.append(_sheet(Sheet.Kind.CLUB, figures.club_year(mine, len(runs), None), now, club=club))
        out.append(_sheet(Sheet.Kind.PLAY, figures.play_figures(mine), now, club=club))
    return out


def _player_sheets(plays: Sequence[Play], results: Sequence[EventResult], years: Sequence[int],
                   now: Any) -> list[Sheet]:
    club_of = dict(Player.objects.values_list("pk", "club_id"))
    out = []
    for year in [*years, ALL_YEARS]:
        chosen = [p for p in plays if year in (ALL_YEARS, p.year)]
        kept = [r for r in results if year in (ALL_YEARS, r.day.year)]
        for player, data in figures.player_years(chosen, kept, club_of).items():
            out.append(_sheet(Sheet.Kind.PLAYER, data, now, year=year, player=player))
    return out


def _ranking(results: Sequence[EventResult], rule: RankingRule) -> dict[str, Any]:
    return {"rule": rule.rule, "best_n": rule.best_n, "events": len({r.tournament for r in results}),
            "rows": figures.club_ranking(results, rule.rule, rule.best_n)}


def _ranking_sheets(events: Sequence[Tournament], results: Sequence[EventResult], years: Sequence[int],
                    now: Any, only: int | None = None) -> list[Sheet]:
    by_club: dict[int, set[int]] = defaultdict(set)
    for t in events:
        if t.club_id is not None and only in (None, t.club_id):
            by_club[t.club_id].add(t.pk)
    out = []
    for club, ids in sorted(by_club.items()):
        rule = selectors.rule_of(club)
        mine = [r for r in results if r.tournament in ids]
        for year in [*years, ALL_YEARS]:
            kept = [r for r in mine if year in (ALL_YEARS, r.day.year)]
            if kept:
                out.append(_sheet(Sheet.Kind.RANKING, _ranking(kept, rule), now, year=year, club=club))
    return out


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK])


@transaction.atomic
def recompute(years: Iterable[int] | None = None) -> int:
    """Rebuild the figures of ``years`` (None: every year) and those over every year: clubs,
    players, the clubs' rankings, the recorded games. Returns how many sheets were stored."""
    _lock()
    events = list(selectors.finished_events())
    plays = selectors.plays(events)
    results = selectors.event_results(events)
    every = sorted({t.date.year for t in events})
    todo = every if years is None else sorted({int(y) for y in years} & set(every))
    now = timezone.now()
    sheets = [*_club_sheets(events, plays, todo, now), *_player_sheets(plays, results, todo, now),
              *_ranking_sheets(events, results, todo, now),
              _sheet(Sheet.Kind.PLAY, figures.play_figures(plays), now)]
    stale = Sheet.objects.filter(kind__in=YEARLY)
    if years is not None:
        stale = stale.filter(year__in=[*{int(y) for y in years}, ALL_YEARS])
    stale.delete()
    Sheet.objects.filter(kind=Sheet.Kind.PLAY).delete()
    Sheet.objects.bulk_create(sheets, batch_size=1000)
    return len(sheets)


@transaction.atomic
def rerank(club_id: int) -> int:
    """Rebuild one club's own ranking (its rule changed)."""
    _lock()
    events = list(selectors.finished_events().filter(club_id=club_id))
    years = sorted({t.date.year for t in events})
    sheets = _ranking_sheets(events, selectors.event_results(events), years, timezone.now(), only=club_id)
    Sheet.objects.filter(kind=Sheet.Kind.RANKING, club_id=club_id).delete()
    Sheet.objects.bulk_create(sheets)
    return len(sheets)


def simulated_games() -> int:
    """Games the simulator plays at each table size (setting ``CLUBSTATS_SIMULATED_GAMES``)."""
    return int(getattr(settings, "CLUBSTATS_SIMULATED_GAMES", 100))


def refresh_simulator(force: bool = False) -> bool:
    """Store the simulator's figures unless those stored came from the same seed and counts."""
    games = simulated_games()
    found = selectors.simulator()
    if not force and found is not None and found.data.get("per_size") == games \
            and found.data.get("seed") == simulator.SEED:
        return False
    data = simulator.figures(games)
    with transaction.atomic():
        Sheet.objects.filter(kind=Sheet.Kind.SIMULATOR).delete()
        Sheet.objects.create(kind=Sheet.Kind.SIMULATOR, data=data, computed_at=timezone.now())
    return True


def _check_rule(rule: str, best_n: Any) -> int:
    if rule not in RankingRule.Rule.values:
        raise DomainError(_("Choose how the ranking adds up the events: every event, or the best N."),
                          field="rule", rule="CLUBRANKING")
    try:
        n = int(best_n)
    except (TypeError, ValueError):
        n = 0
    if not 1 <= n <= MAX_BEST_N:
        raise DomainError(_("The events that count must be a whole number from 1 to %(most)s.") % {"most": MAX_BEST_N},
                          field="best_n", rule="CLUBRANKING")
    return n


def set_rule(*, actor: Any, club: Club, rule: str, best_n: Any) -> RankingRule:
    """The club's ranking rule, set by one of its admins (or a federation admin); audited. The
    ranking is rebuilt with it after the commit."""
    if not (clubs.is_club_admin(actor, club) or clubs.is_federation_admin(actor)):
        raise PermissionDeniedError(_("Only an admin of this club may change its ranking rule."), rule="ROLE")
    n = _check_rule(rule, best_n)
    with transaction.atomic():
        current = RankingRule.objects.select_for_update().filter(club=club).first()
        before = {"rule": current.rule, "best_n": current.best_n} if current else None
        saved, _created = RankingRule.objects.update_or_create(club=club, defaults={"rule": rule, "best_n": n})
        audit.record(actor=actor, action="clubstats.ranking_rule", obj=saved, tournament=None, before=before,
                     after={"rule": saved.rule, "best_n": saved.best_n})
        from celery import current_app as app

        transaction.on_commit(lambda: app.tasks["clubstats.tasks.rerank"].delay(club.pk), robust=True)
    return saved
