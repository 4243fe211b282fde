"""A withdrawal is its own record: who left, from which game on, when, by whom and why. The
registration stops holding a place (seating, check-in and the waiting list skip it); a player
who registers again closes the withdrawal; older withdrawn registrations get theirs when the
database is migrated, and back."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import scoring as f
from tournaments import services
from tournaments.models import AuditEntry, Registration, Withdrawal
from tournaments.privacy import export_player_data


def data(first: str, last: str) -> services.PlayerData:
    return services.PlayerData(first_name=first, last_name=last, club="Circolo Roma")  # type: ignore[arg-type]


@pytest.mark.django_db
def test_a_withdrawal_records_who_from_which_game_when_by_whom_and_why(organizer, tournament) -> None:
    anna = services.register(tournament, data("Anna", "Verdi"))
    bruno = services.register(tournament, data("Bruno", "Neri"))
    services.withdraw(anna, actor=organizer, reason="  febbre \n alta ")
    anna.refresh_from_db()
    assert anna.status == Registration.Status.WITHDRAWN
    withdrawal = anna.withdrawal
    assert withdrawal is not None
    assert (withdrawal.from_game, withdrawal.withdrawn_by, withdrawal.reason) == (1, organizer, "febbre alta")
    entry = AuditEntry.objects.get(action="registration.withdraw")
    assert entry.after["from_game"] == 1 and entry.after["reason"] == "febbre alta"

    # game 1 has its tables: a withdrawal now takes effect from game 2
    f.make_table(tournament, 1, [bruno.player, *f.players(tournament, 3)])
    services.withdraw(bruno, actor=organizer)
    bruno.refresh_from_db()
    assert bruno.withdrawal is not None and bruno.withdrawal.from_game == 2
    assert export_player_data(anna.player)["registrations"][0]["withdrawals"][0]["reason"] == "febbre alta"


@pytest.mark.django_db
def test_registering_again_closes_the_withdrawal_and_a_second_one_is_new(organizer, tournament) -> None:
    anna = services.register(tournament, data("Anna", "Verdi"))
    services.withdraw(anna, actor=organizer)
    again = services.register(tournament, data("Anna", "Verdi"), actor=organizer)
    assert again.pk == anna.pk and again.status == Registration.Status.REGISTERED and again.withdrawal is None
    assert Withdrawal.objects.get(registration=anna).reinstated_at is not None
    services.withdraw(again, actor=organizer, reason="lavoro")
    assert [w.reason for w in again.withdrawals.all()] == ["", "lavoro"]
    assert again.withdrawal is not None and again.withdrawal.reason == "lavoro"


@pytest.mark.django_db
def test_the_api_takes_a_reason_and_refuses_a_second_withdrawal(organizer_client, tournament) -> None:
    anna = services.register(tournament, data("Anna", "Verdi"))
    url = f"/api/tournaments/{tournament.slug}/registrations/{anna.pk}/withdraw/"
    answer = organizer_client.post(url, {"reason": "trasferta"}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["status"] == "withdrawn"
    assert Withdrawal.objects.get(registration=anna).reason == "trasferta"
    again = organizer_client.post(url, {}, content_type="application/json")
    assert again.status_code == 400 and again.json()["rule"] == "STATUS"
    too_long = services.register(tournament, data("Bruno", "Neri"))
    refused = organizer_client.post(f"/api/tournaments/{tournament.slug}/registrations/{too_long.pk}/withdraw/",
                                    {"reason": "x" * 201}, content_type="application/json")
    assert refused.status_code == 400 and "reason" in refused.json()
    assert Registration.objects.get(pk=too_long.pk).status == Registration.Status.REGISTERED


BEFORE = [("tournaments", "0013_scoring_system_from_the_registry")]
AFTER = [("tournaments", "0014_withdrawals_have_their_own_model")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_withdrawn_registrations_get_their_withdrawal_when_migrated_and_back() -> None:
    try:
        old = _migrate(BEFORE)
        User = old.get_model("auth", "User")
        Tournament = old.get_model("tournaments", "Tournament")
        Player = old.get_model("tournaments", "Player")
        OldRegistration = old.get_model("tournaments", "Registration")
        Audit = old.get_model("tournaments", "AuditEntry")
        anna_org = User.objects.create(username="organizzatrice")
        t = Tournament.objects.create(name="A", slug="a", date=dt.date(2026, 1, 1))
        left, stays = (OldRegistration.objects.create(
            tournament=t, status=status, created_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
            player=Player.objects.create(first_name=name, last_name="Rossi", normalised_name=f"{name} rossi"))
            for name, status in (("mario", "withdrawn"), ("luigi", "registered")))
        at = dt.datetime(2026, 1, 2, 9, 30, tzinfo=dt.UTC)
        Audit.objects.create(tournament=t, actor=anna_org, action="registration.withdraw",
                             object_type="tournaments.Registration", object_id=str(left.pk), at=at)

        new = _migrate(AFTER)
        NewWithdrawal = new.get_model("tournaments", "Withdrawal")
        rows = list(NewWithdrawal.objects.all())
        assert [(w.registration_id, w.withdrawn_at, w.withdrawn_by_id, w.from_game) for w in rows] == [
            (left.pk, at, anna_org.pk, None)]

        back = _migrate(BEFORE)
        statuses = dict(back.get_model("tournaments", "Registration").objects.values_list("pk", "status"))
        assert statuses == {left.pk: "withdrawn", stays.pk: "registered"}
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
