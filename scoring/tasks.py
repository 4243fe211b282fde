"""Celery tasks of scoring/: the national ranking (K-RANKING) is recomputed here, never in a
request. Queued by ``scoring.national.request_update`` once the write that asked commits; the
computation locks the year's row, so concurrent runs of one year queue up and the last one wins
with everything committed before it started."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="scoring.tasks.recompute_ranking", ignore_result=True)
def recompute_ranking(year: int) -> int:
    """Recompute and store ``year``'s national ranking; returns the stored version."""
    from .national import compute

    return compute(int(year)).version
