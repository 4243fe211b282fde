"""One way to write the audit log, used by every app's services."""

from __future__ import annotations

from typing import Any

from django.db import models

from .models import AuditEntry, Tournament


def record(
    *,
    actor: Any,
    action: str,
    obj: models.Model,
    tournament: Tournament | None,
    before: Any = None,
    after: Any = None,
    label: str = "",
) -> AuditEntry:
    """``label``: who acted when nobody is signed in (a player from their personal link)."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=user,
        actor_label=user.get_username() if user else (label[:150] or "anonymous"),
        action=action,
        object_type=obj._meta.label,
        object_id=str(obj.pk or ""),
        before=before,
        after=after,
    )
