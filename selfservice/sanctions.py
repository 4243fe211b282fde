"""The organizer's log of warnings and penalties, per player: who, when, why, in which game.
A record, audited; it changes no score (a penalty in points is a corrected result)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import DomainError
from tournaments import audit
from tournaments.models import Player, Tournament
from tournaments.permissions import require_organizer

from .models import Sanction

REASON_MAX = Sanction._meta.get_field("reason").max_length


def _player_of(tournament: Tournament, player: Any) -> Player:
    text = str(player or "").strip()
    found = Player.objects.filter(
        Q(registrations__tournament=tournament) | Q(seats__game__tournament=tournament),
        pk=int(text)).distinct().first() if text.isdigit() and len(text) <= 12 else None
    if found is None:
        raise DomainError(_("Choose a player of this tournament."), field="player", rule="PLAYER")
    return found


def _game_of(tournament: Tournament, game_number: Any) -> int | None:
    text = str(game_number if game_number is not None else "").strip()
    if not text:
        return None
    number = int(text) if text.isdigit() and len(text) <= 3 else 0
    if not 1 <= number <= tournament.games_count:
        raise DomainError(_("This tournament has no game %(n)s.") % {"n": game_number}, field="game_number",
                          rule="GAME")
    return number


@transaction.atomic
def record_sanction(tournament: Tournament, *, actor: Any, player: Any, kind: str, reason: str,
                    game_number: Any = None) -> Sanction:
    require_organizer(actor, tournament)
    who = _player_of(tournament, player)
    if kind not in Sanction.Kind.values:
        raise DomainError(_("A warning or a penalty."), field="kind", rule="FORMAT")
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise DomainError(_("Say why."), field="reason", rule="FORMAT")
    if len(reason) > REASON_MAX:
        raise DomainError(_("The reason is too long (%(n)s characters at most).") % {"n": REASON_MAX},
                          field="reason", rule="FORMAT")
    sanction = Sanction.objects.create(tournament=tournament, player=who, kind=kind, reason=reason,
                                       game_number=_game_of(tournament, game_number), recorded_by=actor)
    audit.record(actor=actor, action="sanction.create", obj=sanction, tournament=tournament,
                 after={"player": who.pk, "kind": kind, "reason": reason, "game": sanction.game_number})
    return sanction


@transaction.atomic
def delete_sanction(sanction: Sanction, *, actor: Any) -> None:
    """Removed (recorded by mistake): the audit log keeps what it said."""
    require_organizer(actor, sanction.tournament)
    audit.record(actor=actor, action="sanction.delete", obj=sanction, tournament=sanction.tournament,
                 before={"player": sanction.player_id, "kind": sanction.kind, "reason": sanction.reason,
                         "game": sanction.game_number})
    sanction.delete()
