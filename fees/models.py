"""What the fees app keeps: an event's entry fee, each registration's payment, and a club's
members per year with their annual card. Money is whole euro cents (an integer): exact, summed
without rounding; pages and the API show and take euros with two decimals (``fees.money``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player, Registration, Tournament


class EventFee(models.Model):
    """The entry fee of one event. No row: the event charges nothing (the check-in page shows no
    fee column)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="entry_fee")
    fee_cents = models.PositiveIntegerField(_("entry fee"))
    # None: members pay the full fee; never above it (a member never pays more)
    member_cents = models.PositiveIntegerField(_("member price"), null=True, blank=True)
    card_free = models.BooleanField(_("annual card holders enter free"), default=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        verbose_name = _("entry fee")
        verbose_name_plural = _("entry fees")
        constraints = [models.CheckConstraint(
            condition=models.Q(member_cents__isnull=True) | models.Q(member_cents__lte=models.F("fee_cents")),
            name="fees_member_price_at_most_fee")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.fee_cents}"


class Payment(models.Model):
    """Whether one registered player paid the event's entry (marked at check-in). No row: not
    marked yet, which counts as unpaid."""

    class Status(models.TextChoices):
        UNPAID = "unpaid", _("unpaid")
        PAID = "paid", _("paid")
        FREE = "free", _("free (annual card)")

    class Method(models.TextChoices):
        # short words: the check-in's list on a phone. Card: debit or credit (bancomat);
        # other: a bank transfer, a payment app
        CASH = "cash", _("cash")
        CARD = "card", _("card")
        OTHER = "other", _("other")

    registration = models.OneToOneField(Registration, on_delete=models.CASCADE, related_name="payment")
    status = models.CharField(_("payment"), max_length=10, choices=Status.choices, default=Status.UNPAID)
    method = models.CharField(_("method"), max_length=10, choices=Method.choices, blank=True, default="")
    amount_cents = models.PositiveIntegerField(_("amount"), default=0)  # what was collected (paid only)
    recorded_at = models.DateTimeField(auto_now=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        constraints = [models.CheckConstraint(  # money only when paid, and then with its method
            condition=(models.Q(status="paid") & ~models.Q(method=""))
            | (~models.Q(status="paid") & models.Q(method="", amount_cents=0)),
            name="fees_payment_method_when_paid")]

    def __str__(self) -> str:
        return f"{self.registration_id}: {self.status}"


class Membership(models.Model):
    """A player is a member of a club for a year (the club's season year: an event of a season
    reads its season's year, any other event its date's year), with or without the annual card
    that lets them enter the club's events free."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships",
                               verbose_name=_("player"))
    year = models.PositiveSmallIntegerField(_("year"))
    card = models.BooleanField(_("annual card paid"), default=False)
    card_cents = models.PositiveIntegerField(_("card amount"), null=True, blank=True)
    card_paid_on = models.DateField(_("card paid on"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["club", "player", "year"], name="fees_one_membership_a_year")]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.player_id}/{self.year}"
