"""REST API of scoring/: results (write: referee or organizer of that tournament),
confirmations, standings (read). Views stay thin: services authorise, check and write."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common import live
from common.errors import DomainError
from tables.models import Game, Table
from tournaments import idempotency
from tournaments.access import linked_player
from tournaments.models import Tournament
from tournaments.permissions import TournamentObjectPermission, TournamentScoped

from . import assembled, selectors, services
from .models import ResultSubmission
from .serializers import (
    ConfirmationSerializer,
    FormatInputSerializer,
    FormatSerializer,
    ResultInputSerializer,
    StandingsSerializer,
    SubmissionSerializer,
    TableResultsSerializer,
)


@live.public
class StandingsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=StandingsSerializer, summary="Standings (K-BEST2, K-ITALIANA or K-KO)", parameters=[
        OpenApiParameter("limit", int, description="at most this many rows (a page; 1 to 500)"),
        OpenApiParameter("offset", int, description="rows skipped before the page"),
        OpenApiParameter("player", int, description="the page of rows that holds this player"),
        OpenApiParameter("q", str, description="only players whose name or club contains this"),
    ])
    def get(self, request: Request, slug: str) -> Response:
        """Every row by default; ``limit``/``offset``, ``player`` or ``q`` answer one page of them,
        with ``count`` (rows matching) and ``offset``: a phone need not download 5,000 rows."""
        tournament = get_object_or_404(Tournament, slug=slug)
        params = request.query_params
        if not any(k in params for k in ("limit", "offset", "player", "q")):
            return _every_row(request, tournament)
        limit = min(max(_number(params.get("limit"), "limit", 100), 1), 500)
        offset = _number(params.get("offset"), "offset", 0)
        player = _number(params.get("player"), "player", -1)
        page = selectors.standings_slice(tournament, offset=offset, limit=limit, player=player,
                                         q=params.get("q", "").strip()[:60], public=True)
        return Response({k: v for k, v in page.items() if k not in ("at", "total")})


def _every_row(request: Request, tournament: Tournament) -> HttpResponse:
    """The whole standings: as JSON, assembled from the worker's stored rows (``scoring.assembled``:
    each row encoded once per version, not 5,000 rows per change); read whole otherwise (no
    worker, nothing stored yet, a row evicted) or for another renderer (the browsable API,
    ``indent=``), and when games are hidden from the public (``selectors.public_standings``)."""
    if (request.accepted_renderer.format == "json" and "indent" not in (request.accepted_media_type or "")
            and selectors.first_hidden_game(tournament) is None):
        body = assembled.full_body(tournament.pk)
        if body is not None:
            return HttpResponse(body, content_type=request.accepted_renderer.media_type)
    return Response(selectors.public_standings(tournament))


def _number(value: str | None, name: str, default: int) -> int:
    if value is None or value == "":
        return default
    if not value.isdigit() or len(value) > 9:
        raise DomainError(_("%(name)s must be a whole number.") % {"name": name}, field=name)
    return int(value)


class TableResultsAPI(APIView):
    permission_classes = [TournamentObjectPermission]
    required_role = "referee"

    def get_table(self) -> Table:
        if not hasattr(self, "_table"):
            self._table = get_object_or_404(Table.objects.select_related("game__tournament"), pk=self.kwargs["pk"])
        return self._table

    def get_tournament(self) -> Tournament:
        return self.get_table().game.tournament

    @extend_schema(responses=TableResultsSerializer, summary="A table's result: status and every version")
    def get(self, request: Request, pk: int) -> Response:
        state = selectors.table_state(self.get_table())
        return Response({
            "table": state.table.pk, "status": state.status, "version": state.version,
            "submissions": SubmissionSerializer(state.submissions, many=True).data,
        })

    @extend_schema(
        request=ResultInputSerializer,
        responses={
            201: SubmissionSerializer,
            400: OpenApiResponse(description=(
                "Refused input: {field: [message], rule, detail}. The field names what to fix "
                "(e.g. `owners`, `armies_3`), `rule` the rule id (B-MAP, A-OCCUPY, S-PLACE…) or FORMAT. "
                "A key given twice in one JSON object (`{\"owners\": {\"Alaska\": 1, \"Alaska\": 2}}`) "
                "is refused the same way, naming the object's field.")),
            403: OpenApiResponse(description=(
                "Not allowed: {detail, rule: ROLE, tournament, required_role, your_role}. `detail` says "
                "why, e.g. a referee of another tournament.")),
            409: OpenApiResponse(description=(
                "Someone saved a newer version meanwhile (rule VERSION). A retry of a write that was "
                "saved, with the same Idempotency-Key, gets its 201 instead.")),
        },
        summary="Enter a new version of a table's result (board, short form or record)",
        description="{pk} is the table's `id`, given by the tables API (`id`, `results_url`).",
    )
    def post(self, request: Request, pk: int) -> Response:
        def write() -> idempotency.Answer:
            ser = ResultInputSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            d: dict[str, Any] = ser.validated_data
            sub = services.submit_result(
                actor=request.user, table=self.get_table(), kind=d["kind"], data=d,
                ended_by=d.get("ended_by") or "", expected_version=d["version"],
            )
            return status.HTTP_201_CREATED, SubmissionSerializer(sub).data

        code, body = idempotency.once(request, write)  # the answer is built before the commit
        return Response(body, status=code)


class ConfirmAPI(APIView):
    permission_classes = [AllowAny]  # a player's private link is not a login: services decide

    @extend_schema(request=None, responses={201: ConfirmationSerializer},
                              summary="Confirm a result (a second referee, the organizer, or a player of that table)")
    def post(self, request: Request, pk: int) -> Response:
        def write() -> idempotency.Answer:
            sub = get_object_or_404(ResultSubmission.objects.select_related("table__game__tournament"), pk=pk)
            player = linked_player(request, sub.tournament)
            conf = services.confirm_result(actor=request.user, submission=sub, player=player)
            return status.HTTP_201_CREATED, ConfirmationSerializer(conf).data

        code, body = idempotency.once(request, write)  # the answer is built before the commit
        return Response(body, status=code)


class WithdrawCorrectionAPI(APIView):
    permission_classes = [AllowAny]  # its author or an organizer: the service decides (403 for others)

    @extend_schema(
        request=None,
        responses={
            200: TableResultsSerializer,
            400: OpenApiResponse(description="Not a correction waiting for confirmation (rule CONFIRM)."),
            403: OpenApiResponse(description="Neither the correction's author nor an organizer (rule CONFIRM)."),
        },
        summary="Withdraw a correction nobody has confirmed yet (its author or an organizer)",
        description="The confirmed result keeps counting; the table's result as it now stands is returned.",
    )
    def post(self, request: Request, pk: int) -> Response:
        sub = get_object_or_404(ResultSubmission.objects.select_related("table__game__tournament"), pk=pk)
        state = services.withdraw_correction(actor=request.user, submission=sub)
        return Response({
            "table": state.table.pk, "status": state.status, "version": state.version,
            "submissions": SubmissionSerializer(state.submissions, many=True).data,
        })


class FormatAPI(TournamentScoped, APIView):
    """Format presets (tournaments/formats/presets.py): every preset with all its numbers, the one chosen,
    and (organizer) choosing one with the changes it allows."""

    permission_classes = [TournamentObjectPermission]
    required_role = "organizer"

    def _state(self) -> dict[str, Any]:
        from tournaments import formats

        t = self.get_tournament()
        fmt = t.event_format()
        current = fmt.preset_obj
        return {
            "current": fmt.preset or None,
            "current_numbers": current.as_dict(fmt.club_changes) if current else None,
            "best_n": fmt.best_n, "games_count": fmt.games_count, "chain": list(fmt.chain),
            "club_changes": dict(fmt.club_changes), "presets": formats.all_presets(),
        }

    @extend_schema(responses=FormatSerializer, summary="Format presets and the tournament's choice")
    def get(self, request: Request, slug: str) -> Response:
        return Response(self._state())

    @extend_schema(request=FormatInputSerializer, responses=FormatSerializer,
                   summary="Choose a format preset and change what it allows (organizer)")
    def post(self, request: Request, slug: str) -> Response:
        ser = FormatInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        services.apply_preset(actor=request.user, tournament=self.get_tournament(),
                              preset_id=ser.validated_data["preset"], changes=ser.validated_data.get("changes") or {})
        return Response(self._state())


class GameFinishSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.CharField()
    finished_at = serializers.DateTimeField()


class FinishGameAPI(TournamentScoped, APIView):
    """Close a game once every table's result is confirmed (organizer): its status becomes
    finished and the next game can be composed from it."""

    permission_classes = [TournamentObjectPermission]
    required_role = "organizer"

    @extend_schema(request=None, responses=GameFinishSerializer, summary="Finish a game (organizer)")
    def post(self, request: Request, slug: str, number: int) -> Response:
        game = get_object_or_404(Game, tournament=self.get_tournament(), number=number)
        game = services.finish_game(actor=request.user, game=game)
        return Response({"game": game.number, "status": game.status, "finished_at": game.finished_at})


