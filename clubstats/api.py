"""REST API of the statistics (docs/statistics.md): public and read-only, the stored figures as
the pages show them (names and clubs the only personal data). Nothing here computes a figure."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ranking.api import RankingPlayerSerializer
from tournaments.models import Club, Player

from . import selectors, services
from .models import ALL_YEARS, Sheet

FIGURES_HELP = ("Recorded games' figures: games; by_seat [{seat, n (wins), of (games), rate, low, high}] (95% Wilson "
                "interval); by_size [{size, games, expected, seats [...]}]; by_objective [{objective, n, of, rate, low, "
                "high}]; endings [{ending, n, of, rate, low, high}]; sdadata {rolls, games, per_game, ending {n, of, rate, "
                "low, high}, sums [[total, rolls]]}. Empty object: not computed yet.")


class ClubRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ClubYearSerializer(serializers.Serializer):
    year = serializers.IntegerField(help_text="0: every year together.")
    computed_at = serializers.DateTimeField()
    events = serializers.IntegerField()
    players = serializers.IntegerField()
    games = serializers.IntegerField(help_text="Tables played.")
    new_players = serializers.IntegerField(allow_null=True, help_text="First time at the club's events; null for every year.")
    average_table = serializers.FloatField(allow_null=True)
    wins_by_seat = serializers.JSONField(help_text="[{seat, n (wins), of (tables), rate, low, high}]")


class ClubStatisticsSerializer(serializers.Serializer):
    club = ClubRefSerializer()
    years = ClubYearSerializer(many=True)
    recorded = serializers.JSONField(help_text=FIGURES_HELP)
    simulator = serializers.JSONField(help_text="The engine simulator's figures, same shape, plus seed, per_size, ruleset.")


class GamesSerializer(serializers.Serializer):
    recorded = serializers.JSONField(help_text=FIGURES_HELP)
    simulator = serializers.JSONField(help_text="The engine simulator's figures, same shape, plus seed, per_size, ruleset.")
    computed_at = serializers.DateTimeField(allow_null=True)


class BestSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    position = serializers.IntegerField()
    field = serializers.IntegerField(help_text="Players in the standings.")


class PlayerYearSerializer(serializers.Serializer):
    year = serializers.IntegerField(help_text="0: every year together.")
    computed_at = serializers.DateTimeField()
    events = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_place = serializers.FloatField()
    best = BestSerializer(many=True)
    clubs_met = ClubRefSerializer(many=True)


class PlayerStatisticsSerializer(serializers.Serializer):
    player = RankingPlayerSerializer()
    years = PlayerYearSerializer(many=True)


class ClubRankingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = RankingPlayerSerializer()
    points = serializers.CharField(help_text="Exact total, as text (\"12.5\").")
    counted = serializers.IntegerField(help_text="Events counted by the rule.")
    events = serializers.IntegerField(help_text="Events played.")


class ClubRankingSerializer(serializers.Serializer):
    club = ClubRefSerializer()
    year = serializers.IntegerField(help_text="0: every year together.")
    rule = serializers.CharField(help_text="\"sum\": every event's total added up; \"best\": the best_n highest.")
    best_n = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    rows = ClubRankingRowSerializer(many=True)


def _player(p: Player | None, player_id: int) -> dict[str, Any]:
    return {"id": player_id, "name": p.display_name if p else "", "club": p.club.name if p and p.club else ""}


class ClubStatisticsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="club_statistics", responses=ClubStatisticsSerializer,
                   summary="A club's statistics year by year, and its recorded games beside the simulator")
    def get(self, request: Request, pk: int) -> Response:
        club = get_object_or_404(Club, pk=pk)
        play, sim = selectors.play(club), selectors.simulator()
        return Response({"club": {"id": club.pk, "name": club.name},
                         "years": [{"year": s.year, "computed_at": s.computed_at, **s.data} for s in selectors.club_years(club)],
                         "recorded": play.data if play else {}, "simulator": sim.data if sim else {}})


class GamesStatisticsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="games_statistics", responses=GamesSerializer,
                   summary="Every recorded game's figures beside the simulator's")
    def get(self, request: Request) -> Response:
        play, sim = selectors.play(None), selectors.simulator()
        return Response({"recorded": play.data if play else {}, "simulator": sim.data if sim else {},
                         "computed_at": play.computed_at if play else None})


class PlayerStatisticsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="player_statistics", responses=PlayerStatisticsSerializer,
                   summary="A player's statistics year by year")
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
        sheets = selectors.player_years(player)
        names = selectors.club_names(c for s in sheets for c in s.data.get("clubs_met", []))
        years = [{"year": s.year, "computed_at": s.computed_at, **s.data,
                  "clubs_met": [{"id": c, "name": names.get(c, "")} for c in s.data.get("clubs_met", [])]}
                 for s in sheets]
        return Response({"player": _player(player, player.pk), "years": years})


class ClubRankingAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="club_ranking", responses=ClubRankingSerializer,
                   summary="A club's own ranking across its events of a year, by its rule",
                   parameters=[OpenApiParameter("year", int, description="The year (0: every year; default: the latest)")])
    def get(self, request: Request, pk: int) -> Response:
        club = get_object_or_404(Club, pk=pk)
        years = selectors.ranking_years(club)
        raw = str(request.query_params.get("year") or "")
        year = int(raw) if raw.isdigit() and int(raw) in years else next((y for y in years if y != ALL_YEARS), ALL_YEARS)
        sheet: Sheet | None = selectors.ranking(club, year)
        rule = selectors.rule_of(club)
        rows = sheet.data.get("rows", []) if sheet else []
        players = {p.pk: p for p in Player.objects.filter(pk__in=[r["player"] for r in rows]).select_related("club")}
        return Response({"club": {"id": club.pk, "name": club.name}, "year": year,
                         "rule": sheet.data["rule"] if sheet else rule.rule,
                         "best_n": sheet.data["best_n"] if sheet else rule.best_n,
                         "computed_at": sheet.computed_at if sheet else None,
                         "rows": [{**r, "player": _player(players.get(r["player"]), r["player"])} for r in rows]})


class RankingRuleSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="\"sum\": every event's total added up; \"best\": the best_n highest.")
    best_n = serializers.IntegerField(help_text="Events that count under \"best\" (1 to 100).")


class ClubRankingRuleAPI(APIView):
    @extend_schema(operation_id="club_ranking_rule", request=RankingRuleSerializer, responses=RankingRuleSerializer,
                   summary="Set a club's ranking rule (its admins or a federation admin); the ranking is rebuilt")
    def put(self, request: Request, pk: int) -> Response:
        club = get_object_or_404(Club, pk=pk)
        data = request.data if isinstance(request.data, dict) else {}
        # the service checks the values (HTTP 400 naming the field, rule CLUBRANKING) and who asks
        rule = services.set_rule(actor=request.user, club=club, rule=str(data.get("rule") or ""),
                                 best_n=data.get("best_n", 5))
        return Response({"rule": rule.rule, "best_n": rule.best_n})
