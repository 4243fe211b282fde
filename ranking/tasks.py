"""Celery task of the national ranking (K-RANKING), never run in a request: a year is recomputed
when ``ranking.national.request_update``'s write commits (the computation locks the year's row,
so concurrent runs of one year queue up and the last one wins with everything committed before
it started). The task keeps the name it had in scoring, so messages already queued still run."""

from __future__ import annotations

from celery import shared_task

from .national import RECOMPUTE_TASK, compute


@shared_task(name=RECOMPUTE_TASK, ignore_result=True)
def recompute_ranking(year: int) -> int:
    """Recompute and store ``year``'s national ranking; returns the stored version."""
    return compute(int(year)).version
