"""The rating's update after a result counts: queued at commit, run by a worker (in-process
without one). Connected in ``RatingsConfig.ready`` to scoring's models' saves."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import transaction

from tables.models import Table


@shared_task(name="ratings.tasks.update_ratings", ignore_result=True)
def update_ratings(table_id: int) -> int:
    """Rate again from ``table_id``'s place in the rating's order on (its result is new or
    changed; the tables after it follow)."""
    from . import selectors, services

    table = Table.objects.select_related("game__tournament").filter(pk=table_id).first()
    if table is None:
        return 0
    return services.update_from(selectors.table_key(table))


@shared_task(name="ratings.tasks.update_tournament", ignore_result=True)
def update_tournament(tournament_id: int) -> int:
    """Rate again from a whole tournament on (an imported workbook)."""
    from tournaments.models import Tournament

    from . import selectors, services

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return services.update_from(selectors.tournament_key(tournament.date, tournament.pk))


def _queue(task: Any, pk: int) -> None:
    # robust: a broker away loses this update, never the write; recompute_ratings repairs
    transaction.on_commit(lambda: task.delay(pk), robust=True)


def confirmation_saved(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    if created and not raw:
        _queue(update_ratings, instance.submission.table_id)


def submission_saved(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    """A result published unconfirmed counts at once (its tournament's setting)."""
    if not created or raw:
        return
    from scoring.selectors import settings_for

    if settings_for(instance.tournament).publish_unconfirmed:
        _queue(update_ratings, instance.table_id)


def workbook_saved(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """An imported workbook's results are created in bulk (no signal per result)."""
    if not raw:
        _queue(update_tournament, instance.tournament_id)
