"""The clubs' API: anyone lists the clubs; a federation admin creates one (docs/clubs.md)."""

from __future__ import annotations

from typing import Any

from rest_framework import generics, serializers

from tournaments.models import Club

from . import federation


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "city", "region"]


class ClubList(generics.ListCreateAPIView):
    """Clubs: anyone lists them; only a federation admin creates one (else 403, rule ROLE)."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = federation.create_club(actor=self.request.user,
                                                     **serializer.validated_data)
