from __future__ import annotations

import pytest
from django.test import Client

from tests.factories.tournaments import (
    PlayerLinkFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    open_private_link,
)
from tournaments.models import TournamentRole


@pytest.fixture
def tournament(db):  # type: ignore[no-untyped-def]
    return TournamentFactory(capacity=None)


@pytest.fixture
def organizer(tournament):  # type: ignore[no-untyped-def]
    user = UserFactory(username="org")
    TournamentRoleFactory(tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER)
    return user


@pytest.fixture
def organizer_client(organizer) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(organizer)
    return client


@pytest.fixture
def referee(tournament):  # type: ignore[no-untyped-def]
    user = UserFactory(username="ref")
    TournamentRoleFactory(tournament=tournament, user=user, role=TournamentRole.Role.REFEREE)
    return user


@pytest.fixture
def other_referee_client(db) -> Client:  # type: ignore[no-untyped-def]
    """Signed in as the referee (and even organizer) of ANOTHER tournament."""
    other = TournamentFactory()
    user = UserFactory(username="other-ref")
    TournamentRoleFactory(tournament=other, user=user, role=TournamentRole.Role.REFEREE)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def player_client(tournament) -> Client:  # type: ignore[no-untyped-def]
    """A browser that opened a player's personal link for ``tournament``."""
    reg = RegistrationFactory(tournament=tournament)
    link = PlayerLinkFactory(tournament=tournament, player=reg.player)
    client = Client()
    assert open_private_link(client, link.token).status_code == 302
    return client


