"""REST framework glue shared by every app."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.utils import encoders
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import DomainError
from engine.exact import ExactEncoderMixin


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DomainError → 400/403/409 with field and rule id; model validation → 400. Never a 500."""
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return Response(detail, status=400)
    return drf_exception_handler(exc, context)


class SafeLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=&offset=`` with bounds: a huge offset (``?offset=10**20``) is past the end (an
    empty page) instead of a PostgreSQL "bigint out of range" error (HTTP 500, found by
    schemathesis); ``limit`` is capped."""

    max_limit = 1000
    max_offset = 2**31 - 1

    def get_offset(self, request: Any) -> int:
        return min(super().get_offset(request), self.max_offset)


class ExactJSONEncoder(ExactEncoderMixin, encoders.JSONEncoder):
    """DRF's encoder (dates, lazy strings…) writing Decimals as the exact JSON numbers they spell
    (a score of 7.2875 is ``7.2875`` in every response, never through a binary float)."""


class ExactJSONRenderer(JSONRenderer):
    encoder_class = ExactJSONEncoder

