"""REST API of the tournaments app (thin: serializers shape data, ``services`` decide).

Public reads never show a player's e-mail or date of birth. Writes are checked twice: by
``TournamentObjectPermission`` (role on the tournament) and by the service itself.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import DomainError, PermissionDeniedError
from engine import SCORING_SYSTEMS

from . import formats, selectors, services
from .models import AccessLink, CheckIn, Club, Player, Registration, Tournament, TournamentRole
from .permissions import TournamentObjectPermission, TournamentScoped, is_organizer
from .spreadsheets import check_upload_size


# --- serializers ---------------------------------------------------------------------------
class PublicPlayerSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.name", default=None, read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "nickname", "club"]


class OrganizerPlayerSerializer(serializers.Serializer):
    """What an organizer of the tournament sees of a registered player: the public fields, and
    the e-mail, date of birth and national id *as entered for this registration* (never what
    another organizer entered on the shared Player record). Reads a Registration."""

    id = serializers.IntegerField(source="player.id", read_only=True)
    first_name = serializers.CharField(source="player.first_name", read_only=True)
    last_name = serializers.CharField(source="player.last_name", read_only=True)
    nickname = serializers.CharField(source="player.nickname", read_only=True)
    club = serializers.CharField(source="player.club.name", default=None, read_only=True,
                                 allow_null=True)
    email = serializers.EmailField(read_only=True)
    birth_date = serializers.DateField(read_only=True, allow_null=True)
    national_id = serializers.CharField(read_only=True)


class ScoringSystemField(serializers.ChoiceField):
    """One of the engine's scoring systems (``engine.scoring.SCORING_SYSTEMS``); any other is a
    400 naming the field and the rule (FORMAT), as the services answer it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(SCORING_SYSTEMS), **kwargs)

    def to_internal_value(self, data: Any) -> str:
        return formats.check_scoring_system(data)


class TournamentSerializer(serializers.ModelSerializer):
    scoring_system = ScoringSystemField(
        required=False, help_text="A scoring system of the engine (S-RTU, S-OPEN…); the format's when a "
                                  "preset is chosen.")
    start_times = serializers.ListField(child=serializers.CharField(), required=False)
    status = serializers.CharField(read_only=True)
    slug = serializers.SlugField(required=False)
    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), required=False, allow_null=True,
        help_text="The organising club's id. At creation: a club you administer (federation admins and "
                  "staff: any). Later (PATCH): any organizer may change it until the tournament is first "
                  "published to the shared instance, then only a federation admin. Its admins organise "
                  "the tournament.",
    )

    class Meta:
        model = Tournament
        fields = [
            "id", "slug", "name", "date", "venue", "format", "ruleset", "ruleset_overrides",
            "scoring_system", "games_count", "start_times", "capacity", "event_type", "status", "club",
        ]
        extra_kwargs = {"event_type": {"help_text": "The national ranking type (Tipologia, K-RANKING); "
                                                     "empty: the format's."}}


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices)


class RegistrationSerializer(serializers.ModelSerializer):
    player = PublicPlayerSerializer(read_only=True)
    # "withdrawn" is derived from the open withdrawal (Registration.state); the field keeps the
    # shape it had as the model's status (title, optional), so clients see no change. Output only.
    status = serializers.ChoiceField(source="state", choices=Registration.STATE_CHOICES, required=False,
                                     label=capfirst(Registration._meta.get_field("status").verbose_name))

    class Meta:
        model = Registration
        fields = ["id", "player", "status", "created_at"]


class OrganizerRegistrationSerializer(RegistrationSerializer):
    player = OrganizerPlayerSerializer(source="*", read_only=True)
    # plain text, not a second copy of the status enum (it would collide in the schema)
    status = serializers.CharField(source="state", read_only=True, help_text="registered | waitlisted | withdrawn")


def _registration_serializer(request: Request, tournament: Tournament) -> type[RegistrationSerializer]:
    if is_organizer(request.user, tournament):
        return OrganizerRegistrationSerializer
    return RegistrationSerializer


class NationalIdSerializer(serializers.Serializer):
    national_id = serializers.CharField(max_length=32, allow_blank=True,
                                        help_text="Empty clears it. Unique when set (DUPLICATE).")


class RegisterSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=80)
    last_name = serializers.CharField(max_length=80)
    nickname = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    birth_date = serializers.DateField(required=False, allow_null=True, default=None)
    national_id = serializers.CharField(
        max_length=32, required=False, allow_blank=True, default="",
        help_text="The national ranking's id; organizers only (anyone else: 403).",
    )


class CheckInSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="registration.player_id", read_only=True)

    class Meta:
        model = CheckIn
        fields = ["id", "registration", "player", "game_number", "checked_in_at"]


class SetCheckInSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    game_number = serializers.IntegerField()
    present = serializers.BooleanField()


class RoleSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = TournamentRole
        fields = ["id", "username", "role"]


class LinkSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True, help_text="referee or player")
    username = serializers.CharField(source="user.username", default=None, read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = AccessLink
        fields = ["id", "kind", "username", "player", "token", "url", "created_at",
                  "revoked_at", "last_used_at"]

    def get_url(self, link: AccessLink) -> str:
        from django.urls import reverse

        return reverse("tournaments:link", args=[link.token])


class CreateLinkSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, help_text="A referee's link for this user")
    player = serializers.IntegerField(required=False, help_text="A player's personal link")


class ImportResultSerializer(serializers.Serializer):
    imported = serializers.IntegerField()


# --- players ------------------------------------------------------------------------
class PlayerList(generics.ListAPIView):
    """Players: name, nickname and club only (never e-mail or date of birth)."""

    queryset = Player.objects.select_related("club")
    serializer_class = PublicPlayerSerializer


class PlayerDetail(generics.RetrieveAPIView):
    queryset = Player.objects.select_related("club")
    serializer_class = PublicPlayerSerializer


# --- tournaments ---------------------------------------------------------------------------
class TournamentList(generics.ListCreateAPIView):
    serializer_class = TournamentSerializer
    permission_classes = [TournamentObjectPermission]

    def get_queryset(self) -> Any:
        return selectors.visible_tournaments(self.request.user)

    def get_tournament(self) -> None:
        return None  # creating: any signed-in user becomes the organizer

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.create_tournament(actor=self.request.user,
                                                         **serializer.validated_data)


class TournamentDetail(TournamentScoped, generics.RetrieveUpdateAPIView):
    serializer_class = TournamentSerializer
    permission_classes = [TournamentObjectPermission]
    lookup_field = "slug"
    http_method_names = ["get", "patch", "put", "head", "options"]

    def get_queryset(self) -> Any:
        return selectors.visible_tournaments(self.request.user)

    def perform_update(self, serializer: Any) -> None:
        data = dict(serializer.validated_data)
        data.pop("slug", None)
        if "club" in data and (club := data.pop("club")) != self.get_tournament().club:
            if club is None:
                raise DomainError(_("The organising club can be changed, not removed."), field="club", rule="ROLE")
            # any organizer, until the event is first published; then a federation admin
            services.name_organising_club(self.get_tournament(), club.name, actor=self.request.user)
        serializer.instance = services.update_tournament(self.get_tournament(),
                                                         actor=self.request.user, **data)


class TournamentStatus(TournamentScoped, APIView):
    permission_classes = [TournamentObjectPermission]

    @extend_schema(request=StatusSerializer, responses=TournamentSerializer)
    def post(self, request: Request, slug: str) -> Response:
        data = StatusSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.change_status(self.get_tournament(), data.validated_data["status"],
                                            actor=request.user)
        return Response(TournamentSerializer(tournament).data)


# --- registrations -------------------------------------------------------------------------
class RegistrationList(TournamentScoped, generics.ListAPIView):
    """Registrations (public: name, nickname, club; an organizer of the tournament also sees
    e-mail, date of birth and national id). POST registers a player: anyone while registration
    is open, organizers also in other states; a full tournament waitlists."""

    serializer_class = RegistrationSerializer
    permission_classes = [AllowAny]  # the service decides (open registration / organizer)

    def get_queryset(self) -> Any:
        return selectors.registrations(self.get_tournament())

    def get_serializer_class(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return RegistrationSerializer
        return _registration_serializer(self.request, self.get_tournament())

    @extend_schema(request=RegisterSerializer, responses={201: RegistrationSerializer})
    def post(self, request: Request, slug: str) -> Response:
        data = RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        reg = services.register(tournament, services.PlayerData(**data.validated_data),
                                actor=request.user)
        serializer = _registration_serializer(request, tournament)
        return Response(serializer(reg).data, status=status.HTTP_201_CREATED)


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                   help_text="Why the player leaves (kept with the withdrawal; optional).")


class RegistrationWithdraw(TournamentScoped, APIView):
    """Withdraw a registration from the next game without tables on (organizers)."""

    permission_classes = [TournamentObjectPermission]

    @extend_schema(request=WithdrawSerializer, responses=RegistrationSerializer)
    def post(self, request: Request, slug: str, pk: int) -> Response:
        reg = get_object_or_404(Registration, pk=pk, tournament=self.get_tournament())
        data = WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.withdraw(reg, actor=request.user, reason=data.validated_data["reason"])
        reg.refresh_from_db()
        return Response(RegistrationSerializer(reg).data)


class RegistrationNationalId(TournamentScoped, APIView):
    """Enter, correct or clear (empty) the national id of a registered player (organizers)."""

    permission_classes = [TournamentObjectPermission]

    @extend_schema(request=NationalIdSerializer, responses=OrganizerRegistrationSerializer)
    def post(self, request: Request, slug: str, pk: int) -> Response:
        reg = get_object_or_404(Registration, pk=pk, tournament=self.get_tournament())
        data = NationalIdSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.set_national_id(reg, data.validated_data["national_id"], actor=request.user)
        reg = Registration.objects.select_related("player__club").get(pk=reg.pk)
        return Response(OrganizerRegistrationSerializer(reg).data)


