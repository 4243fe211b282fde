"""Reads of the fees app (never a write): an event's fee, what each player owes by their
membership, the event's cash summary, a club's members of a year.

Who owes what (docs/fees.md): a player with the annual card of the event's club for the event's
year enters free (when the event says card holders do); another member pays the member price
(the full fee when the event sets none); everyone else the fee. The year is the event's season's
year, else the year of its date."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from tournaments.models import CheckIn, Club, Player, Registration, Tournament
from tournaments.names import by_name

from . import money
from .models import EventFee, Membership, Payment

STANDARD, MEMBER, CARD = "standard", "member", "card"


def fee_of(tournament: Tournament) -> EventFee | None:
    return EventFee.objects.filter(tournament=tournament).first()


def membership_year(tournament: Tournament) -> int:
    return tournament.season.year if tournament.season_id else tournament.date.year  # type: ignore[union-attr]


def memberships_for(tournament: Tournament, player_ids: set[int] | None = None) -> dict[int, Membership]:
    """The memberships of the event's club for its year, by player id (none without a club)."""
    if tournament.club_id is None:
        return {}
    rows = Membership.objects.filter(club_id=tournament.club_id, year=membership_year(tournament))
    if player_ids is not None:
        rows = rows.filter(player_id__in=player_ids)
    return {m.player_id: m for m in rows}


def price(fee: EventFee, membership: Membership | None) -> tuple[str, int]:
    """The player's category and what they owe, in cents."""
    if membership is not None and membership.card and fee.card_free:
        return CARD, 0
    if membership is not None:
        return MEMBER, fee.fee_cents if fee.member_cents is None else fee.member_cents
    return STANDARD, fee.fee_cents


@dataclass
class Due:
    """One player's line: their category, what they owe and their payment (None: not marked)."""

    registration: Registration
    category: str
    price_cents: int
    payment: Payment | None
    membership: Membership | None = None

    @property
    def status(self) -> str:
        return self.payment.status if self.payment else Payment.Status.UNPAID

    @property
    def paid_cents(self) -> int:
        return self.payment.amount_cents if self.payment and self.status == Payment.Status.PAID else 0


def dues(tournament: Tournament, fee: EventFee, registrations: list[Registration]) -> dict[int, Due]:
    """Each of ``registrations``' line, by registration id (two queries whatever their number)."""
    members = memberships_for(tournament, {r.player_id for r in registrations})
    payments = {p.registration_id: p for p in Payment.objects.filter(registration__in=[r.pk for r in registrations])}
    lines = {}
    for reg in registrations:
        category, cents = price(fee, members.get(reg.player_id))
        lines[reg.pk] = Due(reg, category, cents, payments.get(reg.pk), members.get(reg.player_id))
    return lines


def due_of(registration: Registration) -> Due | None:
    """One player's line (None: the event charges nothing)."""
    fee = fee_of(registration.tournament)
    return None if fee is None else dues(registration.tournament, fee, [registration])[registration.pk]


def counted(tournament: Tournament) -> list[Registration]:
    """The players the cash summary counts: those present at check-in (any game, holding a place)
    and anyone whose payment was marked (money taken stays counted after a withdrawal)."""
    present = CheckIn.objects.filter(registration__tournament=tournament).values("registration_id")
    marked = Payment.objects.filter(registration__tournament=tournament).values("registration_id")
    active = Registration.objects.active().filter(tournament=tournament)
    rows = (Registration.objects.filter(tournament=tournament)
            .filter(Q(pk__in=active.filter(pk__in=present).values("pk")) | Q(pk__in=marked))
            .select_related("player", "player__club"))
    return by_name(rows, lambda r: r.player)


@dataclass
class CashSummary:
    """The event's till: every amount in cents. ``expected`` is what the counted players owe,
    ``collected`` what was taken (by method), ``unpaid`` what is still owed (and by how many),
    ``free`` the card holders let in (marked free, or owing nothing and not marked yet); ``difference`` is collected minus what the paid players owed
    (someone paid more or less than their price)."""

    fee: EventFee
    lines: list[Due]
    players: int = 0
    categories: Counter[str] = field(default_factory=Counter)
    expected: int = 0
    collected: int = 0
    by_method: dict[str, int] = field(default_factory=dict)
    unpaid_players: int = 0
    unpaid: int = 0
    free_players: int = 0
    difference: int = 0
    not_counted: int = 0  # holding a place but neither present nor marked: owe nothing yet


def cash_summary(tournament: Tournament) -> CashSummary | None:
    fee = fee_of(tournament)
    if fee is None:
        return None
    regs = counted(tournament)
    lines = list(dues(tournament, fee, regs).values())
    summary = CashSummary(fee, lines, players=len(lines))
    summary.by_method = {m: 0 for m in Payment.Method.values}
    for line in lines:
        summary.categories[line.category] += 1
        summary.expected += line.price_cents
        if line.status == Payment.Status.PAID:
            summary.collected += line.paid_cents
            summary.by_method[line.payment.method] += line.paid_cents  # type: ignore[union-attr]
            summary.difference += line.paid_cents - line.price_cents
        elif line.status == Payment.Status.FREE or line.price_cents == 0:
            summary.free_players += 1  # a card holder owes nothing, marked free or not yet
        else:
            summary.unpaid_players += 1
            summary.unpaid += line.price_cents
    summary.not_counted = Registration.objects.active().filter(tournament=tournament).exclude(
        pk__in=[r.pk for r in regs]).count()
    return summary


def club_members(club: Club, year: int) -> list[Membership]:
    return by_name(Membership.objects.filter(club=club, year=year).select_related("player"), lambda m: m.player)


def membership_years(club: Club) -> list[int]:
    return sorted(set(Membership.objects.filter(club=club).values_list("year", flat=True)), reverse=True)


def tournament_payments(tournament: Tournament) -> QuerySet[Payment]:
    return Payment.objects.filter(registration__tournament=tournament)


def as_row(line: Due) -> dict[str, Any]:
    """A line as the CSV and the API give it."""
    p = line.registration.player
    return {"registration": line.registration.pk, "player": p.pk, "player_name": p.display_name,
            "club_name": p.club.name if p.club else "", "category": line.category, "price_cents": line.price_cents,
            "status": line.status, "method": line.payment.method if line.payment else "",
            "amount_cents": line.paid_cents}


def audit_players(ids: set[int]) -> dict[int, dict[str, Any]]:
    """The player a payment's audit entry is about, by payment id (the audit log's sentence)."""
    rows = Payment.objects.filter(pk__in=ids).select_related("registration__player")
    return {p.pk: {"player": p.registration.player.display_name} for p in rows}


def player_data(player: Player) -> dict[str, Any]:
    """A player's memberships and payments (their data export)."""
    memberships = [{"club": m.club.name, "year": m.year, "card": m.card, "card_amount": money.decimal(m.card_cents),
                    "card_paid_on": m.card_paid_on}
                   for m in Membership.objects.filter(player=player).select_related("club").order_by("year")]
    payments = [{"tournament": p.registration.tournament.slug, "status": p.status, "method": p.method,
                 "amount": money.decimal(p.amount_cents)}
                for p in Payment.objects.filter(registration__player=player).select_related("registration__tournament")]
    return {"memberships": memberships, "payments": payments}
