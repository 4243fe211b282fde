"""What a published tournament carries beyond its own fields and players: its games (tables,
seats, counting result), its standings, its format's choices and its national-ranking identity,
read from tables and scoring (``services.content_of``)."""

from __future__ import annotations

from typing import Any

from ranking import national
from scoring import selectors
from tables.models import Game, Seat
from tournaments.models import Tournament

VOLATILE = ("stamp", "computed_at", "generation")


def play_of(tournament: Tournament) -> dict[str, Any]:
    """A published tournament's games (tables, seats, counting result) and standings."""
    games = list(Game.objects.filter(tournament=tournament).prefetch_related("tables").order_by("number"))
    seats = list(Seat.objects.filter(game__tournament=tournament).order_by("table_id", "number"))
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    fmt = tournament.event_format()
    counting = {state.table.pk: sub for state, sub in selectors.counted_results(tournament)}
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
        "scoring": {"preset": fmt.preset, "method": fmt.method, "tiebreaks": list(fmt.chain),
                    "best_n": fmt.best_n, "publish_unconfirmed": fmt.publish_unconfirmed,
                    "club_changes": dict(fmt.club_changes)},
        "ranking": {"organizer": national.event_organizer(tournament),
                    "first_day": national.event_first_day(tournament).isoformat()},
    }


def _result(sub: Any) -> dict[str, Any] | None:
    if sub is None:
        return None
    return {"version": sub.number, "kind": sub.kind, "ended_by": sub.ended_by, "scores": sub.scores}
