"""The engine simulator's figures for the same questions (docs/statistics.md): its bots play
``games`` complete games at each table size from a fixed seed, each record is adjudicated by the
engine, and the games go through the same arithmetic as the recorded ones (``figures``). The
same seed and counts always give the same figures; they are computed by the worker (or
``manage.py rebuild_statistics``), never by a request."""

from __future__ import annotations

from datetime import date
from typing import Any

from engine import Replay, parse_record, simulate

from .figures import Play, SeatPlay, play_figures

SEED = "clubstats"
SIZES = (3, 4, 5, 6)
RULESET = "RTU"
_DAY = date(2000, 1, 1)  # a simulated game has no date; the figures never read it


def simulated_play(players: int, seed: str, ruleset: str = RULESET) -> Play:
    """One simulated game as a recorded ``Play``: the bots' seats (seat 1 plays first), their
    cards, the engine's places and ending, the sdadata rolls of the record."""
    record = simulate(players, seed, ruleset)
    parsed = parse_record(record)
    assert parsed.record is not None  # the simulator writes valid records (tests/engine)
    game = Replay(parsed.record)
    game.run()
    verdict = game.verdict()
    places = {int(s["seat"]): int(s["place"]) for s in verdict.scores}
    cards = {int(p["seat"]): str(p.get("objective") or "") for p in record["players"]}
    seats = tuple(SeatPlay(seat, seat, places[seat], None, cards.get(seat, "")) for seat in sorted(places))
    rolls = tuple(tuple(int(d) for d in e["dice"]) for e in record["events"] if e.get("type") == "sdadata")
    ending = verdict.ended_by.scored_as.value  # as a recorded game's result stores it (S-TA's deck as time)
    return Play(0, None, _DAY, 0, seats, True, ending, rolls)


def figures(games: int, seed: str = SEED) -> dict[str, Any]:
    """The simulator's figures over ``games`` games at each size of ``SIZES``."""
    plays = [simulated_play(size, f"{seed}-{size}-{k}") for size in SIZES for k in range(games)]
    return {**play_figures(plays), "seed": seed, "per_size": games, "ruleset": RULESET}
