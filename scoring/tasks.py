"""Celery tasks of scoring/, never run in a request: the standings are recomputed by a worker
after each committed result change (``scoring.selectors.invalidate``); the national ranking
(K-RANKING) is recomputed when ``scoring.national.request_update``'s write commits (the computation
locks the year's row, so concurrent runs of one year queue up and the last one wins with
everything committed before it started)."""

from __future__ import annotations

"""Celery tasks of scoring/, never run in a request: the standings are recomputed by a worker
after each committed result change (``scoring.selectors.invalidate``); the national ranking
(K-RANKING) is recomputed when ``scoring.national.request_update``'s write commits (the computation
locks the year's row, so concurrent runs of one year queue up and the last one wins with
everything committed before it started)."""
