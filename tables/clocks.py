"""Table clocks (E-TIME): start, pause, resume and expiry.

The deadline is stored in the database and whether time has expired is DERIVED from it
(:func:`is_expired`), so clocks are right on the embedded default with no worker. In production
``tables.tasks.expire_table`` fires at the deadline and :func:`mark_expired` records it once
(status, ``expired_marked_at``, a ``ClockEvent`` EXPIRE, the sdadata closure starts); the beat
task ``tables.tasks.sweep_deadlines`` catches any deadline a stopped worker missed. With eager
Celery nothing is scheduled: the first read or write after the deadline marks the table
(:func:`ensure_marked`).

A closed game's clocks stop: once the game is finished or the tournament has concluded
(``Table.clock_stopped``) nothing is marked expired any more and pages show the clock stopped.

Pausing (an incident at the table) and resuming are recorded with who and why; resuming shifts
the deadline by the length of the pause. A referee may also extend a clock that has not expired
(:func:`extend_clock`: who, why and how many minutes are recorded).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from tournaments import audit
from tournaments.models import Tournament

from .closure_state import start_closure
from .models import ClockEvent, Game, Table

# ------------------------------------------------------------------------------ derived state


def _now(now: dt.datetime | None) -> dt.datetime:
    return now or timezone.now()


def remaining(table: Table, now: dt.datetime | None = None) -> dt.timedelta | None:
    """Time left on the clock (frozen while paused, never negative); None before the start."""
    if table.deadline is None:
        return None
    reference = table.paused_at or _now(now)
    return max(table.deadline - reference, dt.timedelta(0))


def is_expired(table: Table, now: dt.datetime | None = None) -> bool:
    """Derived from the deadline: true once it has passed (and the clock is not paused)."""
    return table.time_expired(_now(now))


def clock_state(table: Table, now: dt.datetime | None = None) -> dict[str, Any]:
    """What pages and the API show about a clock (public)."""
    now = _now(now)
    left = remaining(table, now)
    if table.deadline is None:
        state = "not_started"
    elif table.expired_marked_at is None and table.clock_stopped:
        state = "stopped"  # the game was closed before its time ran out
    elif is_expired(table, now):
        state = "expired"
    elif table.paused_at is not None:
        state = "paused"
    else:
        state = "running"
    return {
        "table": table.pk,
        "state": state,
        "started_at": table.clock_started_at,
        "deadline": table.deadline,
        "paused_at": table.paused_at,
        "expired_marked_at": table.expired_marked_at,
        "server_now": now,
        "remaining_seconds": None if left is None else int(left.total_seconds()),
        "version": table.version,
    }


# ------------------------------------------------------------------------------ notifications


def version_key(*, table_id: int | None = None, game_id: int | None = None) -> str:
    if table_id is not None:
        return f"tables:table:{table_id}:v"
    return f"tables:game:{game_id}:v"


def bump(table: Table) -> None:
    """Tell polling pages (htmx) that the table and its game changed."""
    for key in (version_key(table_id=table.pk), version_key(game_id=table.game_id)):
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, None)


def _schedule_expiry(table: Table) -> None:
    """Production: the worker fires at the deadline. Eager (embedded default): never run the
    task now — expiry is derived, and marked by the first read or write after the deadline."""
    from celery import current_app as app

    if app.conf.task_always_eager:
        return
    deadline = table.deadline
    table_id = table.pk

    def send() -> None:
        try:  # by the task's name: tables.tasks calls this module, so this module never imports it
            app.send_task("tables.tasks.expire_table", args=[table_id], eta=deadline)
        except Exception:  # noqa: BLE001 — a broker outage must not lose the start; the sweep catches it
            import logging

            logging.getLogger(__name__).warning("could not schedule the expiry of table %s", table_id)

    transaction.on_commit(send)


def _locked(table: Table) -> Table:
    return Table.objects.select_for_update().select_related("game__tournament").get(pk=table.pk)


def _check_version(locked: Table, expected_version: int | None) -> None:
    if expected_version is not None and int(expected_version) != locked.version:
        raise ConflictError(
            _("Someone else changed this table meanwhile; reload the page and try again."),
            field="version",
        )


def _lock_running(table: Table, expected_version: int | None, now: dt.datetime,
                  expired_message: str) -> Table:
    """The table's row, locked, at the version the caller saw, with a clock that has started
    and not yet expired (E-TIME): what pausing and extending both require."""
    locked = _locked(table)
    _check_version(locked, expected_version)
    if locked.deadline is None:
        raise DomainError(_("The clock of this table has not started."), field="clock", rule="E-TIME")
    if is_expired(locked, now):
        raise DomainError(expired_message, field="clock", rule="E-TIME")
    return locked


# ------------------------------------------------------------------------------ writes


def start_clock(table: Table, *, actor: Any, now: dt.datetime | None = None) -> None:
    """E-TIME: the clock starts at the territory distribution. Sets the deadline from the rule
    set's time limit and schedules the expiry task (only when a worker exists)."""
    now = _now(now)
    tournament = table.game.tournament
    fmt = tournament.event_format()
    if not fmt.has_clock():
        return  # E-TIME does not apply (CLASSIC)
    limit = fmt.time_limit()
    with transaction.atomic():
        locked = _locked(table)
        if locked.clock_started_at is not None:
            raise ConflictError(_("The clock of this table has already started."), field="clock",
                                rule="E-TIME")
        locked.clock_started_at = now
        locked.deadline = now + limit
        locked.paused_at = None
        locked.expired_marked_at = None
        if locked.status == Table.Status.WAITING:
            locked.status = Table.Status.RUNNING
        locked.version += 1
        locked.save(update_fields=["clock_started_at", "deadline", "paused_at", "expired_marked_at",
                                   "status", "version"])
        ClockEvent.objects.create(table=locked, kind=ClockEvent.Kind.START, at=now, by=_user(actor),
                                  seconds=int(limit.total_seconds()))
        audit.record(actor=actor, action="table.clock_start", obj=locked, tournament=tournament,
                     after={"deadline": locked.deadline.isoformat()})
        table.take_saved_state(locked)
        _schedule_expiry(locked)
        transaction.on_commit(lambda: bump(locked))


