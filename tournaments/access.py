"""Private links: a referee's password-less login to one tournament, a player's personal link.

A referee's link logs its user in (a normal Django session); what that user may do is still
decided by their role (``permissions.is_referee``). A player's link marks the browser's session
as that player's for that tournament only: it grants nothing but what a player may do (see their
own objective card, confirm their own table's result).
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import login
from django.utils import timezone

from config.errors import DomainError

from .models import AccessLink, Player, Tournament

_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
SESSION_KEY = "player_links"  # {str(tournament id): player id}


def use_access_link(request: Any, token: str) -> AccessLink:
    """Open a private link in this browser; refused when unknown or revoked."""
    # Tokens are URL-safe base64 (models.new_token): anything else (a NUL byte, which
    # PostgreSQL refuses in a query, or a 10 kB string) is unknown without asking the database.
    if not _TOKEN.fullmatch(token or ""):
        raise DomainError("This private link is unknown or has been revoked.", field="token")
    link = (
        AccessLink.objects.select_related("tournament", "user", "player")
        .filter(token=token)
        .first()
    )
    if link is None or not link.is_active:
        raise DomainError("This private link is unknown or has been revoked.", field="token")
    if link.kind == AccessLink.Kind.REFEREE:
        login(request, link.user, backend="django.contrib.auth.backends.ModelBackend")
    else:
        links = dict(request.session.get(SESSION_KEY, {}))
        links[str(link.tournament_id)] = link.player_id
        request.session[SESSION_KEY] = links
    AccessLink.objects.filter(pk=link.pk).update(last_used_at=timezone.now())
    return link


def linked_player(request: Any, tournament: Tournament) -> Player | None:
    """The player whose private link was opened in this browser for ``tournament``, if any
    (and only while that link is still active)."""
    player_id = request.session.get(SESSION_KEY, {}).get(str(tournament.pk))
    if player_id is None:
        return None
    active = AccessLink.objects.filter(
        tournament=tournament, player_id=player_id, kind=AccessLink.Kind.PLAYER,
        revoked_at__isnull=True,
    ).exists()
    return Player.objects.filter(pk=player_id).first() if active else None
