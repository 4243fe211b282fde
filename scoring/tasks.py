"""Celery tasks of scoring/, never run in a request: the standings are recomputed by a worker
after each committed result change (``scoring.selectors.invalidate``); the national ranking
(K-RANKING) is recomputed when ``scoring.national.request_update``'s write commits (the computation
locks the year's row, so concurrent runs of one year queue up and the last one wins with
everything committed before it started)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="scoring.tasks.recompute_standings", ignore_result=True)
def recompute_standings(tournament_id: int) -> bool:
    from .selectors import recompute

    return recompute(int(tournament_id))


@shared_task(name="scoring.tasks.recompute_ranking", ignore_result=True)
def recompute_ranking(year: int) -> int:
    """Recompute and store ``year``'s national ranking; returns the stored version."""
    from .national import compute

    return compute(int(year)).version
