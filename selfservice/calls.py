"""Calling the referee from a table: a player's button (their personal link, or the table's QR
code) opens a call that the referees' and organizer's pages show until one of them takes it."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from tables.models import Game, Table
from tournaments import audit
from tournaments.models import Player
from tournaments.permissions import is_referee, require_referee

from . import signals
from .models import RefereeCall


def call_referee(table: Table, *, player: Player | None = None, user: Any = None) -> RefereeCall:
    """A call from ``table``; pressing again while it is open is the same call (returned). Anyone
    at the table may call, like a bell on it (the table's QR code needs no link), while its game
    is not finished; the call names the player when their personal link is open."""
    game = table.game
    if game.status == Game.Status.FINISHED:
        raise DomainError(_("Game %(n)s is over: find the referee at the desk.") % {"n": game.number},
                          field="table", rule="REFEREE-CALL")
    open_call = RefereeCall.objects.open().filter(table=table).first()
    if open_call is not None:
        return open_call
    signed = user if getattr(user, "is_authenticated", False) else None
    try:
        with transaction.atomic():
            call = RefereeCall.objects.create(tournament=game.tournament, table=table,
                                              called_by_player=player, called_by=signed)
            audit.record(actor=signed, label=player.full_name if player else "", action="referee.call",
                         obj=table, tournament=game.tournament,
                         after={"table": table.number, "game": game.number,
                                "player": player.pk if player else None})
    except IntegrityError:  # two phones of the same table at once: one call
        return RefereeCall.objects.open().get(table=table)
    transaction.on_commit(lambda: signals.referee_called.send(sender=RefereeCall, call=call))
    return call


def take_call(call: RefereeCall, *, actor: Any) -> RefereeCall:
    """A referee (or organizer) goes to the table: the call leaves every page. Taken already by
    someone else: refused, naming who (two referees do not both walk over)."""
    require_referee(actor, call.tournament)
    with transaction.atomic():
        call = RefereeCall.objects.select_for_update(of=("self",)).select_related("table__game", "taken_by").get(
            pk=call.pk)
        if call.taken_at is not None:
            if call.taken_by_id == getattr(actor, "pk", None):
                return call
            who = call.taken_by.get_full_name() or call.taken_by.get_username() if call.taken_by else "?"
            raise ConflictError(_("%(who)s has already taken this call.") % {"who": who},
                                field="call", rule="REFEREE-CALL")
        call.taken_at, call.taken_by = timezone.now(), actor
        call.save(update_fields=["taken_at", "taken_by"])
        audit.record(actor=actor, action="referee.take", obj=call.table, tournament=call.tournament,
                     after={"table": call.table.number, "game": call.table.game.number})
    transaction.on_commit(lambda: signals.referee_coming.send(sender=RefereeCall, call=call))
    return call


def may_take(user: Any, call: RefereeCall) -> bool:
    return is_referee(user, call.tournament)