def pause_clock(table: Table, *, actor: Any, reason: str, now: dt.datetime | None = None,
                expected_version: int | None = None) -> None:
    """An incident at the table: the clock stops; who and why are recorded."""
    now = _now(now)
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(_("Say why the clock is paused."), field="reason", rule="E-TIME")
    with transaction.atomic():
        locked = _lock_running(table, expected_version, now,
                               _("The time of this table has already expired."))
        if locked.paused_at is not None:
            raise ConflictError(_("The clock is already paused."), field="clock", rule="E-TIME")
        locked.paused_at = now
        locked.version += 1
        locked.save(update_fields=["paused_at", "version"])
        ClockEvent.objects.create(table=locked, kind=ClockEvent.Kind.PAUSE, at=now, by=_user(actor),
                                  reason=reason[:200])
        audit.record(actor=actor, action="table.clock_pause", obj=locked,
                     tournament=locked.game.tournament, after={"reason": reason})
        table.take_saved_state(locked)
        transaction.on_commit(lambda: bump(locked))


def resume_clock(table: Table, *, actor: Any, reason: str = "", now: dt.datetime | None = None,
                 expected_version: int | None = None) -> None:
    """Restart a paused clock; the deadline moves on by the length of the pause."""
    now = _now(now)
    with transaction.atomic():
        locked = _locked(table)
        _check_version(locked, expected_version)
        if locked.paused_at is None or locked.deadline is None:
            raise ConflictError(_("The clock is not paused."), field="clock", rule="E-TIME")
        paused = max(now - locked.paused_at, dt.timedelta(0))
        before = locked.deadline
        locked.deadline = locked.deadline + paused
        locked.paused_at = None
        locked.version += 1
        locked.save(update_fields=["deadline", "paused_at", "version"])
        ClockEvent.objects.create(table=locked, kind=ClockEvent.Kind.RESUME, at=now, by=_user(actor),
                                  reason=(reason or "").strip()[:200],
                                  seconds=int(paused.total_seconds()))
        audit.record(actor=actor, action="table.clock_resume", obj=locked,
                     tournament=locked.game.tournament,
                     before={"deadline": before.isoformat()},
                     after={"deadline": locked.deadline.isoformat(), "paused_seconds": int(paused.total_seconds())})
        table.take_saved_state(locked)
        _schedule_expiry(locked)
        transaction.on_commit(lambda: bump(locked))


MAX_EXTENSION_MINUTES = 120  # one extension; a longer one is surely a typo (E-TIME)


