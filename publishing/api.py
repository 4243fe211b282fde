"""``PUT /api/publish/tournaments/<slug>/``: a club publishes a tournament run on a hall laptop
(``manage.py publish_tournament``); ``GET`` reads the published copy. Authenticated by the club's
token in ``Authorization: Bearer`` only (no session, no cookie, hence no CSRF check): see
``publishing/services.py`` and docs/publishing.md."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import exact
from tournaments.models import Tournament

from . import schema
from . import services as publishing
from .models import PublishedTournament


def max_bytes() -> int:
    return int(getattr(settings, "PUBLISH_MAX_BYTES", 5 * 1024 * 1024))


# What the endpoint answers (the request body's schema is the allow-list itself: publishing/schema.py).
STORED = {"type": "object", "properties": {
    "status": {"type": "string", "enum": ["created", "updated", "unchanged"]}, "slug": {"type": "string"},
    "sequence": {"type": "integer"}, "digest": {"type": "string"}}}
COPY = {"type": "object", "properties": {
    "slug": {"type": "string"}, "name": {"type": "string"}, "club": {"type": "string"},
    "sequence": {"type": "integer"}, "published_at": {"type": "string", "format": "date-time"},
    "content": schema.CONTENT.json_schema()}}


class PublishTournament(APIView):
    authentication_classes: list[Any] = []  # the Bearer token is checked by the view itself
    permission_classes = [AllowAny]
    parser_classes: list[Any] = []  # the body is read here, bounded, with exact numbers
    # JSON only: the browsable API's page builds its forms from the first parser (there is
    # none), so a browser's GET would be a server error
    renderer_classes = [JSONRenderer]

    @extend_schema(request=None, responses={200: OpenApiResponse(response=COPY, description="Published copy")})
    def get(self, request: Request, slug: str) -> Response:
        row = get_object_or_404(PublishedTournament.objects.select_related("club", "tournament"), slug=slug)
        status = row.tournament.status if row.tournament else (row.payload.get("tournament") or {}).get("status")
        if status == Tournament.Status.DRAFT:  # the public pages do not show a draft either
            raise Http404
        # Only what the allow-list lists, within its bounds: what the public pages show, even
        # for a copy stored before the list existed (docs/security.md).
        return Response({"slug": row.slug, "name": row.name, "club": row.club.name,
                         "sequence": row.sequence, "published_at": row.published_at,
                         "content": schema.CONTENT.public(row.payload)})

    @extend_schema(request={"application/json": schema.DOCUMENT.json_schema()},
                   responses={200: OpenApiResponse(response=STORED, description="Stored (or unchanged)"),
                              201: OpenApiResponse(response=STORED, description="Created")})
    def put(self, request: Request, slug: str) -> Response:
        token = publishing.authenticate(request.META.get("HTTP_AUTHORIZATION"))
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > max_bytes():
            raise publishing.TooLarge(
                _("The tournament is larger than this instance accepts (%(limit)s bytes).")
                % {"limit": max_bytes()}, field="body", rule="PUBLISH-SIZE")
        raw = request._request.read(max_bytes() + 1)
        if len(raw) > max_bytes():
            raise publishing.TooLarge(
                _("The tournament is larger than this instance accepts (%(limit)s bytes).")
                % {"limit": max_bytes()}, field="body", rule="PUBLISH-SIZE")
        try:
            document = exact.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise publishing.DomainError(_("The body is not valid JSON."), field="body",
                                         rule="PUBLISH") from None
        try:
            outcome, row = publishing.receive(token, slug, document)
        except IntegrityError:  # the same tournament published twice at the same moment
            raise publishing.ConflictError(_("Another publish of this tournament is in progress: try again."),
                                           field="source_id", rule="PUBLISH-CONFLICT") from None
        return Response({"status": outcome, "slug": row.slug, "sequence": row.sequence,
                         "digest": row.published_digest},
                        status=201 if outcome == "created" else 200)
