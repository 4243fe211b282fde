"""Check-in for each game: one player, a whole game, the previous game's carried over."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import DomainError

from .. import audit, hooks
from ..models import CheckIn, Registration, Tournament
from .guards import require_referee


def _check_game(tournament: Tournament, game_number: Any) -> int:
    try:
        number = int(game_number)
    except (TypeError, ValueError):
        number = 0
    if not 1 <= number <= tournament.event_format().games_count:
        raise DomainError(
            _("This tournament has no game %(n)s.") % {"n": game_number}, field="game_number",
            rule="GAME",
        )
    return number


@transaction.atomic
def set_checked_in(
    registration: Registration, game_number: Any, present: bool, *, actor: Any
) -> CheckIn | None:
    tournament = registration.tournament
    require_referee(actor, tournament)
    number = _check_game(tournament, game_number)
    if present and not registration.is_active:
        raise DomainError(
            _("Only registered players can be checked in (not waitlisted or withdrawn)."),
            field="registration", rule="STATUS",
        )
    existing = CheckIn.objects.filter(registration=registration, game_number=number).first()
    if present and existing is None:
        checkin, created = CheckIn.objects.get_or_create(  # a double tap: one check-in
            registration=registration, game_number=number,
            defaults={"checked_in_by": actor if getattr(actor, "is_authenticated", False)
                      else None},
        )
        if not created:
            return checkin
        audit.record(actor=actor, action="checkin.create", obj=checkin, tournament=tournament,
                     after={"player": registration.player_id, "game": number})
        return checkin
    if not present and existing is not None:
        audit.record(actor=actor, action="checkin.delete", obj=existing, tournament=tournament,
                     before={"player": registration.player_id, "game": number})
        existing.delete()
        return None
    return existing


def toggle_checkin(registration: Registration, game_number: Any, *, actor: Any) -> bool:
    """One tap: checks the player in for the game, or out again. Returns whether present now."""
    number = _check_game(registration.tournament, game_number)
    present = not CheckIn.objects.filter(registration=registration, game_number=number).exists()
    set_checked_in(registration, number, present, actor=actor)
    return present


def carry_over_checkins(tournament: Tournament, game_number: Any, *, actor: Any) -> int:
    """Who was present for the previous game is present for ``game_number`` too (players
    still registered; those already checked in are left as they are). Returns how many were
    added; each is audited like a tap."""
    number = _check_game(tournament, game_number)
    require_referee(actor, tournament)
    if number == 1:
        raise DomainError(_("Game 1 has no previous game to carry presences from."),
                          field="game_number", rule="GAME")
    skipping = {pk for said in hooks.skipping for pk in said(tournament, number)}
    previous = Registration.objects.active().with_state().filter(
        tournament=tournament, checkins__game_number=number - 1,
    ).exclude(checkins__game_number=number).exclude(pk__in=skipping).select_related("tournament")
    return bulk_checkin(previous, number, actor=actor)


def bulk_checkin(
    registrations: Iterable[Registration], game_number: int, *, actor: Any
) -> int:
    """Check several registered players in for a game (the check-in page's selection and
    "everyone present", the carry-over, the demo); returns how many were not present yet."""
    count = 0
    for registration in registrations:
        before = CheckIn.objects.filter(registration=registration,
                                        game_number=game_number).exists()
        if set_checked_in(registration, game_number, True, actor=actor) is not None and not before:
            count += 1
    return count
