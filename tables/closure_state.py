"""The sdadata closure state of a table, as stored (E-TIME, E-SUPP, E-SDADATA).

The engine state replayed over the table's turn log (``TurnEvent``), cached in
``Table.closure_state``, and its first step when time expires (:func:`start_closure`). Below
both ``tables.clocks`` (whose expiry starts the closure) and ``tables.closure`` (the referee's
steps), so neither has to import the other to read it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError
from engine import ClosureState, EngineError

from .models import Table, TurnEvent

ROLL_KINDS = (TurnEvent.Kind.END_TURN, TurnEvent.Kind.SDADATA)


# ------------------------------------------------------------------------------ reading


def initial_state(table: Table) -> ClosureState:
    """The closure state before the first turn: seats in turn order (T-ORDER); ghost seats
    (no player, K-TABLES) take no turns."""
    rs = table.game.tournament.event_format().rules()
    seats = list(table.seats.all())
    if not seats:
        raise DomainError(_("This table has no seats."), field="table", rule="T-SIZE")
    numbers = sorted(s.number for s in seats)
    state = ClosureState.start(rs, players=max(numbers))
    for seat in seats:
        if seat.player_id is None:
            state = state.eliminate(seat.number)
    if state.seat in state.eliminated:
        state = replace(state, seat=state.active()[0])
    return state


def _apply(state: ClosureState, event: TurnEvent) -> ClosureState:
    if event.kind in ROLL_KINDS:
        roll = tuple(event.dice) if event.dice else None
        return state.end_turn(int(event.seat or 0), event.conquered, roll)
    if event.kind == TurnEvent.Kind.TIME_EXPIRED:
        if event.seat and event.seat != state.seat and event.seat in state.active():
            # the referee says whose turn it was when time expired (turns of normal play are
            # not necessarily recorded)
            state = replace(state, seat=event.seat)
        return state.time_expired()
    if event.kind == TurnEvent.Kind.ELIMINATION and event.seat:
        return state.eliminate(event.seat)
    return state


def replay(table: Table, events: list[TurnEvent] | None = None) -> ClosureState:
    """The closure state after every recorded step of the table."""
    state = initial_state(table)
    for event in events if events is not None else table.turn_events.order_by("index"):
        state = _apply(state, event)
    return state


def current_state(table: Table) -> ClosureState:
    if table.closure_state:
        try:
            return ClosureState.from_dict(table.closure_state)
        except EngineError:
            pass
    return replay(table)


def start_closure(locked: Table, *, now: dt.datetime | None = None) -> None:
    """Called by ``clocks.mark_expired`` on a locked row: the time_expired step (E-SUPP).
    The caller saves ``closure_state``."""
    state = current_state(locked)
    if state.closure == "none" or state.time_is_up:
        return
    index = locked.turn_events.count()
    TurnEvent.objects.create(table=locked, index=index, kind=TurnEvent.Kind.TIME_EXPIRED,
                             seat=state.seat, at=now or timezone.now())
    locked.closure_state = state.time_expired().as_dict()
