"""The rating's update after what it reads changes: queued at commit, run by a worker (in-process
without one). Connected in ``RatingsConfig.ready`` to the saves of scoring's, tables' and
tournaments' models: a result that counts (a confirmation, a result published unconfirmed, an
imported workbook), an event's date or status changed or the event deleted, a game made a
rehearsal or a real game again. Each queues a rating again from that point of the order on."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import transaction

from tables.models import Table

from . import selectors


@shared_task(name="ratings.tasks.update_ratings", ignore_result=True)
def update_ratings(table_id: int) -> int:
    """Rate again from ``table_id``'s place in the rating's order on (its result is new or
    changed; the tables after it follow)."""
    table = Table.objects.select_related("game__tournament").filter(pk=table_id).first()
    return update_from(selectors.table_key(table)) if table is not None else 0


@shared_task(name="ratings.tasks.update_from", ignore_result=True)
def update_from(key: str, players: list[int] | None = None) -> int:
    """Rate again from ``key`` on; ``players`` also get their rating rebuilt (those of a deleted
    event, whose history went with it)."""
    from . import services

    return services.update_from(key, players or ())


def _queue(task: Any, *args: Any) -> None:
    # robust: a broker away loses this update, never the write; recompute_ratings repairs
    transaction.on_commit(lambda: task.delay(*args), robust=True)


def confirmation_saved(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    if created and not raw:
        _queue(update_ratings, instance.submission.table_id)


def submission_saved(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    """A result published unconfirmed counts at once (its tournament's setting)."""
    if not created or raw:
        return
    if instance.tournament.event_format().publish_unconfirmed:
        _queue(update_ratings, instance.table_id)


def workbook_saved(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """An imported workbook's results are created in bulk (no signal per result)."""
    if not raw:
        tournament = instance.tournament
        _queue(update_from, selectors.tournament_key(tournament.date, tournament.pk))


def _unseen(raw: bool, instance: Any, update_fields: Any, fields: set[str]) -> bool:
    """Whether a save cannot change ``fields`` (a new row, a fixture, other fields named)."""
    return raw or instance.pk is None or (update_fields is not None and not fields & set(update_fields))


def tournament_saving(sender: Any, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """Remember where the event was in the order, and whether it counted (its date, its status)."""
    instance._rated_before = None if _unseen(raw, instance, update_fields, {"date", "status"}) else (
        sender.objects.filter(pk=instance.pk).values_list("date", "status").first())


def tournament_saved(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    before = getattr(instance, "_rated_before", None)
    instance._rated_before = None
    if raw or before is None or before == (instance.date, instance.status):
        return
    _queue(update_from, min(selectors.tournament_key(before[0], instance.pk),
                            selectors.tournament_key(instance.date, instance.pk)))


def tournament_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    from .models import RatedGame

    players = sorted(set(RatedGame.objects.filter(tournament=instance).values_list("player_id", flat=True)))
    if players:
        _queue(update_from, selectors.tournament_key(instance.date, instance.pk), players)


def game_saving(sender: Any, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    instance._rehearsal_before = None if _unseen(raw, instance, update_fields, {"rehearsal"}) else (
        sender.objects.filter(pk=instance.pk).values_list("rehearsal", flat=True).first())


def game_saved(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """A game made a rehearsal (or a real game again) leaves (or joins) the rating."""
    before = getattr(instance, "_rehearsal_before", None)
    instance._rehearsal_before = None
    if raw or before is None or before == instance.rehearsal:
        return
    tournament = instance.tournament
    _queue(update_from, f"{selectors.tournament_key(tournament.date, tournament.pk)}|{instance.number:05d}")


def players_merged(drop: int, keep: int) -> None:
    """A merge (tournaments/merge.py) moved ``drop``'s rating rows and seats to ``keep``: their
    ratings are one player's from the earliest game of either on."""
    from .models import RatedGame, Rating

    Rating.objects.filter(player_id=keep).delete()
    first = RatedGame.objects.filter(player_id=keep).order_by("key").values_list("key", flat=True).first()
    if first is not None:
        _queue(update_from, first, [keep])
