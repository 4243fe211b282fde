"""REST API of clocks and the sdadata closure (thin: the services are tables.clocks/closure).

Reads are public (clock state, the turn log and what happens next); writes need the referee role
on the tournament (``tournaments.permissions.TournamentObjectPermission``, ``required_role =
"referee"``). A stale ``version`` is a conflict (409); a step against a rule is 400 with its id.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common import live
from tournaments.permissions import TournamentObjectPermission

from . import clocks, closure
from .models import Table, TurnEvent


class ClockSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    # "stopped": the game was closed (or the tournament concluded) before the time ran out
    state = serializers.ChoiceField(choices=["not_started", "running", "paused", "expired", "stopped"])
    started_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    paused_at = serializers.DateTimeField(allow_null=True)
    expired_marked_at = serializers.DateTimeField(allow_null=True)
    server_now = serializers.DateTimeField()
    remaining_seconds = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()


class PauseSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200)
    version = serializers.IntegerField(required=False, allow_null=True)


class ResumeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    version = serializers.IntegerField(required=False, allow_null=True)


class ExtendSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(help_text="Minutes added to the deadline (1 to 120; E-TIME).")
    reason = serializers.CharField(max_length=200, help_text="Why (recorded with who and how much).")
    version = serializers.IntegerField(required=False, allow_null=True,
                                       help_text="The table version you saw; a stale one is 409.")


class TurnEventSerializer(serializers.ModelSerializer):
    recorded_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    # plain text, not an enum: "kind" enums of other apps would collide in the schema
    kind = serializers.CharField(read_only=True, help_text="end_turn | sdadata | time_expired | elimination")

    class Meta:
        model = TurnEvent
        fields = ["index", "kind", "seat", "conquered", "dice", "rolled_by_server", "recorded_by", "at"]


class NextActionSerializer(serializers.Serializer):
    kind = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    threshold = serializers.IntegerField(allow_null=True)
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField()


class TurnLogSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    next_action = NextActionSerializer()
    closure_state = serializers.DictField()
    expiry = serializers.DictField(allow_null=True, help_text=(
        "null until time expires; then {seat, assumed, message}: the seat whose turn it was (E-SUPP), "
        "and assumed=true when nobody said so and no turn had been recorded (then seat 1 or the seat "
        "the steps reached is used: set the right one with turns/expiry-seat/)"))
    events = TurnEventSerializer(many=True)


class EndTurnSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    conquered = serializers.IntegerField(min_value=0, default=0)
    dice = serializers.ListField(child=serializers.IntegerField(), required=False, allow_empty=True,
                                 help_text="The sdadata typed from the real dice (E-SDADATA).")
    server_roll = serializers.BooleanField(default=False, help_text="Let the server roll (secrets).")
    version = serializers.IntegerField(required=False, allow_null=True,
                                       help_text="The table version you saw; a stale one is 409.")


class SeatStepSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    version = serializers.IntegerField(required=False, allow_null=True)


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(required=False, allow_null=True)


class _TableView(APIView):
    permission_classes = [TournamentObjectPermission]
    required_role = "referee"
    _table_obj: Table | None = None

    def get_table(self) -> Table:
        if self._table_obj is None:
            kw = self.kwargs
            self._table_obj = get_object_or_404(
                Table.objects.select_related("game__tournament").prefetch_related("seats"),
                game__tournament__slug=kw["slug"], game__number=kw["number"], number=kw["table"],
            )
        return self._table_obj

    def get_tournament(self) -> Any:
        return self.get_table().game.tournament

    def _log(self, table: Table) -> dict[str, Any]:
        table.refresh_from_db()
        action = closure.next_action(table)
        return {
            "version": table.version,
            "status": table.status,
            "next_action": {"kind": action.kind, "seat": action.seat, "threshold": action.threshold,
                            "rule": action.rule, "message": action.message},
            "closure_state": closure.current_state(table).as_dict(),
            "events": closure.steps(table),
            "expiry": _expiry(table),
        }


def _expiry(table: Table) -> dict[str, Any] | None:
    """E-SUPP: whose turn it was when time expired, and whether a person said so. With no turn
    recorded before the deadline the closure starts from the seat the recorded steps reach (seat 1
    when none was): the answer says so instead of letting it pass unnoticed."""
    from tournaments.models import AuditEntry

    events = closure.steps(table)
    expiry = next((e for e in events if e.kind == TurnEvent.Kind.TIME_EXPIRED), None)
    if expiry is None:
        return None
    before = [e for e in events if e.index < expiry.index and e.kind != TurnEvent.Kind.ELIMINATION]
    said = AuditEntry.objects.filter(action="table.expiry_seat", object_type="tables.Table",
                                     object_id=str(table.pk)).exists()
    assumed = not before and not said
    message = ""
    if assumed:
        message = _("Time expired with no turn recorded: seat %(seat)s is assumed to have been playing. If "
                    "another seat was, say so (turns/expiry-seat/) before recording any further step "
                    "(E-SUPP).") % {"seat": expiry.seat}
    return {"seat": expiry.seat, "assumed": assumed, "message": message}



@live.public(bucket=30)  # without a worker expiry is marked on read: at most 30 s late
class ClockView(_TableView):
    @extend_schema(responses=ClockSerializer, summary="Clock of a table (public, from server time)")
    def get(self, request: Request, **kw: Any) -> Response:
        table = self.get_table()
        clocks.ensure_marked(table)
        return Response(ClockSerializer(clocks.clock_state(table)).data)


class PauseView(_TableView):
    @extend_schema(request=PauseSerializer, responses=ClockSerializer, summary="Pause a clock (referee)")
    def post(self, request: Request, **kw: Any) -> Response:
        data = _valid(PauseSerializer, request)
        table = self.get_table()
        clocks.pause_clock(table, actor=request.user, reason=data["reason"],
                           expected_version=data.get("version"))
        return Response(ClockSerializer(clocks.clock_state(table)).data)


class ResumeView(_TableView):
    @extend_schema(request=ResumeSerializer, responses=ClockSerializer, summary="Resume a clock (referee)")
    def post(self, request: Request, **kw: Any) -> Response:
        data = _valid(ResumeSerializer, request)
        table = self.get_table()
        clocks.resume_clock(table, actor=request.user, reason=data.get("reason", ""),
                            expected_version=data.get("version"))
        return Response(ClockSerializer(clocks.clock_state(table)).data)


class ExtendView(_TableView):
    @extend_schema(request=ExtendSerializer, responses=ClockSerializer,
                   summary="Extend a clock that has not expired (referee)")
    def post(self, request: Request, **kw: Any) -> Response:
        data = _valid(ExtendSerializer, request)
        table = self.get_table()
        clocks.extend_clock(table, actor=request.user, minutes=data["minutes"], reason=data["reason"],
                            expected_version=data.get("version"))
        return Response(ClockSerializer(clocks.clock_state(table)).data)


class TurnsView(_TableView):
    @extend_schema(responses=TurnLogSerializer, summary="Turn log and what happens next (public)")
    def get(self, request: Request, **kw: Any) -> Response:
        table = self.get_table()
        clocks.ensure_marked(table)
        return Response(TurnLogSerializer(self._log(table)).data)

    @extend_schema(request=EndTurnSerializer, responses={201: TurnLogSerializer},
                   summary="Record an end of turn and its sdadata roll (referee)")
    def post(self, request: Request, **kw: Any) -> Response:
        data = _valid(EndTurnSerializer, request)
        table = self.get_table()
        closure.record_end_of_turn(
            table, actor=request.user, seat=data["seat"], conquered=data["conquered"],
            dice=data.get("dice") or None, server_roll=data["server_roll"],
            expected_version=data.get("version"),
        )
        return Response(TurnLogSerializer(self._log(table)).data, status=201)


class EliminateView(_TableView):
    @extend_schema(request=SeatStepSerializer, responses={201: TurnLogSerializer},
                   summary="Record an elimination (referee)")
    def post(self, request: Request, **kw: Any) -> Response:
        data = _valid(SeatStepSerializer, request)
        table = self.get_table()
        closure.record_elimination(table, actor=request.user, seat=data["seat"],
                                   expected_version=data.get("version"))
        return Response(TurnLogSerializer(self._log(table)).data, status=201)


class ExpirySeatView(_TableView):
    @extend_schema(request=SeatStepSerializer, responses=TurnLogSerializer,
                   summary="Whose turn it was when time expired (referee)")
    def post(self, request: Request, **kw: Any) -> Response:
        data = _valid(SeatStepSerializer, request)
        table = self.get_table()
        closure.set_expiry_seat(table, actor=request.user, seat=data["seat"],
                                expected_version=data.get("version"))
        return Response(TurnLogSerializer(self._log(table)).data)


class UndoView(_TableView):
    @extend_schema(request=VersionSerializer, responses=TurnLogSerializer,
                   summary="Take back the last recorded step (referee)")
    def post(self, request: Request, **kw: Any) -> Response:
        data = _valid(VersionSerializer, request)
        table = self.get_table()
        closure.undo_last(table, actor=request.user, expected_version=data.get("version"))
        return Response(TurnLogSerializer(self._log(table)).data)


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
