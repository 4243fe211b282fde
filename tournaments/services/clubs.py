"""Clubs, found by name or created (audited)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import DomainError, PermissionDeniedError

from .. import audit
from ..models import Club


def get_or_create_club(
    name: str, *, actor: Any = None, city: str = "", region: str = ""
) -> Club | None:
    name = " ".join((name or "").split())
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
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDeniedError(_("Log in to add a club."), rule="ROLE")
    name = " ".join((name or "").split())
    if not name:
        raise DomainError(_("A club needs a name."), field="name", rule="REQUIRED")
    if Club.objects.filter(name__iexact=name).exists():
        raise DomainError(_("This club already exists."), field="name", rule="DUPLICATE")
    club = Club.objects.create(name=name, city=city, region=region)
    audit.record(actor=actor, action="club.create", obj=club, tournament=None,
                 after={"name": name, "city": city, "region": region})
    return club
