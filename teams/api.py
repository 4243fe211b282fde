"""REST API of team events: the team standings (public, under ``/api/scoring/``), the teams,
their rosters and each round's starters under ``/api/tournaments/<slug>/teams/`` (public reads;
writes by an organizer, starters also by the captain with the ``X-Captain-Token`` header)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common import live
from common.errors import NotFoundError
from scoring.serializers import exact_number
from tables.api import _validated
from tournaments.models import Club, Tournament
from tournaments.permissions import is_organizer

from . import selectors, services
from .models import Team

CAPTAIN_HEADER = OpenApiParameter(
    "X-Captain-Token", str, location=OpenApiParameter.HEADER, required=False,
    description="the captain's private link token: the captain may name the team's starters without an account")


class TeamRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class CountedSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="the player's id")
    player_name = serializers.CharField()
    game = serializers.IntegerField(help_text="the game's number")
    table = serializers.IntegerField(help_text="the table's number in its game")
    score = exact_number("the player's tournament points of that game (S-GUFO), exact")


class TeamStandingsRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="the position is shared with another team (equal on every tie-break)")
    team = TeamRefSerializer()
    total = exact_number("the sum of the team's best 9 results")
    total_all = exact_number("the sum of every result of the team")
    wins = serializers.IntegerField(help_text="tables won by the team's players")
    tiebreak = serializers.IntegerField(allow_null=True, help_text="k of the best-k sum that put the team below "
                                        "the one above on an equal total (null: the total decided)")
    counted = CountedSerializer(many=True, help_text="the results in total, best first")


class TeamStandingsSerializer(serializers.Serializer):
    mode = serializers.CharField(help_text='"roster" (CNS), "club" (a club team tournament) or "" (no teams)')
    best = serializers.IntegerField(help_text="how many results count (9)")
    rows = TeamStandingsRowSerializer(many=True)


@live.public
class TeamStandingsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=TeamStandingsSerializer,
                   summary="Team standings (K-TEAM): best 9 results, ties by best 1, best 2 … best 8")
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        data = selectors.standings(tournament)
        rows = [{k: v for k, v in r.items() if k not in ("results", "club")} for r in data["rows"]]
        return Response({**data, "rows": rows})


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the player's id")
    player_name = serializers.CharField()
    club_name = serializers.CharField()


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club_name = serializers.CharField()
    captain = serializers.IntegerField(allow_null=True, help_text="the captain's player id")
    members = MemberSerializer(many=True)
    starters = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()),
                                     help_text="game number → the player ids named to play it")
    captain_token = serializers.CharField(required=False, help_text="organizers only: the captain's private link token")


def _team_data(view: selectors.TeamView, organizer: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": view.id, "name": view.name, "club_name": view.club, "captain": view.captain,
        "members": [{"id": p.pk, "player_name": p.display_name, "club_name": p.club.name if p.club_id else ""}
                    for p in view.members],
        "starters": {str(k): v for k, v in selectors.starters_by_game(view.row).items()} if view.row else {},
    }
    if organizer and view.row is not None:
        out["captain_token"] = view.row.captain_token
    return out


class TeamInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False)
    club = serializers.IntegerField(required=False, allow_null=True, help_text="the club's id")
    captain = serializers.IntegerField(required=False, allow_null=True, help_text="a member's player id")


class MemberInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="a registered player's id")


class StartersInputSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.IntegerField(), max_length=12,
                                    help_text="the 4 player ids who play the game")


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _team(tournament: Tournament, pk: int) -> Team:
    return get_object_or_404(Team, tournament=tournament, pk=pk)


def _club(data: dict[str, Any]) -> Club | None:
    if data.get("club") is None:
        return None
    club = Club.objects.filter(pk=data["club"]).first()
    if club is None:
        raise NotFoundError("No such club.", field="club", rule="K-TEAM")
    return club


class TeamsAPI(APIView):
    @extend_schema(responses=TeamSerializer(many=True), summary="The tournament's teams and their rosters")
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug)
        organizer = is_organizer(request.user, tournament)
        return Response([_team_data(v, organizer) for v in selectors.teams(tournament)])

    @extend_schema(request=TeamInputSerializer, responses={201: TeamSerializer},
                   summary="Enter a team (organizer; a CNS tournament)")
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug)
        data = _validated(TeamInputSerializer, request.data)
        team = services.create_team(tournament, actor=request.user, name=data.get("name", ""), club=_club(data))
        view = selectors.team(tournament, team.pk)
        assert view is not None
        return Response(_team_data(view, True), status=status.HTTP_201_CREATED)


class TeamAPI(APIView):
    @extend_schema(responses=TeamSerializer, summary="A team, its roster and starters")
    def get(self, request: Request, slug: str, pk: int) -> Response:
        tournament = _tournament(slug)
        view = selectors.team(tournament, pk)
        if view is None:
            raise NotFoundError("No such team.", rule="K-TEAM")
        return Response(_team_data(view, is_organizer(request.user, tournament)))

    @extend_schema(request=TeamInputSerializer, responses=TeamSerializer,
                   summary="Rename a team, change its club or captain (organizer)")
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        tournament = _tournament(slug)
        team = _team(tournament, pk)
        data = _validated(TeamInputSerializer, request.data)
        services.change_team(team, actor=request.user, name=data.get("name"),
                             captain=data.get("captain"), club=_club(data),
                             clear_captain="captain" in data and data["captain"] is None)
        view = selectors.team(tournament, pk)
        assert view is not None
        return Response(_team_data(view, True))


class TeamMembersAPI(APIView):
    @extend_schema(request=MemberInputSerializer, responses={201: TeamSerializer},
                   summary="Put a registered player on the team (organizer; at most 12)")
    def post(self, request: Request, slug: str, pk: int) -> Response:
        tournament = _tournament(slug)
        team = _team(tournament, pk)
        data = _validated(MemberInputSerializer, request.data)
        services.add_member(team, data["player"], actor=request.user)
        view = selectors.team(tournament, pk)
        assert view is not None
        return Response(_team_data(view, True), status=status.HTTP_201_CREATED)


class TeamMemberAPI(APIView):
    @extend_schema(responses={204: None}, summary="Take a player off the team (organizer; not once they played)")
    def delete(self, request: Request, slug: str, pk: int, player: int) -> Response:
        tournament = _tournament(slug)
        services.remove_member(_team(tournament, pk), player, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamStartersAPI(APIView):
    permission_classes = [AllowAny]  # the captain holds a token, not an account: the service authorises

    @extend_schema(responses=StartersInputSerializer, summary="The team's starters of a game")
    def get(self, request: Request, slug: str, pk: int, number: int) -> Response:
        team = _team(_tournament(slug), pk)
        return Response({"players": selectors.starters(team, number)})

    @extend_schema(request=StartersInputSerializer, responses=StartersInputSerializer, parameters=[CAPTAIN_HEADER],
                   summary="Name the team's 4 starters of a game (the captain or an organizer)")
    def put(self, request: Request, slug: str, pk: int, number: int) -> Response:
        team = _team(_tournament(slug), pk)
        data = _validated(StartersInputSerializer, request.data)
        chosen = services.set_starters(team, number, data["players"], actor=request.user,
                                       token=request.headers.get("X-Captain-Token"))
        return Response({"players": chosen})
