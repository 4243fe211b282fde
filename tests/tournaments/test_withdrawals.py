"""A withdrawal is its own record: who left, from which game on, when, by whom and why. The open
withdrawal is the one fact "withdrawn": the registration stops holding a place (seating,
check-in, standings, exports and the waiting list skip it) and keeps its status; a player who
registers again closes the withdrawal; older withdrawn registrations get theirs when the
database is migrated, and back."""

from __future__ import annotations

import datetime as dt

import pytest

from common.errors import DomainError
from scoring import selectors as scoring_selectors
from tables import selectors as table_selectors
from tables import services as table_services
from tests.factories import scoring as f
from tests.migrating import migrate_to, migrate_to_latest
from tests.tables.conftest import make_tournament, make_user
from tournaments import selectors, services
from tournaments.models import AuditEntry, CheckIn, Registration, Withdrawal
from tournaments.privacy import export_player_data


def data(first: str, last: str) -> services.PlayerData:
    return services.PlayerData(first_name=first, last_name=last, club="Circolo Roma")  # type: ignore[arg-type]


@pytest.mark.django_db
def test_a_withdrawal_records_who_from_which_game_when_by_whom_and_why(organizer, tournament) -> None:
    anna = services.register(tournament, data("Anna", "Verdi"))
    bruno = services.register(tournament, data("Bruno", "Neri"))
    services.withdraw(anna, actor=organizer, reason="  febbre \n alta ")
    anna.refresh_from_db()
    assert anna.is_withdrawn and anna.state == "withdrawn"
    assert anna.status == Registration.Status.REGISTERED  # kept: withdrawn is the open withdrawal
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
    assert Registration.objects.get(pk=too_long.pk).is_active and not Withdrawal.objects.filter(registration=too_long)


BEFORE = [("tournaments", "0013_scoring_system_from_the_registry")]
AFTER = [("tournaments", "0014_withdrawals_have_their_own_model")]


@pytest.mark.django_db(transaction=True)
def test_withdrawn_registrations_get_their_withdrawal_when_migrated_and_back() -> None:
    try:
        old = migrate_to(BEFORE)
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

        new = migrate_to(AFTER)
        NewWithdrawal = new.get_model("tournaments", "Withdrawal")
        rows = list(NewWithdrawal.objects.all())
        assert [(w.registration_id, w.withdrawn_at, w.withdrawn_by_id, w.from_game) for w in rows] == [
            (left.pk, at, anna_org.pk, None)]

        back = migrate_to(BEFORE)
        statuses = dict(back.get_model("tournaments", "Registration").objects.values_list("pk", "status"))
        assert statuses == {left.pk: "withdrawn", stays.pk: "registered"}
    finally:
        migrate_to_latest()


@pytest.mark.django_db
def test_a_withdrawn_player_holds_no_place_anywhere_until_registering_again(client) -> None:
    organizer = make_user("org-ritiro")
    t = make_tournament(organizer)  # running: the organizer still registers players
    regs = [services.register(t, data(f"Nome{i}", f"Cognome{i}"), actor=organizer) for i in range(9)]
    services.bulk_checkin(regs, 1, actor=organizer)
    gone = regs[0]
    services.withdraw(gone, actor=organizer)
    # a check-in left behind (a tap at the same moment) does not bring the player back
    CheckIn.objects.create(registration=gone, game_number=1)
    others = {r.player_id for r in regs[1:]}

    assert list(Registration.objects.withdrawn()) == [gone]
    assert {r.player_id for r in selectors.registered_players(t)} == others
    assert {p.pk for p in selectors.checked_in_players(t, 1)} == others
    assert {p.pk for p in table_selectors.checked_in_players(t, 1)} == others
    assert selectors.checkin_counts(t)[1] == 8
    assert selectors.visible_tournaments(None).get(pk=t.pk).registered_count == 8
    with pytest.raises(DomainError) as refused:
        services.set_checked_in(gone, 2, True, actor=organizer)
    assert refused.value.rule == "STATUS"
    game = table_services.compose_game(table_services.ensure_game(t, 1, actor=organizer), actor=organizer,
                                       seed="ritiro", effort=0.3)
    seated = {p for table in table_selectors.seated_tables([game])[game.pk] for p in table}
    assert seated == others
    assert {row["player"] for row in scoring_selectors.standings(t)["rows"]} == others
    sheet = services.export_csv(t, actor=organizer)
    assert [line.split(",")[-1] for line in sheet.splitlines() if "Cognome0" in line] == ["withdrawn"]
    shown = {r["id"]: r["status"] for r in client.get(f"/api/tournaments/{t.slug}/registrations/").json()["results"]}
    assert shown[gone.pk] == "withdrawn" and shown[regs[1].pk] == "registered"

    again = services.register(t, data("Nome0", "Cognome0"), actor=organizer)
    assert again.pk == gone.pk and again.is_active and not Registration.objects.withdrawn().exists()
    assert {r.player_id for r in selectors.registered_players(t)} == others | {gone.player_id}
    assert selectors.visible_tournaments(None).get(pk=t.pk).registered_count == 9
    assert {p.pk for p in table_selectors.checked_in_players(t, 1)} == others | {gone.player_id}


