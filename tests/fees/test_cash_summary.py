"""What each player owes and the event's cash summary, against sums done by hand; money is exact
(cents), typed with a comma or a point."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from common.errors import DomainError
from fees import money, selectors, services
from fees.models import Payment
from tests.factories.tournaments import PlayerFactory, TournamentFactory
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


def mark_all(ev: dict[str, Any]) -> None:
    """Aldo…Dina pay 6 € cash; Elio has not paid; Febo and Gina pay 3 € cash, Ugo 3 € by card;
    Ivo and Lia show their annual card."""
    o, regs = ev["organizer"], ev["regs"]
    for reg in regs[:4]:
        services.mark_payment(reg, actor=o, status="paid", method="cash")
    for reg in regs[5:7]:
        services.mark_payment(reg, actor=o, status="paid", method="cash")
    services.mark_payment(regs[7], actor=o, status="paid", method="card")
    for reg in regs[8:]:
        services.mark_payment(reg, actor=o, status="free")


def test_the_worked_example_of_an_evening(evening: dict[str, Any]) -> None:
    mark_all(evening)
    s = selectors.cash_summary(evening["t"])
    assert s is not None
    # 10 players: 5 pay the fee, 3 members the member price, 2 hold the annual card
    assert (s.players, s.categories["standard"], s.categories["member"], s.categories["card"]) == (10, 5, 3, 2)
    # expected: 5 × 6 € + 3 × 3 € + 2 × 0 € = 30 + 9 + 0 = 39 €
    assert s.expected == 39_00
    # collected: 4 × 6 € (Aldo…Dina) + 3 × 3 € (Febo, Gina, Ugo) = 24 + 9 = 33 €
    assert s.collected == 33_00
    # by method: cash 24 + 3 + 3 = 30 €; card 3 € (Ugo); other 0 €
    assert s.by_method == {"cash": 30_00, "card": 3_00, "other": 0}
    # unpaid: Elio, 6 €; free: Ivo and Lia. 33 collected + 6 unpaid = 39 expected
    assert (s.unpaid_players, s.unpaid, s.free_players) == (1, 6_00, 2)
    assert s.collected + s.unpaid == s.expected and s.difference == 0


def test_a_different_amount_shows_as_a_difference(evening: dict[str, Any]) -> None:
    # Aldo pays 5 € instead of 6 (no change); Bice 10 € for herself and Ciro's coffee: −1 + 4 = +3 €
    o, regs = evening["organizer"], evening["regs"]
    services.mark_payment(regs[0], actor=o, status="paid", method="cash", amount="5")
    services.mark_payment(regs[1], actor=o, status="paid", method="cash", amount="10,00")
    s = selectors.cash_summary(evening["t"])
    assert s is not None and (s.collected, s.difference) == (15_00, 3_00)


def test_only_who_is_present_or_marked_counts(evening: dict[str, Any]) -> None:
    # an eleventh player registered but never checked in owes nothing yet: not counted
    newcomer = Registration.objects.create(tournament=evening["t"], player=PlayerFactory(club=evening["club"]))
    s = selectors.cash_summary(evening["t"])
    assert s is not None and (s.players, s.not_counted, s.expected) == (10, 1, 39_00)
    # once marked paid they count: 39 + 6 = 45 € expected
    services.mark_payment(newcomer, actor=evening["organizer"], status="paid", method="other")
    s = selectors.cash_summary(evening["t"])
    assert s is not None and (s.players, s.expected, s.by_method["other"]) == (11, 45_00, 6_00)


def test_membership_is_read_for_the_events_season_year(evening: dict[str, Any]) -> None:
    # the same club's event of 2027: last year's members and cards count for nothing, all pay 6 €
    t2027 = TournamentFactory(club=evening["club"], date=evening["t"].date.replace(year=2027), slug="s-2027")
    services.set_fee(t2027, actor=evening["admin"], fee="6", member_price="3")
    ivo = Registration.objects.create(tournament=t2027, player=evening["players"][8])
    due = selectors.due_of(ivo)
    assert due is not None and (due.category, due.price_cents) == ("standard", 6_00)
    # the season's year wins over the date: an evening of the 2026 season dated 2027 reads 2026
    t2027.season = evening["season"]
    t2027.save()
    ivo.refresh_from_db()
    due = selectors.due_of(ivo)
    assert due is not None and (due.category, due.price_cents) == ("card", 0)


def test_card_holders_pay_the_member_price_when_the_event_says_so(evening: dict[str, Any]) -> None:
    services.set_fee(evening["t"], actor=evening["organizer"], fee="8", member_price=None, card_free=False)
    due = selectors.due_of(evening["regs"][9])  # Lia, annual card; no member price: the full 8 €
    assert due is not None and (due.category, due.price_cents) == ("member", 8_00)
    with pytest.raises(DomainError) as refused:
        services.mark_payment(evening["regs"][9], actor=evening["organizer"], status="free")
    assert (refused.value.field, refused.value.rule) == ("status", "CARD")


def test_marks_are_audited_with_before_and_after(evening: dict[str, Any]) -> None:
    reg = evening["regs"][0]
    services.mark_payment(reg, actor=evening["organizer"], status="paid", method="cash")
    services.mark_payment(reg, actor=evening["organizer"], status="unpaid")
    entries = list(AuditEntry.objects.filter(action="payment.mark").order_by("pk"))
    assert [e.before["status"] for e in entries] == ["unpaid", "paid"]
    assert entries[0].after["amount"] == Decimal("6.00") and entries[1].after["status"] == "unpaid"
    assert entries[0].actor == evening["organizer"] and entries[0].tournament == evening["t"]
    assert Payment.objects.get(registration=reg).amount_cents == 0


@pytest.mark.parametrize(("typed", "cents"), [("6", 600), ("6,5", 650), ("6.50", 650), (" 6,50 € ", 650),
                                              ("0", 0), (Decimal("3.00"), 300), ("99999,99", 9_999_999)])
def test_amounts_as_typed(typed: Any, cents: int) -> None:
    assert money.parse(typed) == cents


@pytest.mark.parametrize("typed", ["", "-6", "6,505", "sei", "1e3", "100000", Decimal("0.001"), Decimal("NaN")])
def test_amounts_refused(typed: Any) -> None:
    assert money.parse(typed) is None


def test_a_member_price_above_the_fee_is_refused(evening: dict[str, Any]) -> None:
    with pytest.raises(DomainError) as refused:
        services.set_fee(evening["t"], actor=evening["organizer"], fee="5", member_price="6")
    assert (refused.value.field, refused.value.rule) == ("member_price", "FEE")


def test_a_second_membership_the_same_year_is_refused(evening: dict[str, Any]) -> None:
    with pytest.raises(DomainError) as refused:
        services.add_member(evening["club"], evening["players"][5], 2026, actor=evening["admin"])
    assert (refused.value.field, refused.value.rule) == ("player", "DUPLICATE")


def test_merging_two_records_of_one_player_keeps_one_membership_and_the_payment(evening: dict[str, Any]) -> None:
    from tournaments import merge

    aldo, club, t = evening["players"][0], evening["club"], evening["t"]
    rosi = PlayerFactory(first_name="Aldo", last_name="Rosi", club=club, birth_date=aldo.birth_date)
    services.add_member(club, aldo, 2026, actor=evening["admin"])
    services.add_member(club, rosi, 2026, actor=evening["admin"], card=services.Card(True, "50", None))
    twin = Registration.objects.create(tournament=t, player=rosi)
    services.mark_payment(twin, actor=evening["organizer"], status="free")
    assert merge.duplicates_of(aldo)
    merge.merge_players(t, keep=aldo.pk, drop=rosi.pk, actor=evening["organizer"])
    # one membership for 2026, with the card the dropped record had; the payment went along
    member = aldo.memberships.get()
    assert (member.year, member.card, member.card_cents) == (2026, True, 5000)
    payment = Payment.objects.get(registration__player=aldo, registration__tournament=t)
    assert payment.status == "free"


def test_a_players_data_export_has_their_memberships_and_payments(evening: dict[str, Any]) -> None:
    from tournaments.privacy import export_player_data

    services.mark_payment(evening["regs"][8], actor=evening["organizer"], status="free")
    doc = export_player_data(evening["players"][8])  # Ivo: member with the card, entered free
    assert doc["memberships"] == [{"club": "Circolo Tre Armate", "year": 2026, "card": True,
                                   "card_amount": Decimal("50.00"), "card_paid_on": None}]
    assert doc["payments"] == [{"tournament": "serata-1", "status": "free", "method": "", "amount": Decimal("0.00")}]


def test_the_fee_and_payments_travel_with_the_events_backup(evening: dict[str, Any]) -> None:
    from tests.hardening.test_backup import _wipe
    from tournaments import backup

    mark_all(evening)
    document = backup.export_tournament(evening["t"])
    _wipe()
    restored = backup.import_tournament(document)
    # the memberships stay with the club (not in an event's backup): the till as it was marked
    assert Payment.objects.filter(registration__tournament=restored).count() == 9
    fee = selectors.fee_of(restored)
    assert fee is not None and (fee.fee_cents, fee.member_cents) == (6_00, 3_00)
    assert sorted(Payment.objects.values_list("amount_cents", flat=True)) == [0, 0] + [300] * 3 + [600] * 4
