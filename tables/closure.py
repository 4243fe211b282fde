"""The sdadata closure of a table (E-TIME, E-SUPP, E-SDADATA, E-BAR) — the referee's services.

The rules are the engine's (``engine.closure.ClosureState``); this module only stores them. The
table's turn log (``TurnEvent``) is the truth: the closure state is the engine state replayed
over the log from the start, cached in ``Table.closure_state``. Every write locks the table,
checks the version the referee saw (a stale one is a conflict, HTTP 409), validates the step
through the engine (a refused step carries the rule id), appends one ``TurnEvent`` (unique per
(table, index)) and bumps ``Table.version``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.engine_messages import describe as engine_sentence
from common.engine_messages import ending_in_sentence
from common.errors import ConflictError, DomainError
from engine import ClosureState, EngineError, NextAction
from tournaments import audit

from . import clocks
from .closure_state import current_state, replay
from .models import Table, TurnEvent


def next_action(table: Table, now: dt.datetime | None = None) -> NextAction:
    """What happens next at the table (the page always says it). Before the deadline was
    marked but after it passed (no worker), the state is shown as if marked."""
    state = current_state(table)
    if not state.time_is_up and clocks.is_expired(table, now) and state.closure != "none":
        state = state.time_expired()
    return state.next_action()


def describe(action: NextAction, conquered: int | None = None) -> str:
    """The next action as a translatable sentence (the engine's message is English)."""
    seat, threshold = action.seat, action.threshold
    if action.kind == "ended":
        if action.ended_by is not None:
            return _("The game has ended: %(how)s.") % {"how": ending_in_sentence(action.ended_by)}
        return _("The game has ended.")
    if action.kind == "play":
        return _("Seat %(seat)s plays.") % {"seat": seat}
    if action.kind == "finish_round":
        if action.rule == "S-TA":
            return _("Seat %(seat)s finishes the round; the game ends with it.") % {"seat": seat}
        return _("Time is up: seat %(seat)s finishes the round.") % {"seat": seat}
    if action.kind == "supplementary":
        return _("Supplementary round: seat %(seat)s plays.") % {"seat": seat}
    if action.kind == "may_not_roll":
        if conquered is None:
            return _("Seat %(seat)s may not roll (conquered more than the limit).") % {"seat": seat}
        return _("Seat %(seat)s may not roll (conquered %(conquered)s).") % {"seat": seat,
                                                                           "conquered": conquered}
    return _("Seat %(seat)s rolls: ends on ≤ %(threshold)s.") % {"seat": seat, "threshold": threshold}


def steps(table: Table) -> list[TurnEvent]:
    return list(table.turn_events.order_by("index").select_related("recorded_by"))


# ------------------------------------------------------------------------------ writing


def _engine_refusal(exc: EngineError, field: str) -> DomainError:
    """The engine's refusal in the page's language; its rule id is the error's ``rule``, which the
    page says once (templates/_rule_badge.html, ``DomainError.text``), never in the sentence too."""
    return DomainError(engine_sentence(exc.code, exc.params, exc.message), field=field, rule=exc.rule)


def _begin(table: Table, expected_version: int | None, now: dt.datetime | None) -> Table:
    """Lock the table, mark a passed deadline, check the referee saw the latest version."""
    clocks.ensure_marked(table, now)
    locked = Table.objects.select_for_update().select_related("game__tournament").get(pk=table.pk)
    if expected_version is not None and int(expected_version) != locked.version:
        raise ConflictError(
            _("Another referee recorded a step at this table meanwhile; check the log and try again."),
            field="version",
        )
    return locked


def _append(locked: Table, state: ClosureState, *, actor: Any, kind: str, seat: int | None,
            conquered: int = 0, dice: list[int] | None = None, by_server: bool = False,
            now: dt.datetime | None = None) -> TurnEvent:
    index = locked.turn_events.count()
    try:
        with transaction.atomic():
            event = TurnEvent.objects.create(
                table=locked, index=index, kind=kind, seat=seat, conquered=conquered,
                dice=dice or [], rolled_by_server=by_server,
                recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
                at=now or timezone.now(),
            )
    except IntegrityError as exc:
        raise ConflictError(
            _("Another referee recorded this step first; check the log and try again."),
            field="version",
        ) from exc
    before_status = locked.status
    locked.closure_state = state.as_dict()
    if state.ended:
        locked.status = Table.Status.FINISHED
    elif locked.status == Table.Status.FINISHED:
        locked.status = Table.Status.TIME_EXPIRED if locked.expired_marked_at else Table.Status.RUNNING
    locked.version += 1
    locked.save(update_fields=["closure_state", "status", "version"])
    audit.record(actor=actor, action=f"table.{kind}", obj=locked, tournament=locked.game.tournament,
                 before={"status": before_status},
                 after={"index": index, "seat": seat, "conquered": conquered, "dice": dice or [],
                        "rolled_by_server": by_server, "next": state.next_action().message})
    transaction.on_commit(lambda: clocks.bump(locked))
    return event


def roll_dice(count: int) -> list[int]:
    """Server-side sdadata roll (``secrets``), recorded like typed dice."""
    return [secrets.randbelow(6) + 1 for _i in range(count)]


def record_end_of_turn(table: Table, *, actor: Any, seat: int, conquered: int,
                       dice: list[int] | None = None, server_roll: bool = False,
                       expected_version: int | None = None,
                       now: dt.datetime | None = None) -> TurnEvent:
    """The end of ``seat``'s turn after ``conquered`` conquests (E-BAR), with its sdadata roll
    when one is due (E-SDADATA): typed ``dice`` from the real dice, or ``server_roll``."""
    if conquered is None or int(conquered) < 0:
        raise DomainError(_("Territories conquered must be 0 or more."), field="conquered", rule="E-BAR")
    conquered = int(conquered)
    if dice and server_roll:
        raise DomainError(_("Either type the dice or let the server roll, not both."), field="dice",
                          rule="E-SDADATA")
    with transaction.atomic():
        locked = _begin(table, expected_version, now)
        state = current_state(locked)
        if state.ended:
            raise DomainError(_("The game at this table has ended; no more turns."), field="seat",
                              rule="E-SDADATA")
        if server_roll:
            roll_due = state.roll_due() and not state.barred(conquered) and seat == state.seat
            if not roll_due:
                reason = state.with_conquests(conquered).next_action() if seat == state.seat else None
                rule = reason.rule if reason and reason.rule else "T-ORDER"
                raise DomainError(_("No sdadata roll is due now."), field="dice", rule=rule)
            dice = roll_dice(state.dice)
        try:
            new_state = state.end_turn(int(seat), conquered, tuple(dice) if dice else None)
        except EngineError as exc:
            field = {"T-ORDER": "seat", "E-BAR": "dice", "E-SDADATA": "dice", "E-SUPP": "dice",
                     "E-TIME": "dice"}.get(exc.rule, "seat")
            raise _engine_refusal(exc, field) from exc
        kind = TurnEvent.Kind.SDADATA if dice else TurnEvent.Kind.END_TURN
        event = _append(locked, new_state, actor=actor, kind=kind, seat=int(seat),
                        conquered=conquered, dice=list(dice or []), by_server=server_roll, now=now)
    table.take_saved_state(locked)
    return event


def record_elimination(table: Table, *, actor: Any, seat: int, expected_version: int | None = None,
                       now: dt.datetime | None = None) -> TurnEvent:
    """A-ELIM: the seat takes no more turns (the closure's anchor passes on)."""
    with transaction.atomic():
        locked = _begin(table, expected_version, now)
        state = current_state(locked)
        if state.ended:
            raise DomainError(_("The game at this table has ended; no more turns."), field="seat",
                              rule="E-SDADATA")
        if int(seat) not in state.active():
            raise DomainError(_("Seat %(seat)s is not playing at this table.") % {"seat": seat},
                              field="seat", rule="A-ELIM")
        if int(seat) == state.seat:
            raise DomainError(_("The seat whose turn it is cannot be eliminated now."), field="seat",
                              rule="A-ELIM")
        event = _append(locked, state.eliminate(int(seat)), actor=actor,
                        kind=TurnEvent.Kind.ELIMINATION, seat=int(seat), now=now)
    table.take_saved_state(locked)
    return event


def set_expiry_seat(table: Table, *, actor: Any, seat: int, expected_version: int | None = None,
                    now: dt.datetime | None = None) -> None:
    """Say whose turn it was when time expired (when the turns of normal play were not all
    recorded). Allowed only while no step was recorded after the expiry."""
    with transaction.atomic():
        locked = _begin(table, expected_version, now)
        events = steps(locked)
        if not events or events[-1].kind != TurnEvent.Kind.TIME_EXPIRED:
            raise DomainError(_("Steps were already recorded after the time expired."), field="seat",
                              rule="E-SUPP")
        last = events[-1]
        before = last.seat
        last.seat = int(seat)
        try:
            state = replay(locked, events)
        except EngineError as exc:
            raise _engine_refusal(exc, "seat") from exc
        if state.seat != int(seat):
            raise DomainError(_("Seat %(seat)s is not playing at this table.") % {"seat": seat},
                              field="seat", rule="T-ORDER")
        last.save(update_fields=["seat"])
        locked.closure_state = state.as_dict()
        locked.version += 1
        locked.save(update_fields=["closure_state", "version"])
        audit.record(actor=actor, action="table.expiry_seat", obj=locked,
                     tournament=locked.game.tournament, before={"seat": before}, after={"seat": seat})
        transaction.on_commit(lambda: clocks.bump(locked))
    table.take_saved_state(locked)


def undo_last(table: Table, *, actor: Any, expected_version: int | None = None,
              now: dt.datetime | None = None) -> None:
    """Take back the last step the referee recorded (not the expiry itself); audited."""
    with transaction.atomic():
        locked = _begin(table, expected_version, now)
        last = locked.turn_events.order_by("-index").first()
        if last is None or last.kind == TurnEvent.Kind.TIME_EXPIRED:
            raise DomainError(_("There is no recorded step to take back."), field="version")
        snapshot = {"index": last.index, "kind": last.kind, "seat": last.seat,
                    "conquered": last.conquered, "dice": last.dice}
        last.delete()
        state = replay(locked)
        locked.closure_state = state.as_dict()
        if locked.status == Table.Status.FINISHED:
            locked.status = Table.Status.TIME_EXPIRED if locked.expired_marked_at else Table.Status.RUNNING
        locked.version += 1
        locked.save(update_fields=["closure_state", "status", "version"])
        audit.record(actor=actor, action="table.undo_step", obj=locked,
                     tournament=locked.game.tournament, before=snapshot, after=None)
        transaction.on_commit(lambda: clocks.bump(locked))
    table.take_saved_state(locked)
