"""REST API of a season's final phase: who qualified and why, its tables and the season's final
ranking (public); creating it, absences and the draws (club admins, federation admins), through
``seasons.finals.services``."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import DomainError
from tables.api import _validated
from tournaments.models import Season

from . import selectors, services


class FinalsSerializer(serializers.Serializer):
    options = serializers.DictField(help_text="direct, semifinal_places, ripescati, min_evenings, consolation")
    final_size = serializers.IntegerField()
    semifinals = serializers.IntegerField()
    explained = serializers.CharField(help_text="the option in one paragraph of the request's language")
    phase = serializers.DictField(allow_null=True, help_text="the final-phase event (id, slug, name, date, "
                                                             "status) once created")
    consolation = serializers.DictField(allow_null=True, help_text="the torneo degli esclusi, once created")
    qualifiers = serializers.ListField(child=serializers.DictField(),
                                       help_text="rows of `rows` that play the final phase")
    rows = serializers.ListField(child=serializers.DictField(), help_text=(
        "every player of the season's standings: position, rank, total, evenings_played, best_game, "
        "role (direct | semifinal | ripescato | consolation | out | absent), why (standing | next_in_line | "
        "best_game | no_ripescaggio_candidate | others | withdrawn), their labels, reserve"))
    ties = serializers.ListField(child=serializers.CharField(), help_text="each tie met at a cut, explained")
    reserve = serializers.CharField(allow_null=True)
    reserve_ripescaggio = serializers.CharField(allow_null=True)
    semifinal_tables = serializers.ListField(child=serializers.DictField())
    final_table = serializers.DictField(allow_null=True)
    ranking = serializers.ListField(child=serializers.DictField(), help_text=(
        "the season's final ranking once the final has its result: position, player, name, club, how, "
        "season_total"))
    step = serializers.CharField(help_text="create | draw_semifinals | semifinals_playing | draw_final | "
                                           "final_playing | done")


class PhaseInputSerializer(serializers.Serializer):
    date = serializers.DateField(required=False, allow_null=True,
                                 help_text="default: the next weekly date after the last evening")


class AbsentInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)


class DrawInputSerializer(serializers.Serializer):
    phase = serializers.ChoiceField(choices=["semifinals", "final"],
                                    help_text="semifinals: the semifinal tables (drawn again until they start); "
                                              "final: the final table, once every semifinal has its result")
    seed = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                 help_text="the draw's seed (default: a random one, kept on the game)")


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=pk)


def _overview(season: Season) -> dict[str, Any]:
    data = selectors.overview(season)
    if data is None:
        raise DomainError(_("This season has no final phase: turn it on in the season's settings."),
                          field="finals", rule="K-KO-RCU")
    return data


class SeasonFinalsAPI(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(responses=FinalsSerializer, summary="A season's final phase: who qualified and why, its "
                                                       "tables, the season's final ranking")
    def get(self, request: Request, pk: int) -> Response:
        return Response(FinalsSerializer(_overview(_season(pk))).data)

    @extend_schema(request=PhaseInputSerializer, responses={201: FinalsSerializer},
                   summary="Create the final phase and the consolation event from the standings (club admin)")
    def post(self, request: Request, pk: int) -> Response:
        data = _validated(PhaseInputSerializer, request.data)
        season = _season(pk)
        services.create_phase(season, actor=request.user, date=data.get("date"))
        return Response(FinalsSerializer(_overview(season)).data, status=status.HTTP_201_CREATED)


class SeasonFinalsWithdrawAPI(APIView):
    @extend_schema(request=AbsentInputSerializer, responses=FinalsSerializer,
                   summary="A qualifier is absent: withdrawn, the next in line comes in (club admin)")
    def post(self, request: Request, pk: int) -> Response:
        data = _validated(AbsentInputSerializer, request.data)
        season = _season(pk)
        services.mark_absent(season, data["player"], actor=request.user, reason=data.get("reason", ""))
        return Response(FinalsSerializer(_overview(season)).data)


class SeasonFinalsDrawAPI(APIView):
    @extend_schema(request=DrawInputSerializer, responses=FinalsSerializer,
                   summary="Draw the semifinal tables or the final table (club admin)")
    def post(self, request: Request, pk: int) -> Response:
        data = _validated(DrawInputSerializer, request.data)
        season = _season(pk)
        draw = services.draw_semifinals if data["phase"] == "semifinals" else services.draw_final
        draw(season, actor=request.user, seed=data.get("seed"))
        return Response(FinalsSerializer(_overview(season)).data)
