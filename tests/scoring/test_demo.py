"""The demo: game 1 gets engine-simulated, adjudicated, confirmed results and is finished."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from scoring import selectors
from tables.models import Game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_load_demo_finishes_game_1_with_confirmed_results(client) -> None:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    t = Tournament.objects.get(slug="demo")
    game = Game.objects.get(tournament=t, number=1)
    assert game.status == Game.Status.FINISHED
    states = selectors.table_states(t, game)
    assert states and all(s.status == selectors.CONFIRMED and s.latest.kind == "record" for s in states)
    rows = selectors.standings(t)["rows"]
    seated = sum(1 for s in states for r in s.latest.scores if r["player"])
    assert sum(1 for r in rows if r["played"] == 1) == seated
    assert client.get(f"/t/{t.slug}/standings/").status_code == 200
