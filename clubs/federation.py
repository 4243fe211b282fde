"""The federation's tools over clubs: setting up a club and its admin, appointing or removing
club admins and federation admins (who may do what: ``tournaments.clubs``).

Refusals: ``ROLE`` (not a federation admin), ``REQUIRED``, ``FORMAT``, ``DUPLICATE``. Every change
is audited (``club.create``, ``club.admin.add``, ``club.admin.remove``, ``federation.admin.add``,
``federation.admin.remove``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError
from tournaments import audit
from tournaments.clubs import FEDERATION_GROUP, require_federation_admin
from tournaments.models import Club, ClubRole
from tournaments.services import club_name


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


@transaction.atomic
def create_club(*, actor: Any, name: str, city: str = "", region: str = "") -> Club:
    """A new club (``POST /api/clubs/``): a federation admin's, as on the page (docs/clubs.md)."""
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDeniedError(_("Log in to add a club."), rule="ROLE")
    require_federation_admin(actor)
    name = club_name(name)
    if not name:
        raise DomainError(_("A club needs a name."), field="name", rule="REQUIRED")
    if Club.objects.filter(name__iexact=name).exists():
        raise DomainError(_("This club already exists."), field="name", rule="DUPLICATE")
    club = Club.objects.create(name=name, city=city, region=region)
    audit.record(actor=actor, action="club.create", obj=club, tournament=None,
                 after={"name": name, "city": city, "region": region})
    return club
