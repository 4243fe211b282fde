"""Pages and API of the event workbook: an organizer checks and downloads the tournament's
workbook; organizers and staff upload past events' workbooks. Thin: :mod:`.export` and
:mod:`.importer` do the work."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Tournament
from tournaments.permissions import (
    TournamentObjectPermission,
    TournamentScoped,
    organises_any,
    staff_required,
)

from . import export as wb_export
from . import importer, spec

CONTENT_TYPES = {"xls": "application/vnd.ms-excel",
                 "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
MAX_UPLOAD_FILES = 400


def _file_response(result: wb_export.Export, fmt: str) -> HttpResponse:
    response = HttpResponse(result.content, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{result.filename}"'
    return response


@staff_required("organizer")
def workbook_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The checks of the tournament's workbook, the organizer's name as the ranking spells it,
    and the download (refused, with the reasons, while the ranking would refuse the file)."""
    if request.method == "POST":
        wb_export.remember_organizer(tournament, request.POST.get("organizer", ""), actor=request.user)
        return redirect("workbook:export", slug=tournament.slug)
    fmt = request.GET.get("download", "")
    result = wb_export.export(tournament, fmt=fmt if fmt in CONTENT_TYPES else "xls",
                              write_file=fmt in CONTENT_TYPES)
    if fmt in CONTENT_TYPES and result.ok:
        return _file_response(result, fmt)
    return render(request, "workbook/workbook.html", {
        "tournament": tournament, "result": result, "organizer": result.event.organizer,
        "refused": fmt in CONTENT_TYPES and not result.ok, "type_label": result.event.type_label,
    }, status=400 if fmt in CONTENT_TYPES and not result.ok else 200)


def may_import(user: Any) -> bool:
    """Staff, or anyone who organizes a tournament here (club admins organise their club's)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or organises_any(user)


def _uploaded(files: list[Any]) -> list[tuple[str, bytes | Any]]:
    out: list[tuple[str, bytes | Any]] = []
    for f in files[:MAX_UPLOAD_FILES]:
        if f.size > spec.MAX_FILE_BYTES:
            out.append((f.name, importer.Issue("WB-LIMIT", params={
                "what": _("the file is larger than %(mb)s MB") % {"mb": spec.MAX_FILE_BYTES // 2**20}})))
        else:
            out.append((f.name, f.read()))
    return out


def import_page(request: HttpRequest) -> HttpResponse:
    """The upload form and its report. The page's script posts the files a few at a time with
    ``part=rows`` and gets back only those files' report rows (status 200 even when all are
    refused: a refused file is part of the report, and the other batches go on)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not may_import(request.user):
        raise PermissionDenied(_("Only staff or an organizer of a tournament may import workbooks."))
    reports: list[importer.FileReport] = []
    if request.method == "POST":
        files = request.FILES.getlist("files")
        if not files:
            return render(request, "workbook/workbook_import.html", {
                "error": _("Choose one or more workbooks (.xls or .xlsx).")}, status=400)
        reports = importer.import_many(_uploaded(files), actor=request.user)
        if request.POST.get("part") == "rows":
            return render(request, "workbook/_workbook_import_rows.html", {"reports": reports})
    slugs = {r.tournament for r in reports if r.tournament}
    return render(request, "workbook/workbook_import.html", {
        "reports": reports, "tournaments": {t.slug: t for t in Tournament.objects.filter(slug__in=slugs)},
    }, status=400 if reports and all(r.status == importer.REFUSED for r in reports) else 200)


# ------------------------------------------------------------------ API
class IssueSerializer(serializers.Serializer):
    code = serializers.CharField()
    severity = serializers.CharField()
    sheet = serializers.CharField()
    cell = serializers.CharField()
    message = serializers.CharField()


class WorkbookCheckSerializer(serializers.Serializer):
    file = serializers.CharField()
    event_id = serializers.CharField()
    ok = serializers.BooleanField()
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)


class FileReportSerializer(serializers.Serializer):
    file = serializers.CharField()
    status = serializers.ChoiceField(choices=[importer.IMPORTED, importer.REPLACED, importer.UNCHANGED,
                                              importer.REFUSED])
    event_id = serializers.CharField()
    tournament = serializers.CharField()
    players_new = serializers.IntegerField()
    players_matched = serializers.IntegerField()
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)
    probable_duplicates = serializers.ListField(child=serializers.DictField())


class WorkbookAPI(TournamentScoped, APIView):
    """The tournament's event workbook (organizer): the checks, or the file itself."""

    permission_classes = [TournamentObjectPermission]
    required_role = "organizer"

    def check_permissions(self, request: Request) -> None:
        super().check_permissions(request)
        from tournaments.permissions import is_organizer

        if not is_organizer(request.user, self.get_tournament()):
            self.permission_denied(request, message=_("Only an organizer of this tournament may do this."))

    @extend_schema(responses=WorkbookCheckSerializer, operation_id="scoring_tournaments_workbook_check",
                   summary="Check the event workbook for the national ranking (organizer)")
    def get(self, request: Request, slug: str) -> Response:
        return Response(wb_export.as_dict(wb_export.export(self.get_tournament(), write_file=False)))


class WorkbookFileAPI(WorkbookAPI):
    """The tournament's event workbook file (organizer), or the reasons the ranking would refuse it."""

    @extend_schema(
        operation_id="scoring_tournaments_workbook_file",
        parameters=[OpenApiParameter("fmt", str, OpenApiParameter.PATH, enum=["xls", "xlsx"])],
        responses={(200, CONTENT_TYPES["xls"]): OpenApiTypes.BINARY,
                   (200, CONTENT_TYPES["xlsx"]): OpenApiTypes.BINARY,
                   400: WorkbookCheckSerializer},
        summary="Download the event workbook for the national ranking: xls or xlsx (organizer)")
    def get(self, request: Request, slug: str, fmt: str = "xls") -> Any:  # type: ignore[override]
        result = wb_export.export(self.get_tournament(), fmt=fmt if fmt in CONTENT_TYPES else "xls")
        if result.ok:
            return _file_response(result, fmt)
        return Response(wb_export.as_dict(result), status=400)


class WorkbookImportAPI(APIView):
    """Import past events from their workbooks (staff or organizers): one report per file."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(operation_id="scoring_workbooks_import", request={"multipart/form-data": {"type": "object", "properties": {
        "files": {"type": "array", "items": {"type": "string", "format": "binary"}}}}},
        responses={200: FileReportSerializer(many=True)},
        summary="Import past events from their workbooks (.xls/.xlsx)")
    def post(self, request: Request) -> Response:
        if not may_import(request.user):
            self.permission_denied(request, message=_("Only staff or an organizer of a tournament may import "
                                                      "workbooks."))
        files = request.FILES.getlist("files")
        if not files:
            return Response({"files": [_("Choose one or more workbooks (.xls or .xlsx).")], "rule": "FORMAT"},
                            status=400)
        reports = importer.import_many(_uploaded(files), actor=request.user)
        return Response([r.as_dict() for r in reports])


