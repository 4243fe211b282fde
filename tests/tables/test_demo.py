"""The demo composes and starts games 1 and 2; game 2 uses game 1's history."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tables import selectors
from tables.models import Game, Seat


@pytest.mark.django_db
def test_demo_starts_games_1_and_2_with_game_2_composed_from_game_1(client) -> None:
    call_command("load_demo", stdout=io.StringIO())
    games = {g.number: g for g in Game.objects.filter(tournament__slug="demo")}
    assert games[1].seed == "demo-game-1" and games[2].seed == "demo-game-2"
    assert games[2].status == Game.Status.RUNNING
    for game in games.values():
        for table in game.tables.all():
            assert len(table.deal) == 42 and table.deadline is not None
        assert not Seat.objects.filter(game=game, player__isnull=False, objective="").exists()
    history = selectors.history_before(games[2])
    assert len(history.tables) == games[1].tables.count()
    report = games[2].composition_report
    assert report["costs"]["repeat_opponents"] == report["lower_bounds"]["repeat_opponents"]
    assert client.get("/t/demo/games/2/tables/").status_code == 200
    assert client.get("/t/demo/games/1/tables/1/sheet/").status_code == 200
