"""API of one registered player's personal data: export (GET, JSON) and erasure (POST, with
``confirm: true``). ``tournaments.privacy`` decides who may (staff, or an organizer of EVERY
tournament the player took part in) and audits both; the player must be registered in the
tournament of the URL."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import DomainError, PermissionDeniedError

from . import privacy
from .models import Player, Registration
from .permissions import TournamentObjectPermission, TournamentScoped, is_organizer


class EraseSerializer(serializers.Serializer):
    confirm = serializers.BooleanField(help_text="Must be true: the erasure cannot be undone.")


class ErasedSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField(help_text="The anonymised name the results keep.")


class _PlayerOfTournament(TournamentScoped, APIView):
    permission_classes = [TournamentObjectPermission]

    def get_player(self, request: Request) -> Player:
        tournament = self.get_tournament()
        if not is_organizer(request.user, tournament):
            raise PermissionDeniedError(_("Only an organizer of this tournament may do this."), rule="ROLE")
        reg = get_object_or_404(Registration.objects.select_related("player"), tournament=tournament,
                                player_id=self.kwargs["pk"])
        return reg.player


class PlayerDataExport(_PlayerOfTournament):
    @extend_schema(responses=OpenApiTypes.OBJECT,
                   summary="Everything stored about a player (organizer of all their tournaments)")
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(privacy.export_player(self.get_player(request), actor=request.user))


class PlayerErase(_PlayerOfTournament):
    @extend_schema(request=EraseSerializer, responses=ErasedSerializer,
                   summary="Erase a player's personal data; results kept anonymised")
    def post(self, request: Request, slug: str, pk: int) -> Response:
        player = self.get_player(request)
        data = EraseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not data.validated_data["confirm"]:
            raise DomainError(_("Set confirm to true: the erasure cannot be undone."), field="confirm",
                              rule="PRIVACY")
        erased: Any = privacy.erase_player(player, actor=request.user)
        return Response({"player": erased.pk, "name": erased.full_name})
