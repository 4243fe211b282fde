"""The statistics' Celery tasks, never run in a request: the figures are rebuilt after an event
finishes, is reopened or restored, or a result of a finished one changes (``tournaments.hooks.
tournament_changed``), after an imported workbook, a deleted event or a merge of players; a club's
own ranking after its rule changes. Asked several times in one transaction: queued once."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import connection, transaction

RECOMPUTE_TASK = "clubstats.tasks.recompute_statistics"


@shared_task(name=RECOMPUTE_TASK, ignore_result=True)
def recompute_statistics(simulate: bool = True) -> int:
    """Rebuild every stored figure (loading the events' tables is most of the work, so every year
    is rebuilt); with ``simulate``, the simulator's too when they are missing or their seed or
    counts changed (seconds of a worker's time: never in a request, see ``_Queue``)."""
    from . import services

    stored = services.recompute()
    if simulate:
        services.refresh_simulator()
    return stored


@shared_task(name="clubstats.tasks.rerank", ignore_result=True)
def rerank(club_id: int) -> int:
    from . import services

    return services.rerank(int(club_id))


class _Queue:
    """An on-commit callback that queues the recomputation (recognisable: once per transaction)."""

    queued = False

    def __call__(self) -> None:
        from scoring.selectors import tasks_in_process

        self.queued = True
        # without a worker the task runs in the request that finished the event: the simulator's
        # games (seconds) are then left to ``manage.py rebuild_statistics``
        recompute_statistics.delay(simulate=not tasks_in_process())


def request_update() -> None:
    """Queue the recomputation once the current transaction commits (at once outside one);
    a broker away loses this update, never the write (``rebuild_statistics`` repairs)."""
    if connection.in_atomic_block and any(isinstance(item[1], _Queue) and not item[1].queued
                                          for item in connection.run_on_commit):
        return
    transaction.on_commit(_Queue(), robust=True)


def tournament_changed(tournament: Any) -> None:
    request_update()


def workbook_saved(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        request_update()


def tournament_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.status == instance.Status.FINISHED:
        request_update()


def players_merged(drop: int, keep: int) -> None:
    request_update()
