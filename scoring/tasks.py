"""Celery tasks of scoring/, never run in a request: the standings are recomputed by a worker
after each committed result change (``scoring.recompute.invalidate``; the national ranking's
task is ``ranking/tasks.py``).

A recomputation can be lost: its worker process killed (then Celery gives the message back,
``task_reject_on_worker_lost``), or never queued because Redis was away when the write
committed. ``heal_standings``, sent by beat every ``STANDINGS_WATCHDOG_SECONDS``, queues again
every tournament whose stored standings miss a change (``scoring.selectors.behind``), so the
leaderboard comes right without waiting for another write."""

from __future__ import annotations

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="scoring.tasks.recompute_standings", ignore_result=True)
def recompute_standings(tournament_id: int) -> bool:
    from .recompute import recompute

    return recompute(int(tournament_id))


@shared_task(name="scoring.tasks.heal_standings", ignore_result=True)
def heal_standings() -> list[int]:
    """Queue a recomputation of every tournament whose standings are behind; returns their ids."""
    from .recompute import schedule
    from .selectors import behind

    late = behind()
    for tournament_id in late:
        log.info("standings of tournament %s miss a change: recomputing them", tournament_id)
        schedule(tournament_id)
    return late
