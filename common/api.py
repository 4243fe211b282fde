"""REST framework glue shared by every app."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError, DataError
from django.utils.translation import gettext as _
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import RETRY_AFTER_SECONDS, DomainError, Refusal, read_only_refusal


def query_int(value: str | None, default: int, low: int, high: int) -> int:
    """A whole number from a query parameter, between ``low`` and ``high``: missing or not a
    number is ``default``, out of range the nearest bound (``?limit=`` and ``?offset=`` of a
    list: a bad value is never a 400 nor a 500)."""
    try:
        number = int(value) if value not in (None, "") else default
    except (TypeError, ValueError):
        return default
    return max(low, min(high, number))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DomainError → 400/403/409 with field and rule id; model validation → 400; a database
    that takes no writes → 503 with Retry-After. Never a 500."""
    if isinstance(exc, DatabaseError):
        exc = read_only_refusal(exc) or exc
    if isinstance(exc, DomainError):
        retry = {"Retry-After": str(RETRY_AFTER_SECONDS)} if exc.kind == Refusal.UNAVAILABLE else None
        return Response(exc.as_dict(), status=exc.status_code, headers=retry)
    if isinstance(exc, (OverflowError, DataError)):  # e.g. an id of 30 digits in a JSON body
        return Response({"detail": _("A value is out of range."), "rule": "FORMAT"}, status=400)
    if isinstance(exc, RecursionError):  # a JSON body nested thousands of levels deep
        return Response({"detail": _("The JSON body is nested too deeply."), "rule": "FORMAT"}, status=400)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return Response(detail, status=400)
    # imported here: rest_framework.views reads the renderer setting, which names this module

    return drf_exception_handler(exc, context)


class SafeLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=&offset=`` with bounds: a huge offset (``?offset=10**20``) is past the end (an
    empty page) instead of a PostgreSQL "bigint out of range" error (HTTP 500, found by
    schemathesis); ``limit`` is capped."""

    max_limit = 1000
    max_offset = 2**31 - 1

    def get_offset(self, request: Any) -> int:
        return min(super().get_offset(request), self.max_offset)


def not_found(request: Any, exception: Exception | None = None) -> Any:
    """The 404 of a path no route matches: JSON under /api/ (what the API's schema documents),
    the usual page elsewhere."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path_info.startswith("/api/"):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return page_not_found(request, exception)  # type: ignore[arg-type]


def bad_request(request: Any, exception: Exception | None = None) -> Any:
    """A request Django refuses before any view (a damaged multipart body, too many files or
    fields): JSON under /api/, as the API's schema documents every 400; the usual page elsewhere."""
    from django.http import JsonResponse
    from django.views.defaults import bad_request as page_bad_request

    if request.path_info.startswith("/api/"):
        return JsonResponse({"detail": _("The request could not be read."), "rule": "FORMAT"}, status=400)
    return page_bad_request(request, exception)  # type: ignore[arg-type]
