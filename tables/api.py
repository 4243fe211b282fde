"""REST API of tables/: serializers and views (thin: every write is a ``tables.services`` call).

Reads are public (objective cards excepted: a player sees their own through their private
link, everyone sees all once the game is over); writes need the organizer role
(``tournaments.permissions``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common import live
from common.errors import DomainError
from tables import knockout, selectors, services
from tables.models import Game, Seat, Table
from tables.seating import ODD_COUNTS, PREFERENCES, PRIORITIES, SEEDINGS, SeatingError
from tournaments.access import linked_player
from tournaments.models import Tournament
from tournaments.permissions import TournamentObjectPermission, TournamentScoped

# ----------------------------------------------------------------------------- serializers

# Renamed fields kept under their old names, with the same values, marked deprecated in the
# schema (docs/api.md "Stability"; CHANGELOG.md says when each goes). The old ``player`` of
# seats and "where do I sit" (the player's name) cannot come back: ``player`` is the id now.
def _old_player_id(*, allow_null: bool = False) -> serializers.IntegerField:
    return serializers.IntegerField(allow_null=allow_null, read_only=True,
                                    help_text="Deprecated: the same as `player` (renamed).")


@extend_schema_serializer(deprecate_fields=["player_id", "club"])
class SeatSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id", allow_null=True, read_only=True)
    player_name = serializers.SerializerMethodField()
    club_name = serializers.SerializerMethodField()
    ghost = serializers.SerializerMethodField()
    player_id = _old_player_id(allow_null=True)  # a ghost seat has no player
    club = serializers.SerializerMethodField(
        help_text="Deprecated: the same as `club_name` (renamed).")

    class Meta:
        model = Seat
        fields = ["number", "player", "player_name", "club_name", "colour", "ghost",
                  "player_id", "club"]

    def get_player_name(self, seat: Seat) -> str | None:
        return seat.player.display_name if seat.player_id else None

    def get_club_name(self, seat: Seat) -> str | None:
        return seat.player.club.name if seat.player_id and seat.player.club_id else None

    def get_club(self, seat: Seat) -> str | None:
        return self.get_club_name(seat)

    def get_ghost(self, seat: Seat) -> bool:
        return seat.player_id is None


class TableSerializer(serializers.ModelSerializer):
    id = serializers.IntegerField(read_only=True, help_text=(
        "The table's id: the {pk} of /api/scoring/tables/{pk}/results/ (enter and read its result). "
        "`number` is the table's number within its game, as printed on the sheets."))
    seats = SeatSerializer(many=True, read_only=True)
    deal_command = serializers.SerializerMethodField()
    deadline = serializers.DateTimeField(read_only=True)
    results_url = serializers.SerializerMethodField(help_text="where this table's result is entered and read")

    class Meta:
        model = Table
        fields = ["id", "number", "status", "seats", "deal_seed", "deal", "deal_command", "deadline", "results_url"]

    def get_results_url(self, table: Table) -> str:
        return reverse("api-table-results", args=[table.pk])

    def get_deal_command(self, table: Table) -> str | None:
        return services.deal_command(table) if table.deal_seed else None


class GameSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    tables = serializers.SerializerMethodField()
    secret_commitment = serializers.CharField(
        read_only=True, help_text="SHA-256 (hex) of the seed the objective cards come from.")
    secret_seed = serializers.SerializerMethodField(
        help_text="The objective cards' seed: null until the game is finished (commit-reveal).")

    class Meta:
        model = Game
        fields = ["tournament", "number", "status", "seed", "composition_options",
                  "composition_report", "deal_objectives", "rehearsal", "secret_commitment", "secret_seed",
                  "started_at", "tables"]

    def get_secret_seed(self, game: Game) -> str | None:
        return game.secret_seed or None if game.status == Game.Status.FINISHED else None

    @extend_schema_field(TableSerializer(many=True))
    def get_tables(self, game: Game) -> list[dict[str, Any]]:
        return TableSerializer(selectors.tables_of(game), many=True).data  # type: ignore[return-value]


class ComposeSerializer(serializers.Serializer):
    prefer = serializers.ChoiceField(choices=PREFERENCES, default="fives",
                                     help_text="More tables of 5 (fewest tables) or of 4.")
    priorities = serializers.ListField(
        child=serializers.ChoiceField(choices=PRIORITIES), required=False,
        help_text="K-TABLES priorities, most important first.",
    )
    seeding = serializers.ChoiceField(choices=SEEDINGS, default="random")
    odd_count = serializers.ChoiceField(
        choices=[c for c in ODD_COUNTS if c], required=False, allow_null=True,
        help_text='6, 7 or 11 players: "ghost" (a table of 3 with a ghost seat) or "six".',
    )
    by_region = serializers.BooleanField(default=False,
                                         help_text="National events: same region apart.")
    seed = serializers.CharField(required=False, allow_blank=True, max_length=64)


class SwapSerializer(serializers.Serializer):
    player_a = serializers.IntegerField()
    player_b = serializers.IntegerField()


class MoveSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    table = serializers.IntegerField(min_value=1)


class PlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField()


class StartSerializer(serializers.Serializer):
    seed = serializers.CharField(required=False, allow_blank=True, max_length=64)
    deal_objectives = serializers.BooleanField(required=False)


class RehearsalSerializer(serializers.Serializer):
    rehearsal = serializers.BooleanField(
        help_text="A rehearsal game is played as usual but its results never count.")


class ChangeSerializer(serializers.Serializer):
    warnings = serializers.ListField(child=serializers.CharField())
    game = GameSerializer()


@extend_schema_serializer(deprecate_fields=["player_id"])
class WhereSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    colour = serializers.CharField()
    player_id = _old_player_id()


@extend_schema_serializer(deprecate_fields=["player_id"])
class ObjectiveSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    player_id = _old_player_id()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    objective = serializers.CharField()
    name = serializers.CharField(help_text="The card's name, as printed on it (Italian)")
    territories = serializers.ListField(child=serializers.CharField())


# ----------------------------------------------------------------------------- views


def _validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    s = serializer_class(data=data)
    if not s.is_valid():
        field, errors = next(iter(s.errors.items()))
        raise DomainError(str(errors[0]), field=field, rule="FORMAT")
    return dict(s.validated_data)


class _GameView(TournamentScoped, APIView):
    permission_classes = [TournamentObjectPermission]
    required_role = "organizer"

    def get_game(self, create: bool = False) -> Game:
        tournament = self.get_tournament()
        if create:
            return services.ensure_game(tournament, self.kwargs["number"], actor=self.request.user)
        game = selectors.game_of(tournament, self.kwargs["number"])
        if game is None:
            raise Http404
        return game

    def game_response(self, game: Game, status: int = 200) -> Response:
        game.refresh_from_db()
        return Response(GameSerializer(game).data, status=status)


@live.public
class GameDetail(_GameView):
    @extend_schema(responses=GameSerializer, summary="A game: its tables, seats, deals and "
                   "composition report")
    def get(self, request: Request, slug: str, number: int) -> Response:
        return self.game_response(self.get_game())


class ComposeView(_GameView):
    @extend_schema(request=ComposeSerializer, responses=GameSerializer,
                   summary="(Re-)compose the tables of a planned game (K-TABLES)")
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _validated(ComposeSerializer, request.data)
        seed = data.pop("seed", None)
        # a choice the caller did not make comes from the format preset's round (K-TABLES)
        data = {k: v for k, v in data.items() if k in request.data}
        game = services.compose_game(self.get_game(create=True), actor=request.user, seed=seed,
                                     **data)
        return self.game_response(game)


class SwapView(_GameView):
    @extend_schema(request=SwapSerializer, responses=ChangeSerializer,
                   summary="Swap two players before the game starts")
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _validated(SwapSerializer, request.data)
        change = services.swap_players(self.get_game(), data["player_a"], data["player_b"],
                                       actor=request.user)
        return _change_response(change)


class MoveView(_GameView):
    @extend_schema(request=MoveSerializer, responses=ChangeSerializer,
                   summary="Move a player to another table before the game starts")
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _validated(MoveSerializer, request.data)
        change = services.move_player(self.get_game(), data["player"], data["table"],
                                      actor=request.user)
        return _change_response(change)


class WithdrawView(_GameView):
    @extend_schema(request=PlayerSerializer, responses=ChangeSerializer,
                   summary="Withdraw a no-show from this game")
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _validated(PlayerSerializer, request.data)
        change = services.withdraw_player(self.get_game(), data["player"], actor=request.user)
        return _change_response(change)


class StartView(_GameView):
    @extend_schema(request=StartSerializer, responses=GameSerializer,
                   summary="Start the game: deal every table (D-DEAL, D-50), objectives, clocks")
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _validated(StartSerializer, request.data)
        game = self.get_game()
        if "deal_objectives" in data:
            game = services.set_deal_objectives(game, data["deal_objectives"], actor=request.user)
        game = services.start_game(game, actor=request.user, seed=data.get("seed"))
        return self.game_response(game)


class RehearsalView(_GameView):
    @extend_schema(request=RehearsalSerializer, responses=GameSerializer,
                   summary="Before the start: mark the game as a rehearsal (its results never count) or not")
    def post(self, request: Request, slug: str, number: int) -> Response:
        data = _validated(RehearsalSerializer, request.data)
        game = services.set_rehearsal(self.get_game(create=True), data["rehearsal"], actor=request.user)
        return self.game_response(game)


@live.public
class TableDetail(_GameView):
    @extend_schema(responses=TableSerializer, summary="One table: seats in turn order, deal")
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = selectors.table_of(self.get_game(), table)
        if found is None:
            raise Http404
        return Response(TableSerializer(found).data)


class WhereView(_GameView):
    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="Player name or nickname")],
        responses=WhereSerializer(many=True), summary="Where do I sit: search by name",
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        seats = selectors.find_seats(self.get_game(), request.query_params.get("q", ""))
        return Response([_where(s) for s in seats])


@method_decorator(never_cache, name="dispatch")  # a player's secret card: never kept
class ObjectiveView(_GameView):
    @extend_schema(
        responses=ObjectiveSerializer(many=True),
        summary="Objective cards: your own through your private link; all once the game is over",
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = self.get_game()
        return Response(visible_objectives(request, game))


class KnockoutPlanView(_GameView):
    @extend_schema(
        parameters=[
            OpenApiParameter("entrants", int, description="Players (default: registered)"),
            OpenApiParameter("final_size", int, description="4 or 5 (default 5)"),
            OpenApiParameter("prefer", str, description="fives or fours"),
        ],
        responses=inline_serializer("KnockoutPlan", {
            "entrants": serializers.IntegerField(),
            "final_size": serializers.IntegerField(),
            "rounds": serializers.ListField(child=serializers.DictField()),
        }),
        summary="Direct elimination (K-KO): tables of every round, planned back from the final",
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(knockout_plan(self.get_tournament(), request.query_params))


# ----------------------------------------------------------------------------- shared reads


def _where(seat: Seat) -> dict[str, Any]:
    return {"player": seat.player_id, "player_name": seat.player.display_name,
            "table": seat.table.number, "seat": seat.number, "colour": seat.colour,
            "player_id": seat.player_id}  # deprecated alias of player


def visible_objectives(request: Any, game: Game) -> list[dict[str, Any]]:
    """The objective cards this browser may see: while the game runs, a player's own (their
    private link) and nothing else, for anyone (organizers and referees included); every card,
    for everyone, once the game is finished (when its secret seed is published too)."""
    from engine import default_deck

    deck = default_deck("rtu")
    seats = Seat.objects.filter(game=game, player__isnull=False).exclude(objective="")
    if game.status == Game.Status.FINISHED:
        chosen = list(seats.select_related("table").order_by("table__number", "number"))
    else:
        player = linked_player(request, game.tournament)
        chosen = list(seats.filter(player=player).select_related("table")) if player else []
    return [
        {"player": s.player_id, "player_id": s.player_id,  # deprecated alias of player
         "table": s.table.number, "seat": s.number,
         "objective": s.objective,
         "name": deck[s.objective].name if s.objective in deck else s.objective,
         "territories": sorted(deck[s.objective].territories) if s.objective in deck else []}
        for s in chosen
    ]


def knockout_plan(tournament: Tournament, params: Any) -> dict[str, Any]:
    try:
        entrants = int(params.get("entrants") or tournament.registrations.active().count())
        final_size = int(params.get("final_size") or 5)
    except ValueError as exc:
        raise DomainError(_("The players and the final size are whole numbers."), field="entrants",
                          rule="K-KO") from exc
    try:
        plan = knockout.plan_knockout(entrants, final_size, params.get("prefer") or "fives")
    except SeatingError as exc:
        raise services._seating_error(exc, "entrants") from exc
    return plan.as_dict()


def _change_response(change: services.Change) -> Response:
    change.game.refresh_from_db()
    return Response({"warnings": change.warnings, "game": GameSerializer(change.game).data})


# ----------------------------------------------------------------------------- K-KO-RCU phases


class PhaseSerializer(serializers.Serializer):
    seed = serializers.CharField(required=False, allow_blank=True, max_length=64)


class KnockoutPhasesView(_GameView):
    @extend_schema(
        responses=inline_serializer("KnockoutPhases", {
            "semifinals": serializers.DictField(), "final": serializers.DictField(),
        }),
        summary="K-KO-RCU: preview of the semifinals (from the qualifiers) and of the final(s) "
        "(from the semifinals), each a plan or the reason why not yet",
    )
    def get(self, request: Request, slug: str) -> Response:
        from common.errors import PermissionDeniedError
        from tables import phases
        from tournaments.permissions import is_organizer

        tournament = self.get_tournament()
        if not is_organizer(request.user, tournament):
            raise PermissionDeniedError(_("Only an organizer of this tournament can do this."), rule="ROLE")
        return Response(phases.phases_overview(tournament))


class KnockoutPhaseCreateView(_GameView):
    @extend_schema(request=PhaseSerializer, responses=GameSerializer,
                   summary="K-KO-RCU: create the semifinal game (3) or the final game (4) as planned")
    def post(self, request: Request, slug: str, phase: str) -> Response:
        from tables import phases

        data = _validated(PhaseSerializer, request.data)
        create = {"semifinals": phases.create_semifinals, "final": phases.create_finals}.get(phase)
        if create is None:
            raise Http404
        game = create(self.get_tournament(), actor=request.user, seed=data.get("seed"))
        return self.game_response(game, status=201)
