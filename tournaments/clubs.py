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


def _clean(value: str) -> str:
    return " ".join((value or "").split())


def _username(value: str, missing: str) -> str:
    """A valid username typed in the field ``admin`` (``missing``: the message when empty)."""
    users = get_user_model()
    # as account creation stores it (NFKC): a look-alike of an existing name is that name
    username = users.normalize_username((value or "").strip())
    if not username:
        raise DomainError(missing, field="admin", rule="REQUIRED")
    try:
        users.username_validator(username)
        if len(username) > users._meta.get_field("username").max_length:  # type: ignore[operator]
            raise ValueError
    except Exception:  # noqa: BLE001 - Django's validator raises ValidationError
        raise DomainError(_("Not a valid username: letters, digits and @ . + - _ only."),
                          field="admin", rule="FORMAT") from None
    return username


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
    name = _clean(name)
    if not name:
        raise DomainError(_("A club needs a name."), field="name", rule="REQUIRED")
    if len(name) > Club._meta.get_field("name").max_length:  # type: ignore[operator]
        raise DomainError(_("The club's name is too long."), field="name", rule="FORMAT")
    username = _username(admin_username, _("Name the club's admin (a username)."))
    users = get_user_model()
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


# --- federation admins --------------------------------------------------------------------------
@dataclass
class FederationAppointment:
    user: Any
    user_created: bool
    set_password_path: str  # a one-time link to choose a password ("" when the account has one)


def federation_admins() -> QuerySet[Any]:
    """The members of the ``federation`` group (superusers are federation admins without it)."""
    return get_user_model().objects.filter(groups__name=FEDERATION_GROUP).order_by("username")


def set_password_path(user: Any) -> str:
    """Django's own password-reset link for ``user`` (works once, expires after
    ``PASSWORD_RESET_TIMEOUT``): how an account made from a page gets its password."""
    from django.contrib.auth.tokens import default_token_generator
    from django.urls import reverse
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    return reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)})


@transaction.atomic
def appoint_federation_admin(*, actor: Any, username: str) -> FederationAppointment:
    """``username`` joins the ``federation`` group (the account created, without a password, when
    missing: the returned link sets it)."""
    from django.contrib.auth.models import Group

    require_federation_admin(actor)
    username = _username(username, _("Name the user (a username)."))
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    created = user is None
    if user is None:
        user = users.objects.create_user(username=username)  # no usable password yet
    if not user.groups.filter(name=FEDERATION_GROUP).exists():
        user.groups.add(Group.objects.get_or_create(name=FEDERATION_GROUP)[0])
        audit.record(actor=actor, action="federation.admin.add", obj=user, tournament=None,
                     after={"user": user.get_username(), "new_account": created})
    return FederationAppointment(user, created, "" if user.has_usable_password() else set_password_path(user))


@transaction.atomic
def revoke_federation_admin(*, actor: Any, user: Any) -> None:
    """``user`` leaves the ``federation`` group; nobody revokes themselves (a federation would be
    left without anyone to appoint the next admin)."""
    require_federation_admin(actor)
    if actor is not None and user.pk == actor.pk:
        raise DomainError(_("You cannot revoke yourself: ask another federation admin."),
                          field="user", rule="ROLE")
    if user.groups.filter(name=FEDERATION_GROUP).exists():
        user.groups.remove(*user.groups.filter(name=FEDERATION_GROUP))
        audit.record(actor=actor, action="federation.admin.remove", obj=user, tournament=None,
                     before={"user": user.get_username()})
