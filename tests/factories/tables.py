"""Factories for tables/: games, tables, seats (tournaments' factories live in
tests/factories/tournaments.py)."""

from __future__ import annotations

import factory

from tables.models import Game, Seat, Table


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game
        django_get_or_create = ("tournament", "number")

    tournament = factory.SubFactory("tests.factories.tournaments.TournamentFactory")
    number = 1


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    game = factory.SubFactory(GameFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    game = factory.LazyAttribute(lambda o: o.table.game)
    number = factory.Sequence(lambda n: n + 1)
    player = factory.SubFactory("tests.factories.tournaments.PlayerFactory")
