"""A club with its admin and a season of two played evenings (one table of four each); a league of
twelve players for the final phase."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import Game, Table
from tests.factories import scoring as f
from tests.factories.tournaments import ClubFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments.models import ClubRole, Registration, Season, Tournament

# S-RTU: game score + 30 / 15 / 5 for places 1-3. P 50/30/20/10 → 80, 45, 25, 10.
FIRST = f.short_data([(50, 10, 20, None, False), (30, 20, 20, None, False),
                      (20, 14, 20, None, False), (10, 10, 20, None, False)])
# P 40/35/15/10 → 70, 50, 20, 10.
SECOND = f.short_data([(40, 10, 20, None, False), (35, 20, 20, None, False),
                       (15, 14, 20, None, False), (10, 20, 20, None, False)])


def play(evening: Tournament, seated: list[Any], data: dict[str, Any], *, admin: Any, game: int = 1,
         confirm: bool = True) -> Any:
    table = f.make_table(evening, game, seated)
    referee = f.role(evening, "referee")
    return f.enter(table, referee, "short", data, confirm_by=admin if confirm else None)


def evening_of(season: Season, date: dt.date, players: list[Any]) -> Tournament:
    t = f.ScoringTournamentFactory(club=season.club, season=season, date=date, name=f"{season.name} {date}",
                                   games_count=2)
    for p in players:
        Registration.objects.create(tournament=t, player=p)
    return t


@pytest.fixture
def club_admin(db: Any) -> dict[str, Any]:
    """A club, its admin and its season with no evening yet."""
    club = ClubFactory(name="Circolo Lario")
    admin = UserFactory(username="presidente")
    ClubRole.objects.create(club=club, user=admin)
    return {"club": club, "admin": admin, "season": SeasonFactory(club=club, name="Campionato 2026")}


@pytest.fixture
def club_season(club_admin: dict[str, Any]) -> dict[str, Any]:
    season, admin = club_admin["season"], club_admin["admin"]
    anna, bruno, carla, dario = (PlayerFactory(first_name=n, last_name="Lario", club=club_admin["club"])
                                 for n in ("Anna", "Bruno", "Carla", "Dario"))
    players = [anna, bruno, carla, dario]
    today = timezone.localdate()
    one = evening_of(season, today - dt.timedelta(days=17), players)
    play(one, players, FIRST, admin=admin)  # Anna 80, Bruno 45, Carla 25, Dario 10
    two = evening_of(season, today - dt.timedelta(days=10), players)
    play(two, [dario, carla, bruno, anna], SECOND, admin=admin)  # Dario 70, Carla 50, Bruno 20, Anna 10
    return {**club_admin, "players": players, "evenings": [one, two],
            "anna": anna, "bruno": bruno, "carla": carla, "dario": dario}


# ------------------------------------------------------------------ the final phase
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Luca", "Marta", "Nino", "Olga")


def client_for(user: Any = None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def make_league(club: Any, admin: Any, season: Any) -> dict[str, Any]:
    """12 players, 2 evenings of 3 tables. S-RTU: P 50/30/20/10 → 80,
    45, 25, 10 (FIRST); P 40/35/15/10 → 70, 50, 20, 10 (SECOND)."""
    p = {n: PlayerFactory(first_name=n, last_name="Lario", club=club) for n in NAMES}
    today = timezone.localdate()
    one = evening_of(season, today - dt.timedelta(days=14), list(p.values()))
    for names, data in ((NAMES[0:4], FIRST), (NAMES[4:8], SECOND), (NAMES[8:12], FIRST)):
        play(one, [p[n] for n in names], data, admin=admin)
    two = evening_of(season, today - dt.timedelta(days=7), list(p.values()))
    for names in (("Elena", "Anna", "Ivo", "Bruno"), ("Carla", "Dario", "Luca", "Fabio"),
                  ("Gina", "Marta", "Nino", "Olga")):
        play(two, [p[n] for n in names], FIRST, admin=admin)
    return {"club": club, "admin": admin, "season": season, "p": p}


@pytest.fixture
def league(club_admin: dict[str, Any]) -> dict[str, Any]:
    return make_league(club_admin["club"], club_admin["admin"], club_admin["season"])


def patch(c: Client, season: Any, data: dict[str, Any]) -> Any:
    return c.patch(reverse("api-season", kwargs={"pk": season.pk}), data, content_type="application/json")


def play_table(phase: Any, table: Table, admin: Any) -> None:
    """P 40/35/15/10 in seat order: seat 1 wins (results entered as usual: a referee, confirmed)."""
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.RUNNING)
    f.enter(table, f.role(phase, "referee"), "short", SECOND, confirm_by=admin)


