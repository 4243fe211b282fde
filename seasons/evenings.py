"""The tournaments' side of a club season (``Season``): who manages it, its evenings in order,
the date of the next one, and carrying the last evening's players over to the next.

What needs scoring (the tie-break keys, the format presets, the standings) is in
``seasons.services`` and ``seasons.selectors``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from common.errors import PermissionDeniedError
from tournaments import audit, clubs
from tournaments.models import Club, Registration, Season, Tournament
from tournaments.names import by_name
from tournaments.services import registration_snapshot


def may_manage(user: Any, club: Club) -> bool:
    """A club's admins and the federation admins create and change its seasons and evenings."""
    return clubs.may_manage_seasons(user, club)


def require_manager(actor: Any, club: Club) -> None:
    if not may_manage(actor, club):
        raise PermissionDeniedError(
            _("Only an admin of %(club)s or a federation admin may do this.") % {"club": club.name}, rule="ROLE")


def may_change_evenings(user: Any, season: Season, tournament: Tournament) -> bool:
    """Who attaches a tournament to a season or detaches it: the season's managers, and an
    organizer of that tournament when it is the same club's."""
    from tournaments.permissions import is_organizer

    if may_manage(user, season.club):
        return True
    return tournament.club_id == season.club_id and is_organizer(user, tournament)


def require_evening_changer(actor: Any, season: Season, tournament: Tournament) -> None:
    if not may_change_evenings(actor, season, tournament):
        raise PermissionDeniedError(
            _("Only an admin of %(club)s, an organizer of this tournament or a federation admin may do this.")
            % {"club": season.club.name}, rule="ROLE")


def evenings(season: Season) -> QuerySet[Tournament]:
    """Every evening of the season, first first (drafts included)."""
    return season.evenings.order_by("date", "pk")


def last_evening(season: Season) -> Tournament | None:
    return season.evenings.order_by("-date", "-pk").first()


def next_date(season: Season, today: dt.date) -> dt.date:
    """Today for the first evening; then the next weekly date after the last evening that is
    not in the past (a club playing on Thursdays keeps its Thursdays, skipped weeks included)."""
    last = last_evening(season)
    if last is None:
        return today
    date = last.date + dt.timedelta(days=7)
    while date < today:
        date += dt.timedelta(days=7)
    return date


def registered_players(tournament: Tournament | None) -> list[Registration]:
    if tournament is None:
        return []
    return by_name(tournament.registrations.active().select_related("player"), lambda r: r.player)


def carry_over_registrations(source: Tournament, target: Tournament, *, actor: Any) -> list[Registration]:
    """Register in ``target`` every player registered in ``source`` (same club's evenings, so the
    personal data entered for the last evening comes along); check-ins are not carried over.
    Audited per registration (``registration.carry_over``)."""
    from tournaments.permissions import is_organizer

    if not is_organizer(actor, target):
        raise PermissionDeniedError(_("Only an organizer of this tournament may do this."), rule="ROLE")
    made = []
    taken = set(target.registrations.values_list("player_id", flat=True))
    for old in registered_players(source):
        if old.player_id in taken:
            continue
        reg = Registration.objects.create(
            tournament=target, player=old.player, status=Registration.Status.REGISTERED,
            email=old.email, birth_date=old.birth_date, national_id=old.national_id)
        audit.record(actor=actor, action="registration.carry_over", obj=reg, tournament=target,
                     after={**registration_snapshot(reg), "from": source.slug})
        made.append(reg)
    return made
