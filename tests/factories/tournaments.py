"""factory-boy factories for every model of tournaments/."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any
from urllib.parse import urlencode

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tournaments.models import (
    AccessLink,
    AuditEntry,
    CheckIn,
    Club,
    ClubRole,
    Invitation,
    Player,
    Registration,
    Season,
    Tournament,
    TournamentRole,
    Withdrawal,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


def make_user(username: str | None = None, *, password: str = "secret-pass-123", **fields: Any) -> Any:
    """A user who can sign in with ``password`` (``is_staff=True``, ``is_superuser=True`` …)."""
    if username is not None:
        fields["username"] = username
    return UserFactory(password=password, **fields)  # hashed by the factory's Password


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

    class Params:
        # only a name (and what is passed): no club, e-mail or date of birth
        bare = factory.Trait(club=None, email="", birth_date=None)


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


class ClubRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubRole

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = ClubRole.Role.ADMIN


class GroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Group
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"group{n}")


class InvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invitation

    tournament = factory.SubFactory(TournamentFactory)
    role = TournamentRole.Role.REFEREE


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration
        skip_postgeneration_save = True  # ``withdrawn`` writes its own row

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    status = Registration.Status.REGISTERED

    @factory.post_generation
    def withdrawn(obj: Registration, create: bool, extracted: Any, **kwargs: Any) -> None:
        """``RegistrationFactory(withdrawn=True)``: with an open withdrawal, as ``withdraw`` leaves it."""
        if create and extracted:
            Withdrawal.objects.create(registration=obj, from_game=1)


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


def open_private_link(client: Any, token: str, query: dict[str, str] | None = None) -> Any:
    """What a person does with a private link: open its address (the landing page says who the
    browser will be), then press its button. Returns the button's answer."""
    url = f"/l/{token}/" + (f"?{urlencode(query)}" if query else "")
    landing = client.get(url)
    if landing.status_code != 200:
        return landing  # refused, or this browser holds it already (straight on)
    page = landing.content.decode()
    form = {name: html.unescape(value) for name, value in
            re.findall(r'name="(replacing|csrfmiddlewaretoken)" value="([^"]*)"', page)}
    return client.post(url, form)
