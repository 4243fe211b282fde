"""Celery tasks of scoring: the standings are recomputed by a worker after each committed
result change (``scoring.selectors.invalidate``), never by the requests that read them."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="scoring.tasks.recompute_standings", ignore_result=True)
def recompute_standings(tournament_id: int) -> bool:
    from .selectors import recompute

    return recompute(int(tournament_id))