@pytest.mark.django_db
def test_a_withdrawn_waitlisted_player_is_neither_waiting_nor_moved_up(organizer, tournament) -> None:
    tournament.capacity = 1
    tournament.save()
    anna = services.register(tournament, data("Anna", "Verdi"))
    bruno = services.register(tournament, data("Bruno", "Neri"))
    assert services.withdraw(bruno, actor=organizer) is None
    assert list(selectors.waitlist(tournament)) == [] and services.waitlist_position(bruno) is None
    with pytest.raises(DomainError):
        services.promote(Registration.objects.get(pk=bruno.pk), actor=organizer)
    assert services.withdraw(anna, actor=organizer) is None  # nobody waiting to move up
    assert not Registration.objects.active().filter(tournament=tournament).exists()


WITH_STATUS = [("tournaments", "0014_withdrawals_have_their_own_model")]
WITHOUT_STATUS = [("tournaments", "0015_withdrawn_is_the_open_withdrawal")]


@pytest.mark.django_db(transaction=True)
def test_the_withdrawn_status_becomes_the_open_withdrawal_when_migrated_and_back() -> None:
    try:
        old = migrate_to(WITH_STATUS)
        Tournament = old.get_model("tournaments", "Tournament")
        Player = old.get_model("tournaments", "Player")
        OldRegistration = old.get_model("tournaments", "Registration")
        OldWithdrawal = old.get_model("tournaments", "Withdrawal")
        Audit = old.get_model("tournaments", "AuditEntry")
        t = Tournament.objects.create(name="B", slug="b", date=dt.date(2026, 1, 1))
        regs = {name: OldRegistration.objects.create(
            tournament=t, status=status, created_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
            player=Player.objects.create(first_name=name, last_name="Rossi", normalised_name=f"{name} rossi"))
            for name, status in (("mario", "withdrawn"), ("luigi", "withdrawn"), ("peach", "registered"),
                                 ("toad", "waitlisted"))}
        kept = OldWithdrawal.objects.create(registration=regs["mario"], from_game=2, reason="febbre")
        # luigi left from the waiting list, before withdrawals had rows of their own
        Audit.objects.create(tournament=t, action="registration.withdraw", object_type="tournaments.Registration",
                             object_id=str(regs["luigi"].pk), before={"status": "waitlisted"},
                             after={"status": "withdrawn"})
        OldWithdrawal.objects.create(registration=regs["peach"])  # left open by mistake: peach plays

        new = migrate_to(WITHOUT_STATUS)
        NewRegistration = new.get_model("tournaments", "Registration")
        NewWithdrawal = new.get_model("tournaments", "Withdrawal")
        statuses = dict(NewRegistration.objects.values_list("player__first_name", "status"))
        assert statuses == {"mario": "registered", "luigi": "waitlisted", "peach": "registered",
                            "toad": "waitlisted"}
        open_ones = NewWithdrawal.objects.filter(reinstated_at__isnull=True)
        assert sorted(open_ones.values_list("registration__player__first_name", flat=True)) == ["luigi", "mario"]
        assert open_ones.get(registration=regs["mario"].pk).pk == kept.pk  # the same row, kept whole
        assert NewWithdrawal.objects.get(pk=kept.pk).reason == "febbre"

        back = migrate_to(WITH_STATUS)
        statuses = dict(back.get_model("tournaments", "Registration").objects.values_list(
            "player__first_name", "status"))
        assert statuses == {"mario": "withdrawn", "luigi": "withdrawn", "peach": "registered",
                            "toad": "waitlisted"}
    finally:
        migrate_to_latest()
