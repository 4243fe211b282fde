"""Clubs, found by name or created (audited)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError

from .. import audit
from ..clubs import is_federation_admin
from ..models import Club, Tournament


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
def name_organising_club(tournament: Tournament, name: str, *, actor: Any) -> Tournament:
    """The organising club named by an organizer of ``tournament`` (the Publish page, the publish
    command, the API), created on this machine if it is new: a laptop's event must name the
    club whose token publishes it. Until the event is first published any organizer may name or
    change it (``actor`` None: the command line, whoever runs the laptop); afterwards the copy on
    the shared instance belongs to that club, so only a federation admin may change it. Audited
    (``tournament.club``: before, after)."""
    from .guards import require_organizer

    if actor is not None:
        require_organizer(actor, tournament)
    wanted = club_name(name, field="club")
    if not wanted:
        raise DomainError(_("Name the organising club."), field="club", rule="REQUIRED")
    current = tournament.club
    if current is not None and current.name.lower() == wanted.lower():
        return tournament
    # publishing's row, read by its relation: this app sits below publishing and imports none of it
    published = Tournament.objects.filter(pk=tournament.pk, publish_state__last_published_at__isnull=False).exists()
    if published and not (actor is not None and is_federation_admin(actor)):
        raise PermissionDeniedError(
            _("This tournament was already published as an event of %(club)s: only a federation admin "
              "may change its club.") % {"club": current.name if current else "?"}, field="club", rule="ROLE")
    club = get_or_create_club(wanted, actor=actor)
    tournament.club = club
    tournament.save(update_fields=["club"])
    audit.record(actor=actor, action="tournament.club", obj=tournament, tournament=tournament,
                 before={"club": current.name if current else None}, after={"club": club.name if club else None})
    return tournament
