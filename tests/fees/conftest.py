"""An evening of a club's season with a 6 € fee, 3 € for members and free with the annual card,
and ten players: five who are not members, three members, two with the annual card."""

from __future__ import annotations

from typing import Any

import pytest

from fees import services
from tests.factories.tournaments import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import CheckIn, ClubRole, Registration


@pytest.fixture
def evening(db: Any) -> dict[str, Any]:
    club = ClubFactory(name="Circolo Tre Armate")
    admin = UserFactory(username="presidente")
    ClubRole.objects.create(club=club, user=admin)
    season = SeasonFactory(club=club, name="Campionato 2026", year=2026)
    t = TournamentFactory(club=club, season=season, name="Serata 1", slug="serata-1", games_count=2)
    organizer = TournamentRoleFactory(tournament=t, user=UserFactory(username="organizzatore")).user
    referee = TournamentRoleFactory(tournament=t, user=UserFactory(username="arbitro"), role="referee").user
    names = ["Aldo", "Bice", "Ciro", "Dina", "Elio", "Febo", "Gina", "Ugo", "Ivo", "Lia"]
    players = [PlayerFactory(first_name=n, last_name="Rossi", club=club) for n in names]
    regs = [Registration.objects.create(tournament=t, player=p) for p in players]
    for reg in regs:
        CheckIn.objects.create(registration=reg, game_number=1)
    # Febo, Gina, Ugo: members (no card); Ivo, Lia: members with the 50 € annual card
    for p in players[5:8]:
        services.add_member(club, p, 2026, actor=admin)
    for p in players[8:]:
        services.add_member(club, p, 2026, actor=admin, card=services.Card(True, "50", None))
    services.set_fee(t, actor=organizer, fee="6", member_price="3,00", card_free=True)
    return {"club": club, "admin": admin, "season": season, "t": t, "organizer": organizer, "referee": referee,
            "players": players, "regs": regs}
