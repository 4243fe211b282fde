"""Factories and builders for the scoring tests: tournaments with roles, tables with seats, and
results (final boards, short forms) entered through scoring.services."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence
from typing import Any

import factory
from django.contrib.auth import get_user_model

from engine.board import load_board
from engine.objectives import default_deck
from ranking.models import RankingBlacklist
from scoring import services
from scoring.models import Confirmation, ResultSubmission
from tables.models import Game, Seat, Table
from tournaments.models import Player, Registration, Tournament, TournamentRole

_n = itertools.count(1)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"scorer{n}")


class ScoringTournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Torneo punti {n}")
    slug = factory.Sequence(lambda n: f"torneo-punti-{n}")
    date = dt.date(2026, 6, 1)
    status = Tournament.Status.RUNNING


class ScoringPlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Nome{n}")
    last_name = factory.Sequence(lambda n: f"Cognome{n}")


class ResultSubmissionFactory(factory.django.DjangoModelFactory):
    """A stored result as it is, without the checks of ``scoring.services`` (use :func:`enter`
    for a result entered as a referee would)."""

    class Meta:
        model = ResultSubmission

    tournament = factory.LazyAttribute(lambda o: o.table.game.tournament)
    number = 1
    kind = ResultSubmission.Kind.SHORT
    ended_by = "sdadata"


class ConfirmationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Confirmation

    submission = factory.SubFactory(ResultSubmissionFactory)
    user = factory.SubFactory(UserFactory)


class RankingBlacklistFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RankingBlacklist


def role(tournament: Tournament, kind: str = "referee", user: Any = None) -> Any:
    user = user or UserFactory()
    TournamentRole.objects.create(tournament=tournament, user=user, role=kind)
    return user


def players(tournament: Tournament, count: int) -> list[Player]:
    out = ScoringPlayerFactory.create_batch(count)
    for p in out:
        Registration.objects.create(tournament=tournament, player=p)
    return out


def make_table(tournament: Tournament, game: int, seated: Sequence[Player | None],
               objectives: Sequence[str] | None = None, number: int | None = None) -> Table:
    g, _ = Game.objects.get_or_create(tournament=tournament, number=game)
    number = number or (Table.objects.filter(game=g).count() + 1)
    t = Table.objects.create(game=g, number=number)
    deck = list(default_deck("rtu"))
    for i, p in enumerate(seated):
        Seat.objects.create(table=t, game=g, number=i + 1, player=p,
                            objective=(objectives[i] if objectives else deck[i]))
    return t


def board_data(objectives: Sequence[str], *, winner: int | None = None,
               armies: Sequence[int] | None = None, eliminated: dict[int, int] | None = None) -> dict[str, Any]:
    """A complete final board: ``winner`` (a seat) holds its whole card; every other territory
    goes round-robin to the seats that are not eliminated, in map order, skipping any that would
    complete a card. Armies: 1 per territory, plus the rest of ``armies[seat-1]`` on the first."""
    board = load_board("world")
    deck = default_deck("rtu")
    eliminated = eliminated or {}
    n = len(objectives)
    alive = [s for s in range(1, n + 1) if s not in eliminated]
    owners: dict[str, int] = {}
    if winner:
        for t in deck[objectives[winner - 1]].territories:
            owners[t] = winner
    cycle = itertools.cycle(alive)
    for t in board.names:
        if t in owners:
            continue
        for _ in range(len(alive)):
            s = next(cycle)
            card = deck[objectives[s - 1]].territories
            if s != winner and card <= {*(x for x, o in owners.items() if o == s), t}:
                continue  # would complete the card
            owners[t] = s
            break
        else:
            owners[t] = alive[0]
    arm = dict.fromkeys(owners, 1)
    for s in alive:
        mine = [t for t, o in owners.items() if o == s]
        if armies:
            arm[mine[0]] += max(0, armies[s - 1] - len(mine))
    return {
        "players": [{"seat": s, "objective": objectives[s - 1], "eliminated": eliminated.get(s)}
                    for s in range(1, n + 1)],
        "owners": owners,
        "armies": arm,
    }


def short_data(rows: Sequence[tuple[int, int, int, int | None, bool]]) -> dict[str, Any]:
    """Short form rows: (objective points, extra points, armies, eliminated order, RisiKo!)."""
    return {"players": [
        {"seat": i + 1, "objective_points": o, "extra_points": e, "armies": a, "eliminated": el, "risiko": r}
        for i, (o, e, a, el, r) in enumerate(rows)
    ]}


def expire_clock(table: Table) -> None:
    """A table whose clock runs in the app: its time is up now (E-TIME)."""
    from django.utils import timezone

    table.refresh_from_db(fields=["deadline", "paused_at"])
    if table.deadline is not None and table.deadline > timezone.now():
        past = timezone.now() - dt.timedelta(seconds=1)
        Table.objects.filter(pk=table.pk).update(deadline=past, paused_at=None)


def enter(table: Table, user: Any, kind: str, data: dict[str, Any], ended_by: str = "sdadata",
          confirm_by: Any = None) -> ResultSubmission:
    from scoring.selectors import table_state

    if ended_by == "sdadata":
        expire_clock(table)  # E-SDADATA: the result of a sdadata closure comes after time is up
    sub = services.submit_result(actor=user, table=table, kind=kind, data=data, ended_by=ended_by,
                                 expected_version=table_state(table).version)
    if confirm_by is not None:
        services.confirm_result(actor=confirm_by, submission=sub)
    return sub
