"""REST API of the players' own check-in and the calls for the referee (in the OpenAPI schema).

A player is who their personal link says: the link opened in this browser (the session, as the
result confirmations read it) or its ``token`` in the body, for an app that keeps the link
itself. Referees and organizers see and take the calls. Services authorise and check."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import NotFoundError, PermissionDeniedError
from tables import selectors as table_selectors
from tournaments.access import find_link, linked_player
from tournaments.models import AccessLink, Player, Registration, Tournament
from tournaments.permissions import TournamentScoped, require_referee

from . import calls, selectors, services
from .models import RefereeCall


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(required=False, max_length=64,
                                  help_text="The player's personal link token (else: the link opened in this session)")


class SelfCheckInInputSerializer(TokenSerializer):
    game_number = serializers.IntegerField(min_value=1, max_value=99)


class SelfCheckInSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    player = serializers.IntegerField()
    game_number = serializers.IntegerField()
    checked_in_at = serializers.DateTimeField()
    by_player = serializers.BooleanField(help_text="Checked in by the player themselves")


class RefereeCallSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="table.number", read_only=True, help_text="The table's number in its game")
    game_number = serializers.IntegerField(source="table.game.number", read_only=True)
    player = serializers.IntegerField(source="called_by_player_id", allow_null=True, read_only=True,
                                      help_text="The player who called, when their personal link was open")
    player_name = serializers.SerializerMethodField()
    taken_by_name = serializers.SerializerMethodField()

    class Meta:
        model = RefereeCall
        fields = ["id", "table", "game_number", "called_at", "player", "player_name", "taken_at", "taken_by_name"]

    def get_player_name(self, obj: RefereeCall) -> str:
        return obj.called_by_player.display_name if obj.called_by_player else ""

    def get_taken_by_name(self, obj: RefereeCall) -> str:
        user = obj.taken_by
        return (user.get_full_name() or user.get_username()) if user else ""


def _player(request: Request, tournament: Tournament, token: str | None) -> Player | None:
    if not token:
        return linked_player(request, tournament)
    link = find_link(token)
    if link.kind != AccessLink.Kind.PLAYER or link.tournament_id != tournament.pk:
        raise PermissionDeniedError(_("This private link is not a player's link of this tournament."),
                                    field="token", rule="LINK")
    return link.player


class SelfCheckInAPI(TournamentScoped, APIView):
    permission_classes = [AllowAny]  # a personal link is not a login: the service decides

    @extend_schema(request=SelfCheckInInputSerializer, responses={201: SelfCheckInSerializer},
                   summary="A player checks themselves in for a game (while its check-in window is open)")
    def post(self, request: Request, slug: str) -> Response:
        data = SelfCheckInInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        player = _player(request, tournament, data.validated_data.get("token"))
        registration = Registration.objects.filter(tournament=tournament, player=player).first() if player else None
        if registration is None:
            raise PermissionDeniedError(_("Open your personal link on this phone first."), rule="LINK")
        checkin = services.check_in_self(registration, data.validated_data["game_number"], player=player)
        return Response({"registration": registration.pk, "player": registration.player_id,
                         "game_number": checkin.game_number, "checked_in_at": checkin.checked_in_at,
                         "by_player": hasattr(checkin, "self_service")}, status=status.HTTP_201_CREATED)


class CallRefereeAPI(TournamentScoped, APIView):
    permission_classes = [AllowAny]  # anyone at the table may call, like a bell on it

    @extend_schema(request=TokenSerializer, responses={201: RefereeCallSerializer},
                   summary="Call the referee to a table (the open call is answered again while it is open)")
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        data = TokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        game = table_selectors.game_of(tournament, number)
        found = table_selectors.table_of(game, table) if game is not None else None
        if found is None:
            raise NotFoundError(_("This game has no table %(t)s.") % {"t": table}, field="table")
        player = _player(request, tournament, data.validated_data.get("token"))
        call = calls.call_referee(found, player=player, user=request.user)
        return Response(RefereeCallSerializer(call).data, status=status.HTTP_201_CREATED)


class RefereeCallList(TournamentScoped, APIView):
    @extend_schema(responses={200: RefereeCallSerializer(many=True)},
                   summary="The open calls for the referee, oldest first (referees and organizers)")
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.get_tournament()
        require_referee(request.user, tournament)
        return Response(RefereeCallSerializer(selectors.open_calls(tournament), many=True).data)


class TakeCallAPI(TournamentScoped, APIView):
    @extend_schema(request=None, responses={200: RefereeCallSerializer},
                   summary="Take a call: the referee is on the way; it leaves every page")
    def post(self, request: Request, slug: str, pk: int) -> Response:
        tournament = self.get_tournament()
        call = get_object_or_404(RefereeCall.objects.select_related("table__game"), pk=pk, tournament=tournament)
        return Response(RefereeCallSerializer(calls.take_call(call, actor=request.user)).data)
