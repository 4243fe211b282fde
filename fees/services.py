"""Writes of the fees app, each authorised and audited (who, when, before, after):

- ``set_fee``: an event's entry fee, member price and whether card holders enter free (its
  organizers; ``fee.set``, ``fee.remove``);
- ``mark_payment``: paid (how much, how), unpaid or free with the annual card, at check-in (its
  organizers; ``payment.mark``);
- ``add_member``, ``change_member``, ``remove_member``: a club's members of a year and their
  annual card (the club's admins and the federation admins; ``membership.add``,
  ``membership.change``, ``membership.remove``).

Refusals (HTTP 400 unless said): ``FORMAT`` (not an amount of euros, a year out of range),
``REQUIRED``, ``FEE`` (a member price above the fee; the event charges no fee), ``CARD`` (free
without the annual card), ``STATUS`` (a player without a place), ``DUPLICATE`` (already a member
that year), ``ROLE`` (403).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError
from tournaments import audit
from tournaments.clubs import may_manage_seasons
from tournaments.models import Club, Player, Registration, Tournament
from tournaments.permissions import require_organizer

from . import money, selectors
from .models import EventFee, Membership, Payment

FIRST_YEAR, LAST_YEAR = 2000, 2100


def cents(value: Any, field: str, *, required: bool = True) -> int | None:
    """``value`` (euros as typed, a Decimal) in cents; a refusal naming ``field`` when it is none."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise DomainError(_("Enter an amount in euros."), field=field, rule="REQUIRED")
        return None
    amount = money.parse(value)
    if amount is None:
        raise DomainError(_("Enter an amount in euros, like 6 or 6,50 (up to 99999,99)."), field=field,
                          rule="FORMAT")
    return amount


def _fee_state(fee: EventFee | None) -> dict[str, Any] | None:
    if fee is None:
        return None
    return {"fee": money.decimal(fee.fee_cents), "member_price": money.decimal(fee.member_cents),
            "card_free": fee.card_free}


@transaction.atomic
def set_fee(tournament: Tournament, *, actor: Any, fee: Any, member_price: Any = None,
            card_free: bool = True) -> EventFee | None:
    """The event's fee (``fee`` empty: the event charges nothing, the row goes; payments already
    marked are kept)."""
    require_organizer(actor, tournament, _("Only an organizer of this tournament may set its entry fee."))
    fee_cents = cents(fee, "fee", required=False)
    member_cents = cents(member_price, "member_price", required=False)
    current = EventFee.objects.select_for_update().filter(tournament=tournament).first()
    before = _fee_state(current)
    if fee_cents is None:
        if member_cents is not None:
            raise DomainError(_("A member price needs an entry fee."), field="fee", rule="REQUIRED")
        if current is not None:
            current.delete()
            audit.record(actor=actor, action="fee.remove", obj=tournament, tournament=tournament, before=before)
        return None
    if member_cents is not None and member_cents > fee_cents:
        raise DomainError(_("The member price cannot be above the entry fee."), field="member_price", rule="FEE")
    row = current or EventFee(tournament=tournament)
    row.fee_cents, row.member_cents, row.card_free = fee_cents, member_cents, bool(card_free)
    row.updated_by = actor if getattr(actor, "is_authenticated", False) else None
    row.save()
    audit.record(actor=actor, action="fee.set", obj=row, tournament=tournament, before=before,
                 after=_fee_state(row))
    return row


def _payment_state(payment: Payment | None) -> dict[str, Any]:
    if payment is None:
        return {"status": Payment.Status.UNPAID}
    return {"status": payment.status, "method": payment.method, "amount": money.decimal(payment.amount_cents)}


def _checked(due: selectors.Due, status: str, method: str, amount: Any) -> tuple[str, int]:
    """The method and cents a mark stores, or the refusal."""
    if status == Payment.Status.FREE:
        if due.category != selectors.CARD:
            raise DomainError(_("Only a player with the club's annual card for this year enters free."),
                              field="status", rule="CARD")
        return "", 0
    if status == Payment.Status.UNPAID:
        return "", 0
    if status != Payment.Status.PAID:
        raise DomainError(_("Choose paid, unpaid or free."), field="status", rule="FORMAT")
    if method not in Payment.Method.values:
        raise DomainError(_("Choose how the player paid."), field="method", rule="REQUIRED")
    paid = cents(amount, "amount", required=False)
    return method, due.price_cents if paid is None else paid


