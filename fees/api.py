"""REST API of the fees app: the same reads and writes as its pages, through ``fees.services``.
An event's fee is public; its payments and cash summary are its organizers'; a club's members
are its admins' (and the federation admins'). Amounts are euros as exact JSON numbers with two
decimals (``6.50``); a bad one is a 400 naming the field (rule ``FORMAT``)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import DomainError, NotFoundError, PermissionDeniedError
from tournaments.models import Club, Player, Registration
from tournaments.permissions import TournamentObjectPermission, TournamentScoped, is_organizer

from . import money, selectors, services
from .models import Membership, Payment


def _money(**kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=7, decimal_places=2, min_value=0, coerce_to_string=False, **kwargs)


def _validated(serializer_class: type[serializers.Serializer], data: Any, partial: bool = False) -> dict[str, Any]:
    """The request's fields, or the first problem as a 400 naming its field (rule FORMAT)."""
    s = serializer_class(data=data, partial=partial)
    if not s.is_valid():
        field, errors = next(iter(s.errors.items()))
        raise DomainError(str(errors[0]), field=field, rule="FORMAT")
    return dict(s.validated_data)


class FeeSerializer(serializers.Serializer):
    fee = _money(allow_null=True, help_text="euros; null: the event charges nothing")
    member_price = _money(allow_null=True, required=False,
                          help_text="euros, for the club's members of the event's year; null: the full fee")
    card_free = serializers.BooleanField(required=False, default=True,
                                         help_text="holders of the club's annual card enter free")


def _fee_data(fee: Any) -> dict[str, Any]:
    if fee is None:
        return {"fee": None, "member_price": None, "card_free": False}
    return {"fee": money.decimal(fee.fee_cents), "member_price": money.decimal(fee.member_cents),
            "card_free": fee.card_free}


class FeeAPI(TournamentScoped, APIView):
    """The event's entry fee (public); an organizer sets or removes it."""

    permission_classes = [TournamentObjectPermission]

    @extend_schema(responses=FeeSerializer, summary="An event's entry fee")
    def get(self, request: Request, slug: str) -> Response:
        return Response(_fee_data(selectors.fee_of(self.get_tournament())))

    @extend_schema(request=FeeSerializer, responses=FeeSerializer, summary="Set an event's entry fee (organizer)")
    def put(self, request: Request, slug: str) -> Response:
        data = _validated(FeeSerializer, request.data)
        fee = services.set_fee(self.get_tournament(), actor=request.user, fee=data["fee"],
                               member_price=data.get("member_price"), card_free=data["card_free"])
        return Response(_fee_data(fee))


class PaymentRowSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    club_name = serializers.CharField()
    category = serializers.ChoiceField(choices=[selectors.STANDARD, selectors.MEMBER, selectors.CARD],
                                       help_text="standard: the fee; member: the member price; card: free")
    price = _money(help_text="what the player owes")
    status = serializers.ChoiceField(choices=Payment.Status.choices)
    method = serializers.CharField(help_text="cash | card | other; empty unless paid")
    amount = _money(help_text="what was collected (0 unless paid)")


def _row(line: selectors.Due) -> dict[str, Any]:
    row = selectors.as_row(line)
    row["price"] = money.decimal(row.pop("price_cents"))
    row["amount"] = money.decimal(row.pop("amount_cents"))
    return row


class _Organizers(TournamentScoped, APIView):
    permission_classes = [IsAuthenticated, TournamentObjectPermission]

    def check_read(self, request: Request) -> None:
        if not is_organizer(request.user, self.get_tournament()):
            raise PermissionDeniedError(_("Only an organizer of this tournament may see this."), rule="ROLE")


class PaymentList(_Organizers):
    @extend_schema(responses=PaymentRowSerializer(many=True),
                   summary="Who owes what and who paid: the players the cash summary counts (organizer)")
    def get(self, request: Request, slug: str) -> Response:
        self.check_read(request)
        summary = selectors.cash_summary(self.get_tournament())
        return Response([_row(line) for line in summary.lines] if summary else [])


class PaymentInputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Payment.Status.choices, help_text="paid | unpaid | free")
    method = serializers.ChoiceField(choices=Payment.Method.choices, required=False, allow_blank=True,
                                     help_text="cash | card | other: required when paid")
    amount = _money(required=False, allow_null=True, help_text="euros collected; default the player's price")


class PaymentAPI(_Organizers):
    @extend_schema(request=PaymentInputSerializer, responses=PaymentRowSerializer,
                   summary="Mark a registered player paid, unpaid or free with the annual card (organizer)")
    def put(self, request: Request, slug: str, pk: int) -> Response:
        reg = get_object_or_404(Registration.objects.select_related("player", "player__club", "tournament"),
                                pk=pk, tournament=self.get_tournament())
        data = _validated(PaymentInputSerializer, request.data)
        services.mark_payment(reg, actor=request.user, status=data["status"], method=data.get("method") or "",
                              amount=data.get("amount"))
        return Response(_row(selectors.due_of(reg)))  # type: ignore[arg-type]


