"""REST API of invitations (the same services as the pages, ``tournaments.invitations``):
organizers list, create and revoke their tournament's invitations. Accepting one is done on its
page (``/invite/<token>/``), where the invited person chooses a password."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import invitations
from .api import _OrganizerRead
from .models import Invitation, TournamentRole
from .permissions import TournamentObjectPermission, TournamentScoped


class InvitationSerializer(serializers.ModelSerializer):
    state = serializers.SerializerMethodField(help_text="open, accepted, revoked or expired")
    url = serializers.SerializerMethodField(help_text="The page that accepts it")
    accepted_by = serializers.CharField(source="accepted_by.username", default=None,
                                        read_only=True, allow_null=True)
    email = serializers.CharField(read_only=True, help_text="Empty: none given")

    class Meta:
        model = Invitation
        fields = ["id", "role", "note", "email", "token", "url", "state", "created_at",
                  "expires_at", "accepted_by"]
        read_only_fields = fields

    def get_state(self, inv: Invitation) -> str:
        return inv.state()

    def get_url(self, inv: Invitation) -> str:
        return reverse("tournaments:invitation", args=[inv.token])


class CreateInvitationSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=TournamentRole.Role.choices)
    note = serializers.CharField(max_length=120, required=False, allow_blank=True)
    email = serializers.EmailField(required=False, allow_blank=True,
                                   help_text="Sent only when the server has mail configured")


@method_decorator(never_cache, name="dispatch")  # invitations' tokens
class InvitationList(_OrganizerRead, generics.ListAPIView):
    serializer_class = InvitationSerializer
    permission_classes = [IsAuthenticated, TournamentObjectPermission]

    def get_queryset(self) -> Any:
        self.check_read(self.request)
        return self.get_tournament().invitations.select_related("accepted_by")

    @extend_schema(request=CreateInvitationSerializer, responses={201: InvitationSerializer})
    def post(self, request: Request, slug: str) -> Response:
        data = CreateInvitationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        inv = invitations.create_invitation(
            self.get_tournament(), data.validated_data["role"], actor=request.user,
            email=data.validated_data.get("email", ""), note=data.validated_data.get("note", ""))
        if inv.email:
            invitations.send_invitation(
                inv, request.build_absolute_uri(reverse("tournaments:invitation",
                                                        args=[inv.token])), actor=request.user)
        return Response(InvitationSerializer(inv).data, status=status.HTTP_201_CREATED)


class InvitationRevoke(TournamentScoped, APIView):
    permission_classes = [IsAuthenticated, TournamentObjectPermission]

    @extend_schema(request=None, responses=InvitationSerializer)
    def post(self, request: Request, slug: str, pk: int) -> Response:
        inv = get_object_or_404(Invitation, pk=pk, tournament=self.get_tournament())
        return Response(InvitationSerializer(
            invitations.revoke_invitation(inv, actor=request.user)).data)
