"""Demo step (``load_demo``'s DEMO_STEPS): finish game 1 of the demo tournament.

For every table of game 1, an engine-simulated game (``engine.simulate.simulate``, seeded by
the table number so every demo database is the same) is uploaded as a recorded game by the
referee, adjudicated by the engine, confirmed by the organizer, and the game is marked finished.
"""

from __future__ import annotations

from typing import Any

from engine import simulate
from tables.models import Game
from tournaments.models import Tournament, TournamentRole

from . import selectors, services


def user_with_role(tournament: Tournament, role: str) -> Any:
    found = (TournamentRole.objects.filter(tournament=tournament, role=role)
             .select_related("user").order_by("pk").first())
    if found is None:
        raise RuntimeError(f"the demo tournament has no {role}")
    return found.user


def finish_game_1(tournament: Tournament) -> None:
    referee = user_with_role(tournament, TournamentRole.Role.REFEREE)
    organizer = user_with_role(tournament, TournamentRole.Role.ORGANIZER)
    game = Game.objects.get(tournament=tournament, number=1)
    for state in selectors.table_states(tournament, game):
        table = state.table
        seats = selectors.seats_of(table)
        record = simulate(len(seats), f"demo-result-{table.number}")
        names = {s.number: (s.player.display_name if s.player else "ghost") for s in seats}
        for p in record["players"]:  # the record speaks of the table's own players
            p["name"] = names.get(p["seat"], p["name"])
        sub = services.submit_result(actor=referee, table=table, kind="record", data={"record": record},
                                     expected_version=state.version)
        services.confirm_result(actor=organizer, submission=sub)
    services.finish_game(actor=organizer, game=game)
