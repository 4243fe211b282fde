"""Builders for the tables tests: a tournament with players in clubs, checked in for games."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest

from tests.factories.tournaments import (
    CheckInFactory,
    ClubFactory,
    PlayerFactory,
    PlayerLinkFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tests.factories.tournaments import (
    make_user as new_user,
)
from tournaments.models import AccessLink, Player, Tournament, TournamentRole

_n = itertools.count(1)


def make_user(name: str | None = None) -> Any:
    name = name or f"user{next(_n)}"
    return new_user(name, password="pw-" + name)


def make_tournament(organizer: Any = None, **kw: Any) -> Tournament:
    k = next(_n)
    t = TournamentFactory(
        name=kw.pop("name", f"Torneo {k}"), slug=kw.pop("slug", f"torneo-{k}"),
        date=dt.date(2026, 5, 1), status=Tournament.Status.RUNNING, **kw,
    )
    if organizer is not None:
        TournamentRoleFactory(tournament=t, user=organizer, role=TournamentRole.Role.ORGANIZER)
    return t


def add_players(
    tournament: Tournament, count: int, *, clubs: int = 0, games: tuple[int, ...] = (1,),
    region_of: dict[int, str] | None = None,
) -> list[Player]:
    """``count`` players registered and checked in for ``games``; with ``clubs``, players go to
    clubs round-robin (club k has players k, k+clubs, …)."""
    club_objs = []
    for c in range(clubs):
        name = f"Club {tournament.pk}-{c}"
        club_objs.append(ClubFactory(name=name, city="", region=(region_of or {}).get(c, "")))
    players = []
    for i in range(count):
        k = next(_n)
        p = PlayerFactory(
            first_name=f"Nome{k}", last_name=f"Cognome{k}",
            club=club_objs[i % clubs] if clubs else None, bare=True,
        )
        reg = RegistrationFactory(tournament=tournament, player=p)
        for g in games:
            CheckInFactory(registration=reg, game_number=g)
        players.append(p)
    return players


def add_role(tournament: Tournament, user: Any, role: str) -> None:
    TournamentRoleFactory(tournament=tournament, user=user, role=role)


def player_link(tournament: Tournament, player: Player) -> AccessLink:
    return PlayerLinkFactory(tournament=tournament, player=player)


@pytest.fixture
def organizer(db: Any) -> Any:
    return make_user("org")


@pytest.fixture
def tournament(organizer: Any) -> Tournament:
    return make_tournament(organizer)
