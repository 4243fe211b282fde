"""REST framework glue shared by every app."""

from __future__ import annotations

import codecs
import json
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.utils import encoders

from config.errors import DomainError
from engine.exact import ExactEncoderMixin


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DomainError → 400/403/409 with field and rule id; model validation → 400. Never a 500."""
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, (OverflowError, DataError)):  # e.g. an id of 30 digits in a JSON body
        return Response({"detail": _("A value is out of range."), "rule": "FORMAT"}, status=400)
    if isinstance(exc, RecursionError):  # a JSON body nested thousands of levels deep
        return Response({"detail": _("The JSON body is nested too deeply."), "rule": "FORMAT"}, status=400)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return Response(detail, status=400)
    # imported here: rest_framework.views reads the renderer setting, which names this module
    from rest_framework.views import exception_handler as drf_exception_handler

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
class ExactJSONEncoder(ExactEncoderMixin, encoders.JSONEncoder):
    """DRF's encoder (dates, lazy strings…) writing Decimals as the exact JSON numbers they spell
    (a score of 7.2875 is ``7.2875`` in every response, never through a binary float)."""


class ExactJSONRenderer(JSONRenderer):
    encoder_class = ExactJSONEncoder



class _Pairs(dict):  # type: ignore[type-arg]
    """A JSON object that remembers the keys it was given more than once."""

    repeated: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> _Pairs:
    out = _Pairs()
    out.repeated = []
    for key, value in pairs:
        if key in out and key not in out.repeated:
            out.repeated.append(key)
        out[key] = value
    return out


def _first_repeat(value: Any, path: str = "") -> tuple[str, list[str]] | None:
    if isinstance(value, _Pairs) and value.repeated:
        return path or "non_field_errors", value.repeated
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        found = _first_repeat(child, key if not path else f"{path}.{key}" if isinstance(key, str) else path)
        if found:
            return found
    return None


class StrictJSONParser(JSONParser):
    """JSON in, with a key given twice in one object refused (HTTP 400 naming the field, e.g.
    ``owners``) instead of silently keeping the last value: ``{"owners": {"Alaska": 1, "Alaska": 2}}``
    would otherwise give Alaska to seat 2 without a word."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding", "utf-8")
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        found = _first_repeat(data)
        if found is not None:
            field, keys = found
            raise ParseError({field: [f"repeated key {', '.join(map(repr, keys))}: give each key once"],
                              "rule": "FORMAT"})
        return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
