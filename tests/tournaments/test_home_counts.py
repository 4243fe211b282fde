"""The home page counts each registered player once, whoever looks at it; /favicon.ico answers."""

from __future__ import annotations

import re

import pytest

from tests.factories.tournaments import (
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import Tournament, TournamentRole


@pytest.mark.django_db
def test_home_counts_twenty_players_for_a_twenty_player_event_for_its_staff(client) -> None:
    t = TournamentFactory(capacity=None, status=Tournament.Status.REGISTRATION)
    for _ in range(20):
        RegistrationFactory(tournament=t)
    org = UserFactory(username="org")
    TournamentRoleFactory(tournament=t, user=org, role=TournamentRole.Role.ORGANIZER)
    # a second member of staff: the roles joined to the count used to double it
    TournamentRoleFactory(tournament=t, user=UserFactory(username="ref"), role=TournamentRole.Role.REFEREE)
    for who in (None, org):
        if who is not None:
            client.force_login(who)
        text = re.sub(r"\s+", " ", client.get("/").content.decode())
        assert re.search(r"\b20\b", text) and not re.search(r"\b40\b", text), text


@pytest.mark.django_db
def test_favicon_is_served(client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content
