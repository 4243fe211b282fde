"""What scoring adds to the operations of tournaments (``tournaments/hooks.py``), registered by
:meth:`scoring.apps.ScoringConfig.ready`: tournaments never imports scoring."""

from __future__ import annotations

from typing import Any

from tables.models import Game, Seat
from tournaments import hooks
from tournaments.models import Player, Registration, Tournament
from tournaments.privacy import iso

from . import national, selectors
from .models import Confirmation, ResultSubmission


def player_data(player: Player) -> dict[str, Any]:
    """The results naming ``player`` and how many results they confirmed (their data export)."""
    results = []
    for sub in ResultSubmission.objects.filter(table__seats__player=player).select_related(
        "table__game__tournament"
    ).distinct():
        mine = [row for row in sub.scores if row.get("player") == player.pk]
        results.append({
            "tournament": sub.tournament.slug, "game": sub.table.game.number,
            "table": sub.table.number, "version": sub.number, "ended_by": sub.ended_by,
            "entered_at": iso(sub.created_at), "scores": mine,
        })
    return {"results": results, "confirmations": Confirmation.objects.filter(player=player).count()}


def player_erased(player: Player, tournaments: list[Tournament], scrub: hooks.Scrub) -> None:
    """Copies of an erased player's name in the stored result data of their tournaments."""
    for sub in ResultSubmission.objects.filter(tournament__in=tournaments).iterator():
        data, changed = scrub(sub.data)
        if changed:
            ResultSubmission.objects.filter(pk=sub.pk).update(data=data)


def players_merged(drop: int, keep: int) -> None:
    """Stored results name players by id (scores of every seat): the dropped id becomes the kept
    one; the national ranking and the cached standings that name either are refreshed."""
    for sub in ResultSubmission.objects.filter(table__seats__player_id=keep).distinct():
        scores = [dict(r, player=keep) if r.get("player") == drop else r for r in sub.scores]
        if scores != sub.scores:
            ResultSubmission.objects.filter(pk=sub.pk).update(scores=scores)
    national.players_changed([keep, drop])  # the national ranking's rows of both
    for tid in set(Registration.objects.filter(player_id=keep).values_list("tournament_id", flat=True)):
        selectors.invalidate(tid)  # cached standings name the dropped player


def audit_context(ids: set[int]) -> dict[int, dict[str, Any]]:
    """The table and game of each result an audit entry is about."""
    return {sub.pk: {"table": sub.table.number, "game": sub.table.game.number}
            for sub in ResultSubmission.objects.filter(pk__in=ids).select_related("table__game")}


VOLATILE = ("stamp", "computed_at", "generation")


def published_play(tournament: Tournament) -> dict[str, Any]:
    """A published tournament's games (tables, seats, counting result) and standings."""
    games = list(Game.objects.filter(tournament=tournament).prefetch_related("tables").order_by("number"))
    seats = list(Seat.objects.filter(game__tournament=tournament).order_by("table_id", "number"))
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    conf = selectors.settings_for(tournament)
    counting = {state.table.pk: sub for state, sub in selectors.counted_results(tournament, conf)}
    standings = selectors._standings(tournament)
    return {
        "games": [{
            "number": g.number,
            "status": g.status,
            "rehearsal": g.rehearsal,
            # the event's days (national ranking: its year and first round) come from these
            "started_at": g.started_at.isoformat() if g.started_at else None,
            "finished_at": g.finished_at.isoformat() if g.finished_at else None,
            "tables": [{
                "number": t.number,
                "status": t.status,
                "seats": [{"number": s.number, "player": s.player_id, "colour": s.colour}
                          for s in by_table.get(t.pk, [])],
                "result": _result(counting.get(t.pk)),
            } for t in sorted(g.tables.all(), key=lambda t: t.number)],
        } for g in games],
        # when and by which process they were computed is not the event's: publishing again from
        # a new process (or after the cache expired) is not a change of the tournament
        "standings": {k: v for k, v in standings.items() if k not in VOLATILE},
        "seated": {s.player_id for s in seats if s.player_id},
        "scoring": {"preset": conf.preset, "method": conf.method, "tiebreaks": list(conf.tiebreaks or []),
                    "best_n": conf.best_n, "publish_unconfirmed": conf.publish_unconfirmed,
                    "club_changes": conf.club_changes or {}},
        "ranking": {"organizer": national.event_organizer(tournament),
                    "first_day": national.event_first_day(tournament).isoformat()},
    }


def _result(sub: Any) -> dict[str, Any] | None:
    if sub is None:
        return None
    return {"version": sub.number, "kind": sub.kind, "ended_by": sub.ended_by, "scores": sub.scores}


def register() -> None:
    hooks.register(hooks.tournament_changed, national.tournament_changed)
    hooks.register(hooks.players_changed, national.players_changed)
    hooks.register(hooks.player_data, player_data)
    hooks.register(hooks.player_erased, player_erased)
    hooks.register(hooks.players_merged, players_merged)
    hooks.register(hooks.published_play, published_play)
    hooks.audit_context["scoring.ResultSubmission"] = audit_context
