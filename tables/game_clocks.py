"""The organizer moves every clock of a game at once (E-TIME): extend or shorten them all by
some minutes, or align them on one end time (tables that started a few minutes apart finish
together). Each table changes like a referee's extension: locked, versioned, a ``ClockEvent``
EXTEND with the signed seconds, an audit entry with the deadline before and after. Tables whose
clock has not started, is paused or has expired are left alone and counted."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError
from tournaments import audit
from tournaments.services import require_organizer

from . import clocks
from .models import ClockEvent, Game, Table

MAX_MINUTES = clocks.MAX_EXTENSION_MINUTES
MIN_LEFT = dt.timedelta(minutes=1)  # a shortened clock keeps at least this much time


@dataclass(frozen=True)
class Moved:
    changed: int
    skipped: int


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(_("Say why the clocks change."), field="reason", rule="E-TIME")
    return reason[:200]


def _move(game: Game, *, actor: Any, reason: str, now: dt.datetime,
          target: Any) -> Moved:
    """``target(table) -> new deadline``; tables whose clock runs get it."""
    changed = skipped = 0
    with transaction.atomic():
        for table in Table.objects.filter(game=game).order_by("number"):
            locked = clocks._locked(table)
            if (locked.deadline is None or locked.paused_at is not None
                    or clocks.is_expired(locked, now)):
                skipped += 1
                continue
            new = target(locked)
            if new - now < MIN_LEFT:
                raise DomainError(
                    _("Table %(t)s would have less than a minute left: shorten less.")
                    % {"t": locked.number}, field="minutes", rule="E-TIME")
            if new == locked.deadline:
                continue
            before = locked.deadline
            locked.deadline = new
            locked.version += 1
            locked.save(update_fields=["deadline", "version"])
            seconds = int((new - before).total_seconds())
            ClockEvent.objects.create(table=locked, kind=ClockEvent.Kind.EXTEND, at=now,
                                      by=clocks._user(actor), reason=reason, seconds=seconds)
            audit.record(actor=actor, action="table.clock_adjust", obj=locked,
                         tournament=game.tournament, before={"deadline": before.isoformat()},
                         after={"deadline": new.isoformat(), "seconds": seconds,
                                "reason": reason})
            clocks._schedule_expiry(locked)
            transaction.on_commit(lambda t=locked: clocks.bump(t))
            changed += 1
    return Moved(changed, skipped)


def shift_game_clocks(game: Game, *, actor: Any, minutes: Any, reason: str,
                      now: dt.datetime | None = None) -> Moved:
    """Every running clock of ``game`` ``minutes`` later (positive) or earlier (negative)."""
    require_organizer(actor, game.tournament)
    try:
        amount = int(minutes)
    except (TypeError, ValueError):
        raise DomainError(_("Enter a whole number of minutes."), field="minutes",
                          rule="E-TIME") from None
    if amount == 0 or abs(amount) > MAX_MINUTES:
        raise DomainError(_("Between 1 and %(max)s minutes.") % {"max": MAX_MINUTES},
                          field="minutes", rule="E-TIME")
    reason = _reason(reason)
    delta = dt.timedelta(minutes=amount)
    return _move(game, actor=actor, reason=reason, now=now or timezone.now(),
                 target=lambda t: t.deadline + delta)


def align_game_clocks(game: Game, *, actor: Any, reason: str,
                      now: dt.datetime | None = None) -> Moved:
    """Every running clock of ``game`` ends with the latest one (nobody loses time)."""
    require_organizer(actor, game.tournament)
    reason = _reason(reason)
    now = now or timezone.now()
    running = [t.deadline for t in Table.objects.filter(
        game=game, deadline__isnull=False, paused_at__isnull=True, expired_marked_at__isnull=True)
        if t.deadline and t.deadline > now]
    if not running:
        return Moved(0, Table.objects.filter(game=game).count())
    latest = max(running)
    return _move(game, actor=actor, reason=reason, now=now, target=lambda t: latest)
