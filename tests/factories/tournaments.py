"""factory-boy factories for every model of tournaments/."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from tournaments.models import (
    AccessLink,
    AuditEntry,
    CheckIn,
    Club,
    Player,
    Registration,
    Season,
    Tournament,
    TournamentRole,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Circolo RisiKo {n}")
    city = "Roma"
    region = "Lazio"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Nome{n}")
    last_name = factory.Sequence(lambda n: f"Cognome{n}")
    nickname = ""
    club = factory.SubFactory(ClubFactory)
    email = factory.LazyAttribute(lambda p: f"{p.first_name}.{p.last_name}@example.org".lower())
    birth_date = dt.date(1990, 5, 17)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Campionato {n}")
    year = 2026
    rule = Season.Rule.SUM
    preset = "campionato"


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Torneo {n}")
    slug = factory.Sequence(lambda n: f"torneo-{n}")
    date = dt.date(2025, 6, 1)
    venue = "Sala civica"
    status = Tournament.Status.REGISTRATION


class TournamentRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = TournamentRole.Role.ORGANIZER


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    status = Registration.Status.REGISTERED


class CheckInFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CheckIn

    registration = factory.SubFactory(RegistrationFactory)
    game_number = 1


class RefereeLinkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AccessLink

    tournament = factory.SubFactory(TournamentFactory)
    kind = AccessLink.Kind.REFEREE
    user = factory.SubFactory(UserFactory)


class PlayerLinkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AccessLink

    tournament = factory.SubFactory(TournamentFactory)
    kind = AccessLink.Kind.PLAYER
    player = factory.SubFactory(PlayerFactory)


class AuditEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AuditEntry

    tournament = factory.SubFactory(TournamentFactory)
    actor_label = "anonymous"
    action = "test.action"
    object_type = "tournaments.Tournament"
