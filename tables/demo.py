"""Demo steps (``load_demo``'s DEMO_STEPS): compose and start games 1 and 2 of the demo
tournament with fixed seeds, so every demo database gets the same tables and deals."""

from __future__ import annotations

from typing import Any

from tables import services
from tables.models import Game
from tournaments.models import Tournament, TournamentRole


def _organizer(tournament: Tournament) -> Any:
    role = (TournamentRole.objects.filter(tournament=tournament,
                                          role=TournamentRole.Role.ORGANIZER)
            .select_related("user").order_by("pk").first())
    if role is None:
        raise RuntimeError("the demo tournament has no organizer")
    return role.user


def _start(tournament: Tournament, number: int, *, objectives: bool) -> Game:
    organizer = _organizer(tournament)
    game = services.ensure_game(tournament, number, actor=organizer)
    # The composition of game 2 reads game 1's seats (and its results once scoring entered
    # them): fewest repeat opponents, winners and clubs apart (K-TABLES).
    game = services.compose_game(game, actor=organizer, seed=f"demo-game-{number}",
                                 prefer="fives")
    services.set_deal_objectives(game, objectives, actor=organizer)
    return services.start_game(game, actor=organizer, seed=f"demo-deal-{number}")


def start_game_1(tournament: Tournament) -> None:
    _start(tournament, 1, objectives=True)


def start_game_2(tournament: Tournament) -> None:
    _start(tournament, 2, objectives=True)
