"""REST API of the rating (docs/rating.md): public and read-only, name and club the only
personal data. Rows are bounded like the national ranking's: ``?limit=`` (default 100, at most
1000), ``?offset=``; ``?q=`` searches names."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api import query_int
from ranking.api import DEFAULT_LIMIT, MAX_LIMIT, RankingPlayerSerializer

from . import selectors


class RatingRowSerializer(serializers.Serializer):
    player = RankingPlayerSerializer()
    rating = serializers.IntegerField(help_text="1500 + 100 × (mu − 3 sigma), Plackett–Luce (openskill).")
    games = serializers.IntegerField(help_text="Tables rated.")
    provisional = serializers.BooleanField(help_text="Fewer than 10 games rated.")


class RatingRowsSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Rows matching (before limit/offset).")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    rows = RatingRowSerializer(many=True)


class RatingsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings", responses=RatingRowsSerializer, summary="The rating (Indice) of every player, best first",
        parameters=[OpenApiParameter("q", str, description="Search by name or nickname"),
                    OpenApiParameter("limit", int, description=f"Rows per page (default {DEFAULT_LIMIT}, max {MAX_LIMIT})"),
                    OpenApiParameter("offset", int, description="Rows to skip")])
    def get(self, request: Request) -> Response:
        limit = query_int(request.query_params.get("limit"), DEFAULT_LIMIT, 1, MAX_LIMIT)
        offset = query_int(request.query_params.get("offset"), 0, 0, 2**31 - 1)
        qs = selectors.rows((request.query_params.get("q") or "")[:100])
        return Response({"count": qs.count(), "limit": limit, "offset": offset,
                         "rows": [selectors.row_dict(r) for r in qs[offset:offset + limit]]})