@transaction.atomic
def mark_payment(registration: Registration, *, actor: Any, status: str, method: str = "",
                 amount: Any = None) -> Payment:
    """``status`` paid (``amount`` in euros, default the player's price; ``method`` cash, card or
    other), unpaid, or free (the annual card holders only)."""
    tournament = registration.tournament
    require_organizer(actor, tournament, _("Only an organizer of this tournament may take entry fees."))
    due = selectors.due_of(registration)
    if due is None:
        raise DomainError(_("This event charges no entry fee: set one first."), field="status", rule="FEE")
    current = Payment.objects.select_for_update().filter(registration=registration).first()
    if current is None and not registration.is_active:
        raise DomainError(_("This player holds no place in the event."), field="registration", rule="STATUS")
    before = _payment_state(current)
    stored_method, stored_cents = _checked(due, status, method, amount)
    payment = current or Payment(registration=registration)
    payment.status, payment.method, payment.amount_cents = status, stored_method, stored_cents
    payment.recorded_by = actor if getattr(actor, "is_authenticated", False) else None
    payment.save()
    audit.record(actor=actor, action="payment.mark", obj=payment, tournament=tournament, before=before,
                 after=_payment_state(payment) | {"player_name": registration.player.display_name})
    return payment


def require_club_manager(actor: Any, club: Club) -> None:
    """A club's members are kept by its admins (and the federation admins)."""
    if not may_manage_seasons(actor, club):
        raise PermissionDeniedError(_("Only an admin of this club may change its members."), rule="ROLE")


@dataclass
class Card:
    """A member's annual card: paid or not, how much (euros as typed), on which day."""

    card: bool = False
    amount: Any = None
    paid_on: dt.date | None = None


def _card_fields(card: Card) -> dict[str, Any]:
    amount = cents(card.amount, "card_amount", required=False)
    if not card.card and (amount is not None or card.paid_on is not None):
        raise DomainError(_("An amount or a date is for a paid card: tick 'annual card paid'."), field="card",
                          rule="REQUIRED")
    return {"card": bool(card.card), "card_cents": amount, "card_paid_on": card.paid_on}


def _member_state(m: Membership) -> dict[str, Any]:
    return {"player_name": m.player.display_name, "year": m.year, "card": m.card,
            "card_amount": money.decimal(m.card_cents), "card_paid_on": m.card_paid_on}


def this_year() -> int:
    return timezone.localdate().year


def check_year(year: Any) -> int:
    if not isinstance(year, int) or not FIRST_YEAR <= year <= LAST_YEAR:
        raise DomainError(_("Enter a year between %(first)s and %(last)s.") % {"first": FIRST_YEAR, "last": LAST_YEAR},
                          field="year", rule="FORMAT")
    return year


@transaction.atomic
def add_member(club: Club, player: Player, year: int, *, actor: Any, card: Card | None = None) -> Membership:
    require_club_manager(actor, club)
    year = check_year(year)
    fields = _card_fields(card or Card())
    if Membership.objects.filter(club=club, player=player, year=year).exists():
        raise DomainError(_("%(player)s is already a member for %(year)s.") % {
            "player": player.display_name, "year": year}, field="player", rule="DUPLICATE")
    member = Membership.objects.create(club=club, player=player, year=year, **fields)
    audit.record(actor=actor, action="membership.add", obj=member, tournament=None, after=_member_state(member))
    return member


@transaction.atomic
def change_member(member: Membership, *, actor: Any, card: Card) -> Membership:
    require_club_manager(actor, member.club)
    before = _member_state(member)
    for name, value in _card_fields(card).items():
        setattr(member, name, value)
    member.save()
    audit.record(actor=actor, action="membership.change", obj=member, tournament=None, before=before,
                 after=_member_state(member))
    return member


@transaction.atomic
def remove_member(member: Membership, *, actor: Any) -> None:
    require_club_manager(actor, member.club)
    before = _member_state(member)
    audit.record(actor=actor, action="membership.remove", obj=member, tournament=None, before=before)
    member.delete()


def fold_memberships(keep: int, drop: int) -> None:
    """Before two player records are merged: a membership of the dropped one for a club and year
    the kept one also has is folded into it (a paid card wins), and the dropped one's payment
    moves to the kept one's registration of the same event when that has none (merging moves
    every other reference and deletes the dropped twin registration, which would take its
    payment along)."""
    for member in Membership.objects.filter(player_id=drop):
        twin = Membership.objects.filter(player_id=keep, club_id=member.club_id, year=member.year).first()
        if twin is None:
            continue
        if member.card and not twin.card:
            twin.card, twin.card_cents, twin.card_paid_on = True, member.card_cents, member.card_paid_on
            twin.save()
        member.delete()
    for payment in Payment.objects.filter(registration__player_id=drop):
        twin_reg = Registration.objects.filter(tournament_id=payment.registration.tournament_id,
                                               player_id=keep).first()
        if twin_reg is not None and not Payment.objects.filter(registration=twin_reg).exists():
            Payment.objects.filter(pk=payment.pk).update(registration=twin_reg)

