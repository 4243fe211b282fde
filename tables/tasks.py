"""Celery tasks of the clocks (E-TIME).

``expire_table`` is scheduled at a table's deadline (``tables.clocks.start_clock``/``resume``);
``sweep_deadlines`` runs every 30 s from beat (``CELERY_BEAT_SCHEDULE``) and marks every deadline
that passed unmarked — a worker that was stopped loses nothing. Both are idempotent: marking goes
through ``tables.clocks.mark_expired`` which locks the row and records the expiry once.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tables.tasks.expire_table", ignore_result=True)
def expire_table(table_id: int) -> bool:
    """Mark the table's time as expired if its (current) deadline has passed. A clock paused or
    resumed meanwhile has a later deadline: then nothing happens (the resume scheduled another)."""
    from .clocks import mark_expired

    return mark_expired(int(table_id))


@shared_task(name="tables.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Mark every passed, unmarked deadline; returns how many this run marked."""
    from .clocks import due_tables, mark_expired

    return sum(1 for table_id in due_tables() if mark_expired(table_id))


def sweep_on_worker_start(sender: object = None, **kwargs: object) -> None:
    """A worker that (re)starts sweeps at once, before beat's first tick: deadlines that passed
    while no worker ran are marked without waiting (and without relying on a queued task)."""
    from django.db import connections

    try:
        sweep_deadlines.apply()
    finally:
        connections.close_all()  # never hand an open connection to forked pool processes


def _connect_signals() -> None:
    from celery.signals import worker_ready

    worker_ready.connect(sweep_on_worker_start, weak=False, dispatch_uid="tables.sweep_on_worker_start")


_connect_signals()
