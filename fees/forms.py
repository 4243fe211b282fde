"""Forms of the fees pages: they keep what was typed (amounts as text: "6,50" and "6.50" alike);
``fees.services`` checks and writes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.dates import DateField

from .models import Payment

AMOUNT = {"inputmode": "decimal", "autocomplete": "off", "size": "8"}


class FeeForm(forms.Form):
    fee = forms.CharField(label=_("Entry fee (€)"), required=False, max_length=20,
                          widget=forms.TextInput(attrs=AMOUNT),
                          help_text=_("Empty: the event is free and the check-in shows no fee."))
    member_price = forms.CharField(label=_("Member price (€)"), required=False, max_length=20,
                                   widget=forms.TextInput(attrs=AMOUNT),
                                   help_text=_("For the club's members of the event's year. Empty: the full fee."))
    card_free = forms.BooleanField(label=_("Holders of the club's annual card enter free"), required=False,
                                   initial=True)


class PaymentForm(forms.Form):
    status = forms.ChoiceField(choices=Payment.Status.choices)
    method = forms.ChoiceField(choices=[("", "")] + list(Payment.Method.choices), required=False)
    amount = forms.CharField(required=False, max_length=20)


class CardForm(forms.Form):
    card = forms.BooleanField(label=_("Annual card paid"), required=False)
    card_amount = forms.CharField(label=_("Card amount (€)"), required=False, max_length=20,
                                  widget=forms.TextInput(attrs=AMOUNT))
    card_paid_on = DateField(label=_("Paid on"), required=False)


class MemberForm(CardForm):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int, empty_value=None)
    year = forms.IntegerField(label=_("Year"), min_value=0, max_value=9999)

    field_order = ["player", "year", "card", "card_amount", "card_paid_on"]

    def __init__(self, *args: object, players: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["player"].choices = [("", "—"), *players]  # type: ignore[attr-defined]
