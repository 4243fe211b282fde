"""Writes done once: a client names a write with an idempotency key (the ``Idempotency-Key``
header on any write of the API, handled for every view by ``ApiIdempotencyMiddleware``; a page
form's hidden ``idempotency_key`` field, handled by the view with ``once``); a retry with the same key gets the
answer the write got, never a second write nor a refusal of the retry (a 409: "someone saved a
newer version" — itself).

A phone loses the answer to a saved result when the network drops after the server committed;
the offline referee queue sends a write again until it hears back. Both retry with the key.

The write, its answer and the record of the key are one transaction: the answer is built before
the commit (never from a connection that may die after it), and a retry either finds the record
(the write committed: its answer) or nothing (nothing was saved: the write runs). Two copies of a
request arriving together queue on the key's row: the second gets the first's answer. Keys are
per client (the signed-in user, or the session of a player's private link) and kept
``KEPT_DAYS``; the same key on another path (for the API: or another body) is refused (HTTP 400).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
import re
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse, RawPostDataException
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.exceptions import APIException
from rest_framework.request import Request

from common.errors import DomainError, read_only_refusal
from common.jsonexact import ExactJSONDecoder
from common.restjson import ExactJSONRenderer
from common.schema import IDEMPOTENCY_HEADER

from .models import IdempotentWrite

HEADER = IDEMPOTENCY_HEADER  # documented once for every write: common/schema.py
FIELD = "idempotency_key"  # the hidden field of a form
KEPT_DAYS = 7
_KEY = re.compile(r"[\x21-\x7e]{1,100}")  # printable ASCII, no spaces: a UUID fits

Answer = tuple[int, Any]  # (HTTP status, body)


UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
_HANDLED = "_idempotency_handled"  # set on a request whose key ApiIdempotencyMiddleware handles


def key_of(request: HttpRequest) -> str | None:
    if request.method not in UNSAFE or getattr(request, _HANDLED, False):
        return None
    raw = request.headers.get(HEADER) or (request.POST.get(FIELD) if request.method == "POST" else None)
    if not raw:
        return None
    if not _KEY.fullmatch(raw):
        raise DomainError(_("The idempotency key must be 1 to 100 printable characters without spaces."),
                          field=HEADER, rule="IDEMPOTENCY")
    return raw


def _owner(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    return f"session:{session.session_key}" if session is not None and session.session_key else None


def once(request: HttpRequest, write: Callable[[], Answer]) -> Answer:
    """Run ``write`` (the service call and the building of its answer) in one transaction, once
    per idempotency key of ``request``; a repeated key gets the stored answer."""
    try:
        key, owner = key_of(request), _owner(request)
        if key is None or owner is None:
            with transaction.atomic():
                return write()
        return _once(owner, key, f"{request.method} {request.path}"[:64], write, kept=lambda answer: answer)
    except DatabaseError as exc:  # a read-only database: a refusal the form or the API shows
        refusal = read_only_refusal(exc)
        if refusal is None:
            raise
        raise refusal from exc


def _once(owner: str, key: str, fingerprint: str, write: Callable[[], Answer],
          kept: Callable[[Answer], Answer | None]) -> Answer:
    """The write under ``owner``'s ``key``, in one transaction with the key's record. ``kept``
    gives the answer to store for a retry, or None for one not to keep (a refusal: the client may
    fix it and send again): then no record is left."""
    with transaction.atomic():
        found = IdempotentWrite.objects.select_for_update().filter(owner=owner, key=key).first()
        if found is None:
            try:
                with transaction.atomic():
                    found = IdempotentWrite.objects.create(owner=owner, key=key, fingerprint=fingerprint)
            except IntegrityError:  # the same request, committed while this one waited on the key
                found = IdempotentWrite.objects.get(owner=owner, key=key)
            else:
                status, answer = write()
                stored = kept((status, answer))
                if stored is None:
                    found.delete()
                    return status, answer
                found.status, found.answer = stored
                found.save(update_fields=["status", "answer"])
                _forget_old()
                return status, answer
        if found.fingerprint != fingerprint:
            raise DomainError(_("This idempotency key was already used for another request."),
                              field=HEADER, rule="IDEMPOTENCY")
        return found.status, found.answer


def _forget_old() -> None:
    if random.random() < 0.01:  # noqa: S311 - housekeeping now and then, not security
        IdempotentWrite.objects.filter(created_at__lt=timezone.now() - dt.timedelta(days=KEPT_DAYS)).delete()


class ApiIdempotencyMiddleware:
    """Every write of the REST API (POST, PUT, PATCH, DELETE under /api/) sent with an
    ``Idempotency-Key``: the view runs in one transaction with the key's record, and its answer
    (status and JSON body) is stored before the commit. A retry gets that answer again; an error
    answer (4xx, 5xx) or one that is not JSON is not kept, so a refused write may be sent again."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> HttpResponse | None:
        api_view = getattr(view, "cls", None)  # REST framework's views only
        if api_view is None or request.method not in UNSAFE or not request.path.startswith("/api/") \
                or not request.headers.get(HEADER):
            return None
        owner = _api_owner(request, api_view)
        if owner is None:  # no client to keep keys for (or wrong credentials): the view answers
            return None
        try:
            key, fingerprint = key_of(request), _fingerprint(request)
        except DomainError as exc:
            return JsonResponse(exc.as_dict(), status=exc.status_code)
        except (RequestDataTooBig, RawPostDataException):  # the view refuses it as it always did
            return None
        if key is None:
            return None

        def write() -> Answer:
            setattr(request, _HANDLED, True)  # a view's own once() leaves the key to this one
            response = view(request, *args, **kwargs)
            if hasattr(response, "render"):
                response.render()  # the body, before the commit
            return response.status_code, response

        try:
            status, answer = _once(owner, key, fingerprint, write, kept=_kept)
        except DomainError as exc:
            return JsonResponse(exc.as_dict(), status=exc.status_code)
        except DatabaseError as exc:
            if read_only_refusal(exc) is None:
                raise
            return None  # a read-only database: the view, without the key, refuses as it always did
        if isinstance(answer, HttpResponse):  # this request's own answer
            return answer
        return _replayed(status, answer)


