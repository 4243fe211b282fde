"""What every request passes before any view: a bounded body and no NUL character.

Request size
    A body larger than ``settings.REQUEST_BODY_MAX_BYTES`` (``Content-Length``) is refused with
    HTTP 413 before anything reads it: JSON ``{"detail", "rule": "LIMIT"}`` on the API, a short
    page elsewhere. A request without ``Content-Length`` (chunked) has no body for Django. Each
    uploaded file has its own, smaller limit (``tournaments.spreadsheets.LIMITS.upload_bytes``),
    checked by the forms (HTTP 400, the page kept whole) and the API (HTTP 413).

NUL characters
    PostgreSQL cannot store the NUL character (``\\x00``) in text: a query containing one fails
    (HTTP 500). No user-typed text needs it, so it never gets past here: on the API a path, a
    query parameter, a form field or a JSON string containing NUL is refused with HTTP 400
    naming the field; on pages NUL in query parameters and form fields becomes U+FFFD, the
    replacement character (the page is answered normally and shows what was received; a lookup
    finds nothing rather than something else, as deleting the character could) and a path
    containing it is a 404. Cookies
    carrying NUL are dropped. Uploaded files are binary and are checked by their readers
    (``tournaments.spreadsheets`` refuses a cell with NUL).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

NUL = "\x00"


def contains_nul(value: Any) -> str | None:
    """The key path of the first string (or key) holding NUL in a JSON-like value, else None."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            if NUL in item:
                return path or "non_field_errors"
        elif isinstance(item, dict):
            for key, sub in item.items():
                if isinstance(key, str) and NUL in key:
                    return path or "non_field_errors"
                stack.append((f"{path}.{key}" if path else str(key), sub))
        elif isinstance(item, list):
            stack.extend((path, sub) for sub in item)
    return None


def body_limit() -> int:
    return int(getattr(settings, "REQUEST_BODY_MAX_BYTES", 6 * 1024 * 1024))


def too_large_message() -> str:
    return _("The request is too large: at most %(mb)s MB may be sent at once.") % {
        "mb": f"{body_limit() / (1024 * 1024):g}"}


def nul_message() -> str:
    return _("The text contains a NUL character (\\0), which is not allowed.")


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > body_limit():
            return self.refuse(request)
        try:
            return self.get_response(request)
        except RequestDataTooBig:  # a body Django itself found too large (a raced header)
            return self.refuse(request)

    @staticmethod
    def refuse(request: HttpRequest) -> HttpResponse:
        language = translation.get_language_from_request(request)  # runs before LocaleMiddleware
        with translation.override(language):
            message = too_large_message()
        if _is_api(request):
            return JsonResponse({"detail": message, "rule": "LIMIT"}, status=413)
        page = (f'<!doctype html><html lang="{escape(language)}"><head>'
                f'<meta charset="utf-8"><title>413</title></head><body><main><h1>413</h1><p>{escape(message)}</p>'
                f'<p><a href="{escape(request.path)}">&larr;</a></p></main></body></html>')
        return HttpResponse(page, status=413)


REPLACEMENT = "\ufffd"


def _strip(query: QueryDict) -> QueryDict | None:
    """A copy of ``query`` with NUL replaced by U+FFFD in keys and values, or None when it had none."""
    if not any(NUL in k or any(NUL in v for v in vs) for k, vs in query.lists()):
        return None
    clean = QueryDict(mutable=True, encoding=query.encoding)
    for key, values in query.lists():
        clean.setlist(key.replace(NUL, REPLACEMENT), [v.replace(NUL, REPLACEMENT) for v in values])
    clean._mutable = False
    return clean


def _nul_field(query: QueryDict) -> str | None:
    for key, values in query.lists():
        if NUL in key or any(NUL in v for v in values):
            return key.replace(NUL, "") or "non_field_errors"
    return None


class NulCharacterMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for name in [k for k, v in request.COOKIES.items() if NUL in k or NUL in v]:
            del request.COOKIES[name]
        api = _is_api(request)
        if NUL in request.path_info:
            if api:
                return self.refuse(request, "path")
            raise Http404
        if api:
            field = _nul_field(request.GET) or self._body_field(request)
            if field:
                return self.refuse(request, field)
        else:
            if (clean := _strip(request.GET)) is not None:
                request.GET = clean
            if request.method in ("POST", "PUT", "PATCH") and self._form(request):
                if (clean := _strip(request.POST)) is not None:
                    request.POST = clean
        return self.get_response(request)

    @staticmethod
    def _form(request: HttpRequest) -> bool:
        return request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data")

    def _body_field(self, request: HttpRequest) -> str | None:
        if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
            return None
        if self._form(request):
            return _nul_field(request.POST)
        if request.content_type and "json" in request.content_type:
            raw = request.body
            if b"\\u0000" not in raw.lower() and b"\x00" not in raw:
                return None
            try:
                data = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                return "non_field_errors" if b"\x00" in raw else None
            return contains_nul(data)
        if request.content_type and request.content_type.startswith("text/") and b"\x00" in request.body:
            return "non_field_errors"
        return None

    @staticmethod
    def refuse(request: HttpRequest, field: str) -> JsonResponse:
        with translation.override(translation.get_language_from_request(request)):
            message = nul_message()
        return JsonResponse({field: [message], "rule": "FORMAT", "detail": message}, status=400)
