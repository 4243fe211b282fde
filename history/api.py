"""REST API of a player's public history and head-to-head (``history.selectors``): read-only,
names and clubs only."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Player

from . import selectors as history


class HistoryPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="display_name")
    club = serializers.CharField(source="club.name", default=None, allow_null=True)


class OpponentSerializer(serializers.Serializer):
    player = HistoryPlayerSerializer(allow_null=True, help_text="Empty: a ghost seat.")
    place = serializers.FloatField(allow_null=True)
    points = serializers.FloatField(allow_null=True)


class HistoryGameSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    rehearsal = serializers.BooleanField(help_text="A rehearsal game: its result never counts.")
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    place = serializers.FloatField(allow_null=True, help_text="Place at the table; empty: no result counts yet.")
    points = serializers.FloatField(allow_null=True, help_text="Tournament points of the game.")
    opponents = OpponentSerializer(many=True)


class HistoryEventSerializer(serializers.Serializer):
    event = serializers.CharField(source="tournament.slug", help_text="The tournament's slug.")
    name = serializers.CharField(source="tournament.name")
    date = serializers.DateField(source="tournament.date")
    club = serializers.CharField(source="tournament.club.name", default=None, allow_null=True)
    finished = serializers.BooleanField()
    position = serializers.IntegerField(allow_null=True, help_text="In the event's standings (final once finished).")
    total = serializers.FloatField(allow_null=True)
    games = HistoryGameSerializer(many=True)


class HistoryYearSerializer(serializers.Serializer):
    year = serializers.IntegerField(source="ranking.year")
    position = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField()


class PlayerHistorySerializer(serializers.Serializer):
    player = HistoryPlayerSerializer()
    events = HistoryEventSerializer(many=True)
    ranking = HistoryYearSerializer(many=True, help_text="The player's line of each year's national ranking.")


class MeetingSerializer(serializers.Serializer):
    event = serializers.CharField(source="game.tournament.slug")
    game = serializers.IntegerField(source="game.game")
    table = serializers.IntegerField(source="game.table")
    rehearsal = serializers.BooleanField(source="game.rehearsal")
    place = serializers.FloatField(source="game.place", allow_null=True)
    points = serializers.FloatField(source="game.points", allow_null=True)
    other_place = serializers.FloatField(allow_null=True)
    other_points = serializers.FloatField(allow_null=True)
    ahead = serializers.ChoiceField(choices=["me", "other", "tie", ""],
                                    help_text="Who placed ahead: the player, the other one, a tie, or empty (no result).")


class TotalsSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games with a result, rehearsals left out.")
    me = serializers.IntegerField()
    other = serializers.IntegerField()
    tie = serializers.IntegerField()
    my_points = serializers.FloatField()
    other_points = serializers.FloatField()


class HeadToHeadSerializer(serializers.Serializer):
    player = HistoryPlayerSerializer()
    other = HistoryPlayerSerializer()
    totals = TotalsSerializer()
    meetings = MeetingSerializer(many=True)


def _player(pk: int) -> Player:
    return get_object_or_404(Player.objects.select_related("club"), pk=pk)


class PlayerHistoryAPI(APIView):
    """A player's every public event: position, games (table, opponents, place, points) and their
    national ranking per year. Names and clubs only."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PlayerHistorySerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(PlayerHistorySerializer(history.history(_player(pk))).data)


class HeadToHeadAPI(APIView):
    """The games two players played at the same table and who placed ahead."""

    permission_classes = [AllowAny]

    @extend_schema(responses=HeadToHeadSerializer)
    def get(self, request: Request, pk: int, other: int) -> Response:
        data: dict[str, Any] = history.head_to_head(_player(pk), _player(other))
        return Response(HeadToHeadSerializer(data).data)
