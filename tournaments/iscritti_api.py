"""REST API of the club switch-over: upload the "Iscritti" sheet, list probable duplicates, merge
two records (organizer only; never automatic). Thin: ``tournaments.iscritti`` and
``tournaments.merge`` do the work."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import DomainError, PermissionDeniedError

from . import merge
from .iscritti import import_iscritti
from .models import Player
from .permissions import TournamentObjectPermission, TournamentScoped, is_organizer
from .spreadsheets import check_upload_size


def _person(p: Player) -> dict[str, Any]:
    return {"id": p.pk, "name": p.full_name, "nickname": p.nickname, "club": p.club.name if p.club_id else ""}


Person = inline_serializer("MergePerson", {
    "id": serializers.IntegerField(), "name": serializers.CharField(), "nickname": serializers.CharField(),
    "club": serializers.CharField(),
})
Candidate = inline_serializer("MergeCandidate", {
    "player": Person, "distance": serializers.IntegerField(), "same": serializers.BooleanField(),
})
Candidates = inline_serializer("MergeCandidate", {  # the answers list them: an array
    "player": Person, "distance": serializers.IntegerField(), "same": serializers.BooleanField(),
}, many=True)


class MergeSerializer(serializers.Serializer):
    # Bounded like ids in paths (config/converters.py): a huge number is a 400, never a 500.
    keep = serializers.IntegerField(min_value=1, max_value=10**18 - 1, help_text="The player who stays.")
    drop = serializers.IntegerField(min_value=1, max_value=10**18 - 1,
                                    help_text="The player merged into the one who stays (deleted).")


class IscrittiImport(TournamentScoped, APIView):
    """Upload the desktop tool's workbook (multipart field ``file``, .xls or .xlsx): one
    transaction; a bad row answers 400 with ``line`` and the field, and nothing is imported."""

    permission_classes = [TournamentObjectPermission]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": {"type": "object",
                                         "properties": {"file": {"type": "string", "format": "binary"}}}},
        responses={201: inline_serializer("IscrittiImportResult", {
            "registered": serializers.IntegerField(),
            "skipped": serializers.ListField(child=serializers.IntegerField()),
            "duplicates": inline_serializer("IscrittiDuplicate", {
                "row": serializers.IntegerField(), "player": Person,
                "candidates": Candidates}, many=True),
        })},
        summary="Import the clubs' “Iscritti” registration sheet (.xls/.xlsx); probable duplicates listed",
    )
    def post(self, request: Request, slug: str) -> Response:
        upload = request.FILES.get("file")
        if upload is None:
            raise DomainError(_("Choose an .xls or .xlsx file."), field="file", rule="FORMAT")
        check_upload_size(upload.size)  # 413 before reading it
        report = import_iscritti(self.get_tournament(), upload.read(), upload.name or "", actor=request.user)
        from .privacy import manages_player

        people = {pk: p for pk, p in Player.objects.select_related("club").in_bulk(
            [d.player_id for _r, _p, found in report.duplicates for d in found]).items()
            if manages_player(request.user, p)}  # never another organizer's records
        return Response({
            "registered": len(report.registered), "skipped": report.skipped,
            "duplicates": [{"row": row, "player": _person(p),
                            "candidates": [{"player": _person(people[d.player_id]), "distance": d.distance,
                                            "same": d.same} for d in found if d.player_id in people]}
                           for row, p, found in report.duplicates],
        }, status=status.HTTP_201_CREATED)


class Duplicates(TournamentScoped, APIView):
    permission_classes = [TournamentObjectPermission]

    @extend_schema(responses=inline_serializer("Flagged", {"player": Person, "candidates": Candidates}, many=True),
                   summary="Players registered here with probable duplicates (organizer)")
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.get_tournament()
        if not is_organizer(request.user, tournament):
            raise PermissionDeniedError(_("Only an organizer of this tournament can do this."), rule="ROLE")
        return Response([{"player": _person(f.player),
                          "candidates": [{"player": _person(p), "distance": d.distance, "same": d.same}
                                         for p, d in f.candidates]} for f in merge.flagged(tournament, request.user)])


class Merge(TournamentScoped, APIView):
    permission_classes = [TournamentObjectPermission]
    parser_classes = [JSONParser, FormParser]

    @extend_schema(request=MergeSerializer, responses={200: Person},
                   summary="Merge two records of the same person: the organizer picks who stays")
    def post(self, request: Request, slug: str) -> Response:
        s = MergeSerializer(data=request.data)
        if not s.is_valid():
            field, errors = next(iter(s.errors.items()))
            raise DomainError(str(errors[0]), field=field, rule="FORMAT")
        kept = merge.merge_players(self.get_tournament(), keep=s.validated_data["keep"],
                                   drop=s.validated_data["drop"], actor=request.user)
        return Response(_person(kept))
