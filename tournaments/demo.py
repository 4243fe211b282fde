"""The demo tournament (slug ``demo``) that ``manage.py load_demo`` builds on an empty database.

``load_demo`` creates the users and the tournament (``create_base``), then calls every dotted
path of ``DEMO_STEPS`` (in ``management/commands/load_demo.py``) in order with the tournament.
This module's step, ``register_players``, registers ~20 players from five clubs, opens and starts
the tournament and checks everyone in for games 1 and 2. Everything goes through ``services``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from . import services
from .models import AccessLink, Tournament, TournamentRole

SLUG = "demo"
ORGANIZER = ("organizzatore", "risiko-organizza")
REFEREE = ("arbitro", "risiko-arbitra")

CLUBS = [
    ("RisiKo Club Roma", "Roma", "Lazio"),
    ("I Conquistatori di Napoli", "Napoli", "Campania"),
    ("Carri Armati Torino", "Torino", "Piemonte"),
    ("Dadi Rossi Bologna", "Bologna", "Emilia-Romagna"),
    ("Strateghi di Palermo", "Palermo", "Sicilia"),
]

PLAYERS = [  # first name, last name, nickname, club index
    ("Marco", "Rossi", "Il Generale", 0), ("Giulia", "Bianchi", "", 0),
    ("Luca", "Ferrari", "Kamchatka", 0), ("Francesca", "Romano", "", 0),
    ("Alessandro", "Esposito", "Sasà", 1), ("Chiara", "Russo", "", 1),
    ("Davide", "Colombo", "", 1), ("Sara", "Ricci", "Lady Ural", 1),
    ("Matteo", "Marino", "", 2), ("Elena", "Greco", "", 2),
    ("Andrea", "Bruno", "Il Barone", 2), ("Valentina", "Gallo", "", 2),
    ("Simone", "Conti", "", 3), ("Federica", "De Luca", "Fede", 3),
    ("Lorenzo", "Mancini", "", 3), ("Martina", "Costa", "", 3),
    ("Giovanni", "Giordano", "Nonno Gianni", 4), ("Alessia", "Rizzo", "", 4),
    ("Stefano", "Lombardi", "", 4), ("Paola", "Moretti", "", 4),
]


@dataclass
class DemoLogins:
    tournament: Tournament
    organizer: tuple[str, str]
    referee: tuple[str, str]
    referee_link: AccessLink | None


def _user(username: str, password: str, **extra: Any) -> Any:
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model.objects.create_user(username=username, password=password, **extra)
    return user


def create_base() -> Tournament:
    """Users, the tournament, the referee role and the referee's private link."""
    organizer = _user(ORGANIZER[0], ORGANIZER[1], first_name="Organizzatore")
    referee = _user(REFEREE[0], REFEREE[1], first_name="Arbitro")
    for name, city, region in CLUBS:
        services.get_or_create_club(name, actor=organizer, city=city, region=region)
    tournament = services.create_tournament(
        actor=organizer, name="Torneo dimostrativo RisiKo!", slug=SLUG,
        date=timezone.localdate(), venue="Circolo RisiKo Club Roma, Via dei Dadi 7, Roma",
        games_count=3, start_times=["10:30", "14:00", "16:30"], capacity=24,
    )
    services.add_role(tournament, referee.username, TournamentRole.Role.REFEREE, actor=organizer)
    services.create_link(tournament, actor=organizer, user=referee)
    return tournament


def register_players(tournament: Tournament) -> None:
    """The first demo step: registrations, status running, check-in for games 1 and 2."""
    organizer = get_user_model().objects.get(username=ORGANIZER[0])
    services.change_status(tournament, Tournament.Status.REGISTRATION, actor=organizer)
    clubs = [name for name, _city, _region in CLUBS]
    for i, (first, last, nickname, club) in enumerate(PLAYERS):
        services.register(
            tournament,
            services.PlayerData(
                first_name=first, last_name=last, nickname=nickname, club=clubs[club],
                email=f"{first}.{last}@example.org".lower().replace(" ", ""),
                birth_date=dt.date(1970 + i, 1 + i % 12, 1 + i),
            ),
            actor=organizer,
        )
    services.change_status(tournament, Tournament.Status.RUNNING, actor=organizer)
    registered = list(tournament.registrations.active())
    for game in (1, 2):
        services.bulk_checkin(registered, game, actor=organizer)


def logins(tournament: Tournament) -> DemoLogins:
    referee = get_user_model().objects.filter(username=REFEREE[0]).first()
    link = (
        AccessLink.objects.filter(tournament=tournament, kind=AccessLink.Kind.REFEREE,
                                  user=referee, revoked_at__isnull=True)
        .order_by("-created_at").first()
    )
    return DemoLogins(tournament, ORGANIZER, REFEREE, link)