def extend_clock(table: Table, *, actor: Any, minutes: Any, reason: str,
                 now: dt.datetime | None = None, expected_version: int | None = None) -> None:
    """The referee grants more time (a long incident, a late table): the deadline moves later by
    ``minutes``; who, why and how much are recorded. Refused before the start, once the time has
    expired (the sdadata closure has begun, E-SUPP), with no reason, or with 0 or negative
    minutes. Works while paused too: the frozen time left grows."""
    now = _now(now)
    reason = (reason or "").strip()
    try:
        amount = int(minutes)
    except (TypeError, ValueError):
        raise DomainError(_("Enter a whole number of minutes."), field="minutes", rule="E-TIME") from None
    if amount <= 0:
        raise DomainError(_("An extension is at least one minute."), field="minutes", rule="E-TIME")
    if amount > MAX_EXTENSION_MINUTES:
        raise DomainError(_("An extension is at most %(max)s minutes.") % {"max": MAX_EXTENSION_MINUTES},
                          field="minutes", rule="E-TIME")
    if not reason:
        raise DomainError(_("Say why the clock is extended."), field="reason", rule="E-TIME")
    with transaction.atomic():
        locked = _lock_running(table, expected_version, now,
                               _("The time of this table has already expired: it can no longer be "
                                 "extended."))
        before = locked.deadline
        locked.deadline = locked.deadline + dt.timedelta(minutes=amount)
        locked.version += 1
        locked.save(update_fields=["deadline", "version"])
        ClockEvent.objects.create(table=locked, kind=ClockEvent.Kind.EXTEND, at=now, by=_user(actor),
                                  reason=reason[:200], seconds=amount * 60)
        audit.record(actor=actor, action="table.clock_extend", obj=locked,
                     tournament=locked.game.tournament,
                     before={"deadline": before.isoformat()},
                     after={"deadline": locked.deadline.isoformat(), "minutes": amount,
                            "reason": reason})
        table.take_saved_state(locked)
        if locked.paused_at is None:
            _schedule_expiry(locked)  # a task for the old deadline finds it not due and does nothing
        transaction.on_commit(lambda: bump(locked))


def mark_expired(table_id: int, *, now: dt.datetime | None = None) -> bool:
    """Record that the time of the table has expired, exactly once. Returns whether this call
    marked it (False: not yet due, paused, finished, or already marked). Used by the task, the
    sweep and :func:`ensure_marked`."""
    now = _now(now)
    with transaction.atomic():
        locked = Table.objects.select_for_update().select_related("game__tournament").filter(
            pk=table_id).first()
        if locked is None or locked.expired_marked_at is not None:
            return False
        if locked.status == Table.Status.FINISHED or not is_expired(locked, now):
            return False
        if locked.clock_stopped:
            return False  # the game was closed first: its time never "expires" afterwards
        locked.expired_marked_at = now
        locked.status = Table.Status.TIME_EXPIRED
        ClockEvent.objects.create(table=locked, kind=ClockEvent.Kind.EXPIRE, at=now)
        start_closure(locked, now=now)  # the time_expired step of the closure (E-SUPP)
        # ``version`` is NOT bumped: a referee's form made before the deadline stays valid (the
        # expiry is no one's competing step); polling pages learn of it through the cache bump.
        locked.save(update_fields=["expired_marked_at", "status", "closure_state"])
        audit.record(actor=None, action="table.time_expired", obj=locked,
                     tournament=locked.game.tournament,
                     after={"deadline": locked.deadline.isoformat() if locked.deadline else None})
        transaction.on_commit(lambda: bump(locked))
    return True


def ensure_marked(table: Table, now: dt.datetime | None = None) -> None:
    """If the deadline has passed but nobody marked it yet (no worker), mark it now."""
    if table.expired_marked_at is None and is_expired(table, now):
        mark_expired(table.pk, now=now)
        table.refresh_from_db()


def due_tables(now: dt.datetime | None = None) -> list[int]:
    """Tables whose deadline has passed and that are not marked yet (for the sweep)."""
    return list(
        Table.objects.filter(deadline__lte=_now(now), expired_marked_at__isnull=True,
                             paused_at__isnull=True)
        .exclude(status=Table.Status.FINISHED)
        .exclude(game__status=Game.Status.FINISHED)
        .exclude(game__tournament__status=Tournament.Status.FINISHED)
        .values_list("pk", flat=True)
    )


def _user(actor: Any) -> Any:
    return actor if getattr(actor, "is_authenticated", False) else None


__all__ = [
    "bump", "clock_state", "due_tables", "ensure_marked", "extend_clock", "is_expired", "mark_expired",
    "pause_clock", "remaining", "resume_clock", "start_clock",
]
