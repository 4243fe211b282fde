"""REST API of a club's seasons: the same reads and writes as the season pages (reads public;
writes by the club's admins and federation admins, through ``seasons.services``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api import _validated
from tournaments.models import Club, Registration, Season, Tournament

from . import selectors as season_selectors
from . import services as seasons
from .finals import options as final_options


class SeasonSerializer(serializers.ModelSerializer):
    chain = serializers.SerializerMethodField()
    finals = serializers.SerializerMethodField()
    finals_direct = serializers.SerializerMethodField()
    finals_semifinal_places = serializers.SerializerMethodField()
    finals_ripescati = serializers.SerializerMethodField()
    finals_min_evenings = serializers.SerializerMethodField()
    finals_consolation = serializers.SerializerMethodField()

    class Meta:
        model = Season
        fields = ["id", "club", "name", "year", "starts_on", "ends_on", "rule", "best_n", "tiebreaks", "chain",
                  "preset", "evening_games", "finals", "finals_direct", "finals_semifinal_places",
                  "finals_ripescati", "finals_min_evenings", "finals_consolation"]
        read_only_fields = fields

    def get_chain(self, season: Season) -> list[str]:
        """The tie-break chain in use: ``tiebreaks``, else the evenings' format's."""
        return seasons.chain_of(season)

    def _finals(self, season: Season) -> dict[str, Any]:
        return final_options.snapshot(season) or {}

    def get_finals(self, season: Season) -> bool:
        """The season ends with a final phase (semifinals, final, torneo degli esclusi)."""
        return bool(self._finals(season))

    def get_finals_direct(self, season: Season) -> int | None:
        """Players straight to the final (null: no final phase)."""
        return self._finals(season).get("direct")

    def get_finals_semifinal_places(self, season: Season) -> int | None:
        """Semifinal places, at tables of four (each winner to the final), ripescati included."""
        return self._finals(season).get("semifinal_places")

    def get_finals_ripescati(self, season: Season) -> int | None:
        """Semifinal places by the best single game of the season (ripescaggio)."""
        return self._finals(season).get("ripescati")

    def get_finals_min_evenings(self, season: Season) -> int | None:
        """Evenings a player needs for the ripescaggio."""
        return self._finals(season).get("min_evenings")

    def get_finals_consolation(self, season: Season) -> bool | None:
        """A torneo degli esclusi for everyone else."""
        return self._finals(season).get("consolation")


class SeasonInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    year = serializers.IntegerField(required=False)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    rule = serializers.ChoiceField(choices=Season.Rule.choices, required=False,
                                   help_text="sum | best_evenings | best_games | rounds_2024 (until 45 rounds)")
    best_n = serializers.IntegerField(required=False, allow_null=True,
                                      help_text="N of best_evenings / best_games")
    tiebreaks = serializers.ListField(child=serializers.CharField(max_length=30), required=False, max_length=12,
                                      help_text="tie-break metric keys, as an event's chain (empty: the format's)")
    preset = serializers.CharField(max_length=40, required=False, help_text="format preset of the evenings")
    evening_games = serializers.IntegerField(required=False, allow_null=True)
    finals = serializers.BooleanField(required=False, help_text="the season ends with a final phase")
    finals_direct = serializers.IntegerField(required=False, allow_null=True,
                                             help_text="0-4 players straight to the final (default 2)")
    finals_semifinal_places = serializers.IntegerField(
        required=False, allow_null=True, help_text="0, 4, 8, 12 or 16 (tables of four; default 8); the final is "
                                                   "finals_direct + one per semifinal, 3 to 5 players")
    finals_ripescati = serializers.IntegerField(required=False, allow_null=True,
                                                help_text="semifinal places by best single game (default 1)")
    finals_min_evenings = serializers.IntegerField(required=False, allow_null=True,
                                                   help_text="evenings needed for the ripescaggio (default 1)")
    finals_consolation = serializers.BooleanField(required=False, help_text="a torneo degli esclusi (default true)")


class EveningInputSerializer(serializers.Serializer):
    date = serializers.DateField(required=False, allow_null=True,
                                 help_text="default: today, or the next weekly date after the last evening")
    number = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10000,
                                      help_text="the evening's number expected (1 for the first): a repeated "
                                                "request is refused (409, rule DUPLICATE) instead of making another")


class EveningSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    date = serializers.DateField()
    registered = serializers.IntegerField()


class SeasonStandingsSerializer(serializers.Serializer):
    rule = serializers.CharField()
    rule_explained = serializers.CharField()
    best_n = serializers.IntegerField(allow_null=True)
    chain = serializers.ListField(child=serializers.CharField())
    chain_explained = serializers.DictField(child=serializers.CharField())
    evenings = serializers.ListField(child=serializers.DictField())
    rows = serializers.ListField(child=serializers.DictField(),
                                 help_text="as an event's standings rows (rank, shared, total, tiebreak…) "
                                           "plus `evenings` and `rounds_counted`")


class ClubSeasonsAPI(APIView):
    """A club's seasons; a club admin (or a federation admin) creates one."""

    @extend_schema(responses=SeasonSerializer(many=True), summary="A club's seasons")
    def get(self, request: Request, club: int) -> Response:
        the_club = get_object_or_404(Club, pk=club)
        return Response(SeasonSerializer(the_club.seasons.order_by("-year", "-pk"), many=True).data)

    @extend_schema(request=SeasonInputSerializer, responses={201: SeasonSerializer},
                   summary="Create a season (club admin or federation admin)")
    def post(self, request: Request, club: int) -> Response:
        the_club = get_object_or_404(Club, pk=club)
        data = _validated(SeasonInputSerializer, request.data)
        season = seasons.create_season(actor=request.user, club=the_club, **data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=pk)


