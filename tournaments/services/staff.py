"""Staff: roles (organizer, referee) and private links."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError

from .. import audit
from ..models import AccessLink, Player, Tournament, TournamentRole
from .guards import require_organizer


@transaction.atomic
def add_role(tournament: Tournament, username: str, role: str, *, actor: Any) -> TournamentRole:
    require_organizer(actor, tournament)
    if role not in TournamentRole.Role.values:
        raise DomainError(_("Unknown role."), field="role")
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise DomainError(_("No user with this username."), field="username")
    existing = TournamentRole.objects.filter(tournament=tournament, user=user).first()
    before = {"user": user.get_username(), "role": existing.role} if existing else None
    if existing:
        existing.role = role
        existing.save(update_fields=["role"])
        obj = existing
    else:
        obj = TournamentRole.objects.create(tournament=tournament, user=user, role=role)
    getattr(user, "_tournament_roles", {}).pop(tournament.pk, None)
    audit.record(actor=actor, action="role.set", obj=obj, tournament=tournament, before=before,
                 after={"user": user.get_username(), "role": role})
    return obj


@transaction.atomic
def remove_role(role: TournamentRole, *, actor: Any) -> None:
    tournament = role.tournament
    require_organizer(actor, tournament)
    if (
        role.role == TournamentRole.Role.ORGANIZER
        and not tournament.roles.filter(role=TournamentRole.Role.ORGANIZER)
        .exclude(pk=role.pk).exists()
    ):
        raise DomainError(_("A tournament keeps at least one organizer."), field="role",
                          rule="ROLE")
    audit.record(actor=actor, action="role.remove", obj=role, tournament=tournament,
                 before={"user": role.user.get_username(), "role": role.role})
    role.delete()


@transaction.atomic
def create_link(
    tournament: Tournament, *, actor: Any, user: Any = None, player: Player | None = None
) -> AccessLink:
    """A referee's password-less link (the user must be a referee/organizer of this
    tournament) or a player's personal link (the player must be registered)."""
    require_organizer(actor, tournament)
    if (user is None) == (player is None):
        raise DomainError(_("A link belongs to one referee or to one player."), field="user")
    if user is not None:
        if not TournamentRole.objects.filter(tournament=tournament, user=user).exists():
            raise DomainError(_("This user is not a referee of this tournament."), field="user",
                              rule="ROLE")
        link = AccessLink.objects.create(tournament=tournament, kind=AccessLink.Kind.REFEREE,
                                         user=user)
        after = {"kind": "referee", "user": user.get_username()}
    else:
        if not tournament.registrations.current().filter(player=player).exists():
            raise DomainError(_("This player is not registered for this tournament."),
                              field="player", rule="STATUS")
        link = AccessLink.objects.create(tournament=tournament, kind=AccessLink.Kind.PLAYER,
                                         player=player)
        after = {"kind": "player", "player": player.pk}  # type: ignore[union-attr]
    audit.record(actor=actor, action="link.create", obj=link, tournament=tournament, after=after)
    return link


@transaction.atomic
def revoke_link(link: AccessLink, *, actor: Any) -> AccessLink:
    require_organizer(actor, link.tournament)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        audit.record(actor=actor, action="link.revoke", obj=link, tournament=link.tournament,
                     before={"active": True}, after={"active": False})
    return link
