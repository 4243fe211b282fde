"""Clubs, found by name or created (audited)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import DomainError, PermissionDeniedError

from .. import audit
from ..clubs import require_federation_admin
from ..models import Club


def club_name(name: str, *, field: str = "name") -> str:
    """A club's name as stored: spaces collapsed, within the column's length (a longer one is
    refused here rather than by the database, which on PostgreSQL would be a server error)."""
    name = " ".join((name or "").split())
    limit = Club._meta.get_field("name").max_length
    if len(name) > limit:
        raise DomainError(_("A club's name has at most %(n)d characters.") % {"n": limit}, field=field)
    return name


def get_or_create_club(
    name: str, *, actor: Any = None, city: str = "", region: str = ""
) -> Club | None:
    name = club_name(name, field="club")
    region = region[: Club._meta.get_field("region").max_length]
    if not name:
        return None
    club = Club.objects.filter(name__iexact=name).first()
    if club is None:
        club = Club.objects.create(name=name, city=city, region=region)
        audit.record(actor=actor, action="club.create", obj=club, tournament=None,
                     after={"name": club.name})
    return club


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
