"""REST API of the national ranking (K-RANKING): the years, and one year's rows with every
player's events (VT, counted). Public and read-only; name and club are the only personal data.
Rows are bounded: ``?limit=`` (default 100, at most 1000) and ``?offset=``; ``?q=`` searches names.

A year the instance can hold (:data:`FIRST_YEAR` to next year) with nothing counted yet is an
empty ranking (200, ``rows: []``), so a client polling the current year sees it fill; only a year
outside that range, with no ranking stored, is a 404."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common import live
from common.api import query_int
from tournaments.models import Tournament
from tournaments.permissions import is_organizer

from . import event
from . import selectors as ns
from .models import NationalRankingRow

DEFAULT_LIMIT, MAX_LIMIT = 100, 1000
# The earliest year an event can belong to here: the clubs' oldest workbooks that can be imported
# are from 2017; 2000 leaves room for older club records without accepting any number as a year.
FIRST_YEAR = 2000


def holds(year: int) -> bool:
    """Whether ``year`` is one the instance can hold: FIRST_YEAR to next year (a client a few
    hours ahead on New Year's Eve already polls the next one)."""
    return FIRST_YEAR <= year <= timezone.localdate().year + 1


class RankingYearSerializer(serializers.Serializer):
    year = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    events = serializers.IntegerField()
    url = serializers.CharField()


class RankingYearsSerializer(serializers.Serializer):
    years = RankingYearSerializer(many=True)


class RankingPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)


class RankingEventSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="The tournament's slug.")
    name = serializers.CharField()
    type = serializers.CharField(help_text="National type: RDN, MST, OPN, ITC, CPP, CNI, SQD, 2V2, IVT.")
    position = serializers.IntegerField()
    vt = serializers.FloatField(help_text="VT = a × (100 + T) × C, one decimal (half down).")
    counted = serializers.BooleanField()
    reason = serializers.ChoiceField(choices=NationalRankingRow.Reason.choices,
                                     help_text="Why it did not count ('counted' when it did).")


class RankingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(allow_null=True, help_text="Empty: none of the player's events counted.")
    player = RankingPlayerSerializer()
    points = serializers.FloatField()
    events = RankingEventSerializer(many=True)


class RankingYearRowsSerializer(serializers.Serializer):
    year = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    count = serializers.IntegerField(help_text="Rows matching (before limit/offset).")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    rows = RankingRowSerializer(many=True)


class NationalRankingYearsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="ranking_years", responses=RankingYearsSerializer, summary="National ranking: the years with events (K-RANKING)")
    def get(self, request: Request) -> Response:
        return Response({"years": [
            {"year": r.year, "computed_at": r.computed_at, "version": r.version, "events": r.events,
             "url": request.build_absolute_uri(f"/api/ranking/{r.year}/")}
            for r in ns.years()]})


class NationalRankingYearAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ranking_year", summary="National ranking of a year, explained per player (K-RANKING)",
        description=(f"Any year from {FIRST_YEAR} to next year answers 200: a year with nothing counted yet "
                     "is an empty ranking (`rows: []`, `count: 0`, `version: 0` and `computed_at: null` "
                     "until it is first computed), so the current year can be polled from January 1st. "
                     "A year outside that range answers 404, unless a ranking is stored for it."),
        responses={200: RankingYearRowsSerializer,
                    404: OpenApiResponse(description=f"A year outside {FIRST_YEAR} to next year, with no ranking.")},
        parameters=[OpenApiParameter("q", str, description="Search by name or nickname"),
                    OpenApiParameter("limit", int, description=f"Rows per page (default {DEFAULT_LIMIT}, max {MAX_LIMIT})"),
                    OpenApiParameter("offset", int, description="Rows to skip")])
    def get(self, request: Request, year: int) -> Response:
        ranking = ns.year(year)
        limit = query_int(request.query_params.get("limit"), DEFAULT_LIMIT, 1, MAX_LIMIT)
        offset = query_int(request.query_params.get("offset"), 0, 0, 2**31 - 1)
        if ranking is None or not ranking.events:
            if not holds(year):
                raise Http404(_("No national ranking for this year."))
            # nothing counted yet (or any more): an empty ranking, not an error
            return Response({"year": year, "computed_at": ranking.computed_at if ranking else None,
                             "version": ranking.version if ranking else 0, "count": 0, "limit": limit,
                             "offset": offset, "rows": []})
        qs = ns.rows(ranking, (request.query_params.get("q") or "")[:100])
        return Response({"year": ranking.year, "computed_at": ranking.computed_at, "version": ranking.version,
                         "count": qs.count(), "limit": limit, "offset": offset,
                         "rows": ns.row_dicts(ranking, list(qs[offset:offset + limit]))})


class RankingSerializer(serializers.Serializer):
    event_type = serializers.CharField(help_text="K-RANKING type (Tipologia) the event is ranked as")
    event_type_source = serializers.ChoiceField(
        choices=["tournament", "preset", "default"],
        help_text="where the type comes from: the tournament's own event_type, its format preset, or "
        "neither (default: AMC, class 0, not counted by the national ranking; see notice)")
    notice = serializers.CharField(help_text="empty, or why the event does not count (e.g. no event type)")
    table_games = serializers.IntegerField()
    counts = serializers.BooleanField()
    year = serializers.IntegerField()
    contributions = serializers.ListField(child=serializers.DictField())
    events = serializers.ListField(child=serializers.DictField())
    games = serializers.ListField(child=serializers.DictField())
    standings = serializers.ListField(child=serializers.DictField())


@live.public
class RankingAPI(APIView):
    """K-RANKING: each player's national-ranking contribution and the event's rows (events, games,
    standings) in the ranking's formats."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RankingSerializer, summary="National ranking contribution and rows (K-RANKING)")
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        # National ids (idNazionale) only for the tournament's organizers (privacy).
        return Response(event.event_ranking(
            tournament, national_ids=is_organizer(request.user, tournament)))