class CashSerializer(serializers.Serializer):
    players = serializers.IntegerField(help_text="players counted: present at check-in or with a payment marked")
    members = serializers.IntegerField()
    cards = serializers.IntegerField()
    expected = _money()
    collected = _money()
    by_method = serializers.DictField(child=_money(), help_text="cash, card, other")
    unpaid = _money()
    unpaid_players = serializers.IntegerField()
    free_players = serializers.IntegerField()
    difference = serializers.DecimalField(max_digits=8, decimal_places=2, coerce_to_string=False,
                                          help_text="collected minus what the paid players owed")
    not_counted = serializers.IntegerField(help_text="holding a place, neither present nor marked")


class CashAPI(_Organizers):
    @extend_schema(responses=CashSerializer, summary="An event's cash summary (organizer); 404 without a fee")
    def get(self, request: Request, slug: str) -> Response:
        self.check_read(request)
        s = selectors.cash_summary(self.get_tournament())
        if s is None:
            raise NotFoundError(_("This event charges no entry fee."), rule="FEE")
        d = money.decimal
        return Response({
            "players": s.players, "members": s.categories[selectors.MEMBER], "cards": s.categories[selectors.CARD],
            "expected": d(s.expected), "collected": d(s.collected),
            "by_method": {m: d(c) for m, c in s.by_method.items()}, "unpaid": d(s.unpaid),
            "unpaid_players": s.unpaid_players, "free_players": s.free_players, "difference": d(s.difference), "not_counted": s.not_counted})


class ClubMemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField()
    player_name = serializers.CharField(read_only=True)
    year = serializers.IntegerField()
    card = serializers.BooleanField(required=False, default=False, help_text="the annual card is paid")
    card_amount = _money(required=False, allow_null=True)
    card_paid_on = serializers.DateField(required=False, allow_null=True)


def _member(m: Membership) -> dict[str, Any]:
    return {"id": m.pk, "player": m.player_id, "player_name": m.player.display_name, "year": m.year,
            "card": m.card, "card_amount": money.decimal(m.card_cents), "card_paid_on": m.card_paid_on}


def _managed_club(request: Request, pk: int) -> Club:
    club = get_object_or_404(Club, pk=pk)
    services.require_club_manager(request.user, club)
    return club


class MemberList(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("year", int, description="default: this year")],
                   responses=ClubMemberSerializer(many=True), summary="A club's members of a year (club admin)")
    def get(self, request: Request, club: int) -> Response:
        the_club = _managed_club(request, club)
        year = request.query_params.get("year", "")
        year_value = int(year) if year.isdigit() and len(year) == 4 else services.this_year()
        return Response([_member(m) for m in selectors.club_members(the_club, year_value)])

    @extend_schema(request=ClubMemberSerializer, responses={201: ClubMemberSerializer},
                   summary="Make a player a member for a year, with or without the annual card (club admin)")
    def post(self, request: Request, club: int) -> Response:
        the_club = _managed_club(request, club)
        data = _validated(ClubMemberSerializer, request.data)
        player = Player.objects.filter(pk=data["player"]).first()
        if player is None:
            raise DomainError(_("This player does not exist."), field="player", rule="REQUIRED")
        card = services.Card(data["card"], data.get("card_amount"), data.get("card_paid_on"))
        member = services.add_member(the_club, player, data["year"], actor=request.user, card=card)
        return Response(_member(member), status=status.HTTP_201_CREATED)


class CardSerializer(serializers.Serializer):
    card = serializers.BooleanField(help_text="the annual card is paid")
    card_amount = _money(required=False, allow_null=True)
    card_paid_on = serializers.DateField(required=False, allow_null=True)


class MemberAPI(APIView):
    permission_classes = [IsAuthenticated]

    def _row(self, request: Request, club: int, pk: int) -> Membership:
        the_club = _managed_club(request, club)
        return get_object_or_404(Membership.objects.select_related("player", "club"), pk=pk, club=the_club)

    @extend_schema(request=CardSerializer, responses=ClubMemberSerializer, summary="Change a member's annual card")
    def put(self, request: Request, club: int, pk: int) -> Response:
        row = self._row(request, club, pk)
        data = _validated(CardSerializer, request.data)
        card = services.Card(data["card"], data.get("card_amount"), data.get("card_paid_on"))
        return Response(_member(services.change_member(row, actor=request.user, card=card)))

    @extend_schema(responses={204: None}, summary="Remove a member for that year (club admin)")
    def delete(self, request: Request, club: int, pk: int) -> Response:
        services.remove_member(self._row(request, club, pk), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