class SeasonAPI(APIView):
    @extend_schema(responses=SeasonSerializer, summary="A season")
    def get(self, request: Request, pk: int) -> Response:
        return Response(SeasonSerializer(_season(pk)).data)

    @extend_schema(request=SeasonInputSerializer, responses=SeasonSerializer,
                   summary="Change a season (club admin or federation admin)")
    def patch(self, request: Request, pk: int) -> Response:
        data = _validated(SeasonInputSerializer, request.data)
        season = seasons.update_season(_season(pk), actor=request.user, **data)
        return Response(SeasonSerializer(season).data)


class SeasonStandingsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=SeasonStandingsSerializer,
                   summary="A season's standings: its evenings combined by its rule, ties explained")
    def get(self, request: Request, pk: int) -> Response:
        data: dict[str, Any] = season_selectors.standings(_season(pk))
        return Response({**data, "chain_explained": {k: str(v) for k, v in data["chain_explained"].items()},
                         "rows": [{**r, "tiebreak_label": str(r["tiebreak_label"])} for r in data["rows"]]})


class SeasonEveningsAPI(APIView):
    @extend_schema(responses=EveningSerializer(many=True), summary="A season's evenings (public ones)")
    def get(self, request: Request, pk: int) -> Response:
        season = _season(pk)
        rows = season_selectors.scored_evenings(season).annotate(registered=Count(
            "registrations", filter=Q(registrations__in=Registration.objects.active())))
        return Response(EveningSerializer([_evening(t, t.registered) for t in rows], many=True).data)

    @extend_schema(request=EveningInputSerializer, responses={201: EveningSerializer},
                   summary="The season's next evening, the last evening's players registered (club admin)")
    def post(self, request: Request, pk: int) -> Response:
        data = _validated(EveningInputSerializer, request.data)
        evening = seasons.new_evening(_season(pk), actor=request.user, date=data.get("date"),
                                      number=data.get("number"))
        registered = evening.registrations.active().count()
        return Response(EveningSerializer(_evening(evening, registered)).data, status=status.HTTP_201_CREATED)


class EveningChoiceSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, help_text="the tournament's id (a tournament of the season's club)")


def _chosen(request: Request) -> Any:
    data = _validated(EveningChoiceSerializer, request.data)
    return get_object_or_404(Tournament.objects.select_related("club"), pk=data["tournament"])


class SeasonEveningAttachAPI(APIView):
    @extend_schema(request=EveningChoiceSerializer, responses=EveningSerializer,
                   summary="Make an existing tournament of the club an evening of the season (club admin, "
                           "an organizer of that tournament, federation admin)")
    def post(self, request: Request, pk: int) -> Response:
        tournament = _chosen(request)
        seasons.attach_evening(_season(pk), tournament, actor=request.user)
        registered = tournament.registrations.active().count()
        return Response(EveningSerializer(_evening(tournament, registered)).data)


class SeasonEveningDetachAPI(APIView):
    @extend_schema(request=EveningChoiceSerializer, responses={204: None},
                   summary="Remove an evening from the season; it stays a tournament of the club (club admin, "
                           "an organizer of that tournament, federation admin)")
    def post(self, request: Request, pk: int) -> Response:
        seasons.detach_evening(_season(pk), _chosen(request), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _evening(t: Any, registered: int) -> dict[str, Any]:
    return {"id": t.pk, "slug": t.slug, "name": t.name, "date": t.date, "registered": registered}