def _kept(answer: Answer) -> Answer | None:
    """The answer to store for a retry (status and JSON body, None for no body: a deletion's
    204), or None: an error, or a body that is not JSON (a file, a page)."""
    status, response = answer
    if status >= 400 or getattr(response, "streaming", False):
        return None
    if not response.content:
        return status, None
    if not response.get("Content-Type", "").startswith("application/json"):
        return None
    return status, json.loads(response.content, cls=ExactJSONDecoder)


def _replayed(status: int, body: Any) -> HttpResponse:
    """The stored answer, as REST framework rendered it the first time."""
    if body is None:
        response = HttpResponse(status=status)
        del response["Content-Type"]
        return response
    return HttpResponse(ExactJSONRenderer().render(body), status=status, content_type="application/json")


def _api_owner(request: HttpRequest, api_view: Any) -> str | None:
    """The client the view will see: REST framework's authentication of the request, done once
    ahead (its failure is the view's answer, a 401 or 403, not this middleware's)."""
    authenticators = [auth() for auth in api_view.authentication_classes]
    signed_in = request.user  # REST framework sets it: the view must find the session's own
    try:
        return _owner(Request(request, authenticators=authenticators))
    except APIException:
        return None
    finally:
        # a password-authenticated user left here would look like a session to the view's
        # cookie authentication, which then asks for a CSRF token
        request.user = signed_in


def _fingerprint(request: HttpRequest) -> str:
    """The request's method, then a digest of its path (with its query) and body: the same key
    with another request (another path, another body) is refused."""
    digest = hashlib.sha256(request.get_full_path().encode() + b"\n" + request.body).hexdigest()
    return f"{request.method} {digest}"[:64]
