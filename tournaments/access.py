"""Private links: a referee's password-less login to one tournament, a player's personal link.

Opening a link is two steps: its address (a GET, from a QR code or a message) shows a landing
page that says who this browser will be and for which tournament, and whom that replaces; only
its button (a CSRF-checked POST) uses the link (``open_link``). A hostile page can therefore not
sign a visitor in as someone else (login CSRF), and a session is never replaced without asking.
A browser that already is what the link would make it goes straight on.

A referee's link logs its user in (a normal Django session); what that user may do is still
decided by their role (``permissions.is_referee``), and such a session cannot accept an
invitation (``invitations.accept_invitation``): a role goes to an account signed in with its
password. A player's link marks the browser's session
as that player's for that tournament only: it grants nothing but what a player may do (see their
own objective card, confirm their own table's result).

A session opened by a link remembers *which* link opened it, and every request checks that link
again: revoking it ends the session at once (a referee's session is logged out by
:class:`RevokedLinkMiddleware`, a player's is forgotten by :func:`linked_player`), even when a new
link was made for the same person since.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.contrib.auth import login, logout
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError

from .models import AccessLink, Player, Tournament

_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
SESSION_KEY = "player_links"  # {str(tournament id): id of the player's AccessLink}
REFEREE_LINK_KEY = "referee_link"  # id of the AccessLink that logged this session in


def find_link(token: str) -> AccessLink:
    """The active private link of ``token``; refused when unknown or revoked."""
    # Tokens are URL-safe base64 (models.new_token): anything else (a NUL byte, which
    # PostgreSQL refuses in a query, or a 10 kB string) is unknown without asking the database.
    if not _TOKEN.fullmatch(token or ""):
        raise DomainError(_("This private link is unknown or has been revoked."), field="token")
    link = (
        AccessLink.objects.select_related("tournament", "user", "player")
        .filter(token=token)
        .first()
    )
    if link is None or not link.is_active:
        raise DomainError(_("This private link is unknown or has been revoked."), field="token")
    return link


def holds(request: Any, link: AccessLink) -> bool:
    """Whether this browser already is what opening ``link`` would make it (nothing to change,
    nothing to ask): signed in as the referee (with a password, or through this very link), or
    holding this player's link for its tournament."""
    if link.kind == AccessLink.Kind.REFEREE:
        if not (request.user.is_authenticated and request.user.pk == link.user_id):
            return False
        return request.session.get(REFEREE_LINK_KEY) in (None, link.pk)
    return bool(request.session.get(SESSION_KEY, {}).get(str(link.tournament_id)) == link.pk)


def replaced(request: Any, link: AccessLink) -> str:
    """Who this browser is now that opening ``link`` would replace (empty: nobody): the account
    signed in, for a referee's link; the player whose link it holds for that tournament, for a
    player's link. The landing page names them and its button sends the name back: the link is
    used only if that is still who would be replaced (``open_link``)."""
    if link.kind == AccessLink.Kind.REFEREE:
        return request.user.get_username() if request.user.is_authenticated else ""
    held = linked_player(request, link.tournament)
    return held.full_name if held is not None else ""


def use_access_link(request: Any, link: AccessLink) -> None:
    """Open ``link`` (``find_link``) in this browser: only on its landing page's button (a POST,
    CSRF-checked), never on a GET, so a hostile page cannot sign a visitor in as someone else."""
    if link.kind == AccessLink.Kind.REFEREE:
        login(request, link.user, backend="django.contrib.auth.backends.ModelBackend")
        request.session[REFEREE_LINK_KEY] = link.pk
    else:
        links = dict(request.session.get(SESSION_KEY, {}))
        links[str(link.tournament_id)] = link.pk
        request.session.cycle_key()  # a new session id: one planted before is worth nothing
        request.session[SESSION_KEY] = links
    AccessLink.objects.filter(pk=link.pk).update(last_used_at=timezone.now())


def opened_by_link(user: Any) -> bool:
    """A session a referee's private link signed in (``RevokedLinkMiddleware`` marks it)."""
    return getattr(user, "link_tournament_id", None) is not None


def linked_player(request: Any, tournament: Tournament) -> Player | None:
    """The player whose private link was opened in this browser for ``tournament``, if any,
    and only while *that* link is still active (a revoked link is forgotten here and now)."""
    links = request.session.get(SESSION_KEY, {})
    link_id = links.get(str(tournament.pk))
    if link_id is None:
        return None
    link = (
        AccessLink.objects.select_related("player")
        .filter(pk=link_id, tournament=tournament, kind=AccessLink.Kind.PLAYER,
                revoked_at__isnull=True)
        .first()
    )
    if link is None:
        request.session[SESSION_KEY] = {k: v for k, v in links.items() if k != str(tournament.pk)}
        return None
    return link.player


@receiver(user_logged_in, dispatch_uid="tournaments.access.forget_referee_link")
def _forget_referee_link(sender: Any, request: Any = None, **kwargs: Any) -> None:
    """A login (with a password, or another link) is no longer the old link's session."""
    if request is not None and hasattr(request, "session"):
        request.session.pop(REFEREE_LINK_KEY, None)


class RevokedLinkMiddleware:
    """Logs out, before anything else runs, a session that a referee's private link opened once
    that link is revoked (or deleted, or its user changed): the next request is anonymous.

    While the link is active, the session acts for its user in the link's tournament only, and
    as a referee at most (``permissions`` reads ``user.link_tournament_id``): a lost link is not the
    user's whole account (their other tournaments, an organizer role, staff rights, the admin)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        link_id = request.session.get(REFEREE_LINK_KEY) if hasattr(request, "session") else None
        if link_id is not None:
            user_id = request.session.get("_auth_user_id")
            tournament_id = AccessLink.objects.filter(
                pk=link_id, kind=AccessLink.Kind.REFEREE, revoked_at__isnull=True,
                user_id=user_id,
            ).values_list("tournament_id", flat=True).first()
            if tournament_id is None:
                logout(request)  # flushes the session: the player links it held go too
            else:
                request.user.link_tournament_id = tournament_id  # type: ignore[union-attr]
                from django.urls import reverse

                if request.path.startswith(reverse("admin:index")):
                    from django.core.exceptions import PermissionDenied

                    raise PermissionDenied(_("A private link does not open the admin."))
        return self.get_response(request)
