from typing import Any

from django.apps import AppConfig

# A tournament's fields that decide whether and where it is in the national ranking (K-RANKING).
RANKED_FIELDS = ("status", "event_type", "date")


class RankingConfig(AppConfig):
    """The national ranking (K-RANKING) across every event on this instance, and one event's
    contribution to it.

    Above scoring: it reads the standings of finished events. Scoring never imports it: what must
    recompute a year (a tournament finished, reopened, renamed players, a corrected result of a
    finished event) reaches it through ``tournaments/hooks.py`` and the signals below."""

    name = "ranking"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save, pre_delete, pre_save

        from tournaments import hooks
        from tournaments.models import Tournament

        from . import (
            exports,
            national,
            tasks,  # noqa: F401  (known to Celery by name: national queues it so, never importing it)
        )

        hooks.register(hooks.tournament_changed, national.tournament_changed)
        hooks.register(hooks.players_changed, national.players_changed)
        exports.register()  # the event's ranking rows among the tournament's spreadsheets
        pre_delete.connect(_tournament_deleted, sender=Tournament, dispatch_uid="ranking.tournament_deleted")
        pre_save.connect(_tournament_saving, sender=Tournament, dispatch_uid="ranking.tournament_saving")
        post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="ranking.tournament_saved")


def _tournament_deleted(sender: object, instance: object, **kwargs: object) -> None:
    """A deleted tournament (admin) leaves the national ranking of the years it was in (K-RANKING)."""
    from .models import NationalRankingEvent
    from .national import request_update

    for year in set(NationalRankingEvent.objects.filter(tournament=instance).values_list("ranking__year", flat=True)):
        request_update(year)


def _tournament_saving(sender: Any, instance: Any, raw: bool = False, update_fields: Any = None,
                       **kwargs: object) -> None:
    """Remember the ranked fields as stored, to compare once saved (every path: services, the
    admin, imports)."""
    instance._ranked_before = None
    if raw or instance.pk is None or (update_fields is not None and not set(update_fields) & set(RANKED_FIELDS)):
        return
    instance._ranked_before = sender.objects.filter(pk=instance.pk).values(*RANKED_FIELDS).first()


def _tournament_saved(sender: Any, instance: Any, created: bool = False, raw: bool = False,
                      **kwargs: object) -> None:
    """A finished tournament's status, national type or date changed (the admin's edit included):
    the years it is and was in get recomputed after the commit (K-RANKING)."""
    before = getattr(instance, "_ranked_before", None)
    instance._ranked_before = None
    if raw or created or before is None:
        return
    after = {f: getattr(instance, f) for f in RANKED_FIELDS}
    if after == before:
        return
    finished = sender.Status.FINISHED
    if finished in (before["status"], after["status"]):
        from .national import tournament_changed

        tournament_changed(instance)