class RegistrationImport(TournamentScoped, APIView):
    """Upload a CSV (multipart field ``file``, or the text as JSON ``{"text": ...}``): one transaction,
    bad rows answer 400 with the first one's ``line`` and field, ``problems`` (every bad line:
    ``line``, ``field``, ``column``, ``message``) and ``importable`` (the good rows), and nothing
    is imported."""

    permission_classes = [TournamentObjectPermission]
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(
        request={"multipart/form-data": {"type": "object",
                                         "properties": {"file": {"type": "string",
                                                                 "format": "binary"}}}},
        responses={201: ImportResultSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        upload = request.FILES.get("file")
        if upload is not None:
            check_upload_size(upload.size)  # 413 before reading it
        content = upload.read() if upload else str(request.data.get("text", ""))
        if not upload:
            check_upload_size(len(content.encode()))
        created = services.import_csv(self.get_tournament(), content, actor=request.user)
        return Response({"imported": len(created)}, status=status.HTTP_201_CREATED)


class RegistrationExport(TournamentScoped, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "text/csv"): OpenApiResponse(description="CSV file")})
    def get(self, request: Request, slug: str) -> HttpResponse:
        text = services.export_csv(self.get_tournament(), actor=request.user)
        return HttpResponse(text, content_type="text/csv; charset=utf-8")


# --- check-ins -----------------------------------------------------------------------------
class CheckInList(TournamentScoped, generics.ListAPIView):
    """Who is checked in (``?game=N`` filters). POST sets one player present or absent
    (referees and organizers)."""

    serializer_class = CheckInSerializer
    permission_classes = [TournamentObjectPermission]
    required_role = "referee"

    def get_queryset(self) -> Any:
        qs = CheckIn.objects.filter(registration__tournament=self.get_tournament()).select_related(
            "registration"
        )
        game = self.request.query_params.get("game")
        return qs.filter(game_number=game) if game and game.isdigit() else qs

    @extend_schema(request=SetCheckInSerializer, responses={200: SetCheckInSerializer})
    def post(self, request: Request, slug: str) -> Response:
        data = SetCheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = get_object_or_404(Registration, pk=data.validated_data["registration"],
                                tournament=self.get_tournament())
        checkin = services.set_checked_in(reg, data.validated_data["game_number"],
                                          data.validated_data["present"], actor=request.user)
        return Response({"registration": reg.pk,
                         "game_number": data.validated_data["game_number"],
                         "present": checkin is not None})


# --- roles and links -----------------------------------------------------------------------
class _OrganizerRead(TournamentScoped):
    def check_read(self, request: Request) -> None:
        if not is_organizer(request.user, self.get_tournament()):
            raise PermissionDeniedError(_("Only an organizer of this tournament may see this."),
                                        rule="ROLE")


class RoleList(_OrganizerRead, generics.ListAPIView):
    serializer_class = RoleSerializer
    permission_classes = [IsAuthenticated, TournamentObjectPermission]

    def get_queryset(self) -> Any:
        self.check_read(self.request)
        return self.get_tournament().roles.select_related("user").order_by("role", "id")

    @extend_schema(request=RoleSerializer, responses={201: RoleSerializer})
    def post(self, request: Request, slug: str) -> Response:
        data = RoleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        role = services.add_role(self.get_tournament(), data.validated_data["user"]["username"],
                                 data.validated_data["role"], actor=request.user)
        return Response(RoleSerializer(role).data, status=status.HTTP_201_CREATED)


class RoleDetail(TournamentScoped, APIView):
    permission_classes = [IsAuthenticated, TournamentObjectPermission]

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        role = get_object_or_404(TournamentRole, pk=pk, tournament=self.get_tournament())
        services.remove_role(role, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(never_cache, name="dispatch")  # the private links' tokens
class LinkList(_OrganizerRead, generics.ListAPIView):
    serializer_class = LinkSerializer
    permission_classes = [IsAuthenticated, TournamentObjectPermission]

    def get_queryset(self) -> Any:
        self.check_read(self.request)
        return selectors.links(self.get_tournament())

    @extend_schema(request=CreateLinkSerializer, responses={201: LinkSerializer})
    def post(self, request: Request, slug: str) -> Response:
        data = CreateLinkSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        user = player = None
        if data.validated_data.get("username"):
            user = get_object_or_404(get_user_model(), username=data.validated_data["username"])
        if data.validated_data.get("player"):
            player = get_object_or_404(Player, pk=data.validated_data["player"])
        link = services.create_link(tournament, actor=request.user, user=user, player=player)
        return Response(LinkSerializer(link).data, status=status.HTTP_201_CREATED)


class LinkRevoke(TournamentScoped, APIView):
    permission_classes = [IsAuthenticated, TournamentObjectPermission]

    @extend_schema(request=None, responses=LinkSerializer)
    def post(self, request: Request, slug: str, pk: int) -> Response:
        link = get_object_or_404(AccessLink, pk=pk, tournament=self.get_tournament())
        return Response(LinkSerializer(services.revoke_link(link, actor=request.user)).data)
