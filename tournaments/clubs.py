"""Clubs as the platform's organisers: club admins and the federation.

- a **club admin** (``ClubRole``, role ``admin``) organises every tournament whose organising club
  (``Tournament.club``) is their club: ``permissions.is_organizer`` says so, so they appoint that
  tournament's organizers and referees with the usual invitations and roles page, and see the
  personal data of its registrations, never those of another club's tournaments;
- a **federation admin** (a member of the ``federation`` group, or a superuser) sees every club,
  creates clubs and appoints or removes their admins. Being federation admin does not make
  anyone an organizer of a tournament.

Refusals: ``ROLE`` (not a federation admin; a club you do not administer), ``REQUIRED``,
``DUPLICATE``. Every change is audited (``club.create``, ``club.admin.add``,
``club.admin.remove``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from config.errors import DomainError, PermissionDeniedError

from . import audit
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


def _clean(value: str) -> str:
    return " ".join((value or "").split())


@dataclass
class ClubSetup:
    club: Club
    club_created: bool
    user: Any
    user_created: bool


@transaction.atomic
def set_up_club(*, actor: Any, name: str, admin_username: str, city: str = "",
                region: str = "") -> ClubSetup:
    """The club named ``name`` (created when missing) with ``admin_username`` as its admin (the
    account created, without a usable password, when missing)."""
    require_federation_admin(actor)
    name, username = _clean(name), (admin_username or "").strip()
    if not name:
        raise DomainError(_("A club needs a name."), field="name", rule="REQUIRED")
    if len(name) > Club._meta.get_field("name").max_length:  # type: ignore[operator]
        raise DomainError(_("The club's name is too long."), field="name", rule="FORMAT")
    if not username:
        raise DomainError(_("Name the club's admin (a username)."), field="admin", rule="REQUIRED")
    users = get_user_model()
    try:
        users.username_validator(username)
        if len(username) > users._meta.get_field("username").max_length:  # type: ignore[operator]
            raise ValueError
    except Exception:  # noqa: BLE001 - Django's validator raises ValidationError
        raise DomainError(_("Not a valid username: letters, digits and @ . + - _ only."),
                          field="admin", rule="FORMAT") from None
    club = Club.objects.filter(name__iexact=name).first()
    club_created = club is None
    if club is None:
        club = Club.objects.create(name=name, city=_clean(city)[:120], region=_clean(region)[:60])
        audit.record(actor=actor, action="club.create", obj=club, tournament=None,
                     after={"name": club.name, "city": club.city, "region": club.region})
    user = users.objects.filter(username=username).first()
    user_created = user is None
    if user is None:
        user = users.objects.create_user(username=username)  # no usable password yet
    appoint_admin(club, user, actor=actor)
    return ClubSetup(club, club_created, user, user_created)


@transaction.atomic
def appoint_admin(club: Club, user: Any, *, actor: Any) -> ClubRole:
    require_federation_admin(actor)
    role, created = ClubRole.objects.get_or_create(club=club, user=user,
                                                   defaults={"role": ClubRole.Role.ADMIN})
    if created:
        audit.record(actor=actor, action="club.admin.add", obj=role, tournament=None,
                     after={"club": club.pk, "user": user.get_username()})
    getattr(user, "_tournament_roles", {}).clear()
    return role


@transaction.atomic
def remove_admin(role: ClubRole, *, actor: Any) -> None:
    require_federation_admin(actor)
    before = {"club": role.club_id, "user": role.user.get_username()}
    audit.record(actor=actor, action="club.admin.remove", obj=role, tournament=None,
                 before=before)
    role.delete()
