from __future__ import annotations

from django.apps import AppConfig


class ClubstatsConfig(AppConfig):
    name = "clubstats"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save, pre_delete

        from scoring.models import WorkbookEvent
        from tournaments import hooks
        from tournaments.models import Tournament

        from . import tasks

        # The apps below know nothing of the statistics (they depend one way): a finished event's
        # change reaches them through the hook the national ranking listens to as well.
        hooks.register(hooks.tournament_changed, tasks.tournament_changed)
        hooks.register(hooks.players_merged, tasks.players_merged)
        post_save.connect(tasks.workbook_saved, sender=WorkbookEvent, dispatch_uid="clubstats.workbook")
        pre_delete.connect(tasks.tournament_deleting, sender=Tournament, dispatch_uid="clubstats.tournament_deleting")
