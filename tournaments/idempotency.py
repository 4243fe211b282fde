"""Writes done once: a client names a write with an idempotency key (the API's ``Idempotency-Key``
header, a result form's hidden ``idempotency_key`` field); a retry with the same key gets the
answer the write got, never a second write nor a refusal of the retry (a 409: "someone saved a
newer version" — itself).

A phone loses the answer to a saved result when the network drops after the server committed;
the offline referee queue sends a write again until it hears back. Both retry with the key.

The write, its answer and the record of the key are one transaction: the answer is built before
the commit (never from a connection that may die after it), and a retry either finds the record
(the write committed: its answer) or nothing (nothing was saved: the write runs). Two copies of a
request arriving together queue on the key's row: the second gets the first's answer. Keys are
per client (the signed-in user, or the session of a player's private link) and kept
``KEPT_DAYS``; the same key on another path is refused (HTTP 400).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter

from config.errors import DomainError, read_only_refusal

from .models import IdempotentWrite

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"  # the hidden field of a form
KEPT_DAYS = 7
_KEY = re.compile(r"[\x21-\x7e]{1,100}")  # printable ASCII, no spaces: a UUID fits

schema_parameter = OpenApiParameter(
    HEADER, str, location=OpenApiParameter.HEADER, required=False,
    description=(
        "A key of your choice (a UUID) naming this write, at most 100 printable characters. "
        "Sent again with the same request (the answer was lost, the connection dropped), it gets "
        "the answer the write got the first time, with its status, and writes nothing more. "
        "Keys are kept 7 days per user; the same key on another path is a 400 (rule IDEMPOTENCY)."),
)

Answer = tuple[int, Any]  # (HTTP status, body)


def key_of(request: HttpRequest) -> str | None:
    if request.method != "POST":
        return None
    raw = request.headers.get(HEADER) or request.POST.get(FIELD)
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
        return _once(request, write)
    except DatabaseError as exc:  # a read-only database: a refusal the form or the API shows
        refusal = read_only_refusal(exc)
        if refusal is None:
            raise
        raise refusal from exc


def _once(request: HttpRequest, write: Callable[[], Answer]) -> Answer:
    key, owner = key_of(request), _owner(request)
    with transaction.atomic():
        if key is None or owner is None:
            return write()
        fingerprint = f"{request.method} {request.path}"[:64]
        found = IdempotentWrite.objects.select_for_update().filter(owner=owner, key=key).first()
        if found is None:
            try:
                with transaction.atomic():
                    found = IdempotentWrite.objects.create(owner=owner, key=key, fingerprint=fingerprint)
            except IntegrityError:  # the same request, committed while this one waited on the key
                found = IdempotentWrite.objects.get(owner=owner, key=key)
            else:
                status, answer = write()
                found.status, found.answer = status, answer
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
