"""Clubs as the platform's organisers: club admins and the federation.

- a **club admin** (``ClubRole``, role ``admin``) organises every tournament whose organising club
  (``Tournament.club``) is their club: ``permissions.is_organizer`` says so, so they appoint that
  tournament's organizers and referees with the usual invitations and roles page, and see the
  personal data of its registrations, never those of another club's tournaments;
- a **federation admin** (a member of the ``federation`` group, or a superuser) sees every club,
  creates clubs and appoints or removes their admins (those tools: ``clubs.federation``). Being
  federation admin does not make anyone an organizer of a tournament.

Refusals: ``ROLE`` (not a federation admin; a club you do not administer), ``REQUIRED``,
``DUPLICATE``. Every change is audited (``club.create``, ``club.admin.add``,
``club.admin.remove``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError

from .models import Club, ClubRole

FEDERATION_GROUP = "federation"


def _person(user: Any) -> bool:
    """Signed in with an account, not through a referee's private link (limited to one
    tournament, it carries no club or federation power)."""
    return bool(getattr(user, "is_authenticated", False)
                and getattr(user, "link_tournament_id", None) is None)


def is_federation_admin(user: Any) -> bool:
    if not _person(user):
        return False
    if user.is_superuser:
        return True
    return bool(user.groups.filter(name=FEDERATION_GROUP).exists())


def is_club_admin(user: Any, club: Club | int) -> bool:
    """``club``: the club or its id (``Tournament.club_id``: no query for the club itself)."""
    if not _person(user):
        return False
    club_id = club.pk if isinstance(club, Club) else club
    return ClubRole.objects.filter(club_id=club_id, user=user, role=ClubRole.Role.ADMIN).exists()


def may_manage_seasons(user: Any, club: Club) -> bool:
    """A club's admins and the federation admins create and change its seasons and evenings."""
    return is_club_admin(user, club) or is_federation_admin(user)


def administered_clubs(user: Any) -> QuerySet[Club]:
    """The clubs ``user`` may name as a tournament's organising club: their own as club admin;
    every club for a federation admin or staff."""
    if not _person(user):
        return Club.objects.none()
    if user.is_staff or is_federation_admin(user):
        return Club.objects.all()
    return Club.objects.filter(roles__user=user, roles__role=ClubRole.Role.ADMIN).distinct()


def check_organising_club(user: Any, club: Club | None) -> None:
    """A tournament's organising club must be one ``user`` administers (staff and federation
    admins: any club)."""
    if club is None:
        return
    if not administered_clubs(user).filter(pk=club.pk).exists():
        raise DomainError(
            _("You may only choose a club you administer as the organising club."),
            field="club", rule="ROLE",
        )


def require_federation_admin(actor: Any) -> None:
    """``actor`` None is the server's operator at the console (``manage.py create_club``)."""
    if actor is not None and not is_federation_admin(actor):
        raise PermissionDeniedError(_("Only a federation admin may do this."), rule="ROLE")
