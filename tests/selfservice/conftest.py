"""A running tournament of 3 games with an organizer, a referee and 10 registered players, each
with their personal link; helpers to open a link in a test client and to open a game's window."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from selfservice import services
from tests.factories import scoring as f
from tests.factories.tournaments import PlayerLinkFactory, open_private_link
from tournaments.models import Registration


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    t = f.ScoringTournamentFactory(games_count=3)
    org, ref = f.role(t, "organizer"), f.role(t, "referee")
    players = f.players(t, 10)
    links = {p.pk: PlayerLinkFactory(tournament=t, player=p) for p in players}
    regs = {p.pk: Registration.objects.get(tournament=t, player=p) for p in players}
    return {"t": t, "org": org, "ref": ref, "players": players, "links": links, "regs": regs}


def open_window(event: dict[str, Any], game: int, *, minutes_ago: int = 5, minutes_left: int = 25) -> Any:
    now = timezone.now()
    return services.set_window(event["t"], game, now - dt.timedelta(minutes=minutes_ago),
                               now + dt.timedelta(minutes=minutes_left), actor=event["org"])


def as_player(client: Any, event: dict[str, Any], player: Any) -> Any:
    """This test client is the player's phone: their personal link opened."""
    open_private_link(client, event["links"][player.pk].token)
    return client
