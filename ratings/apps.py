from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save, pre_delete, pre_save

        from scoring.models import Confirmation, ResultSubmission, WorkbookEvent
        from tables.models import Game
        from tournaments import hooks
        from tournaments.models import Tournament

        from . import tasks

        # Every change of what the rating reads queues its update after the commit (ratings/tasks.py);
        # the apps below know nothing of ratings (they depend one way).
        post_save.connect(tasks.confirmation_saved, sender=Confirmation, dispatch_uid="ratings.confirmation")
        post_save.connect(tasks.submission_saved, sender=ResultSubmission, dispatch_uid="ratings.submission")
        post_save.connect(tasks.workbook_saved, sender=WorkbookEvent, dispatch_uid="ratings.workbook")
        pre_save.connect(tasks.tournament_saving, sender=Tournament, dispatch_uid="ratings.tournament_saving")
        post_save.connect(tasks.tournament_saved, sender=Tournament, dispatch_uid="ratings.tournament_saved")
        pre_delete.connect(tasks.tournament_deleting, sender=Tournament, dispatch_uid="ratings.tournament_deleting")
        pre_save.connect(tasks.game_saving, sender=Game, dispatch_uid="ratings.game_saving")
        post_save.connect(tasks.game_saved, sender=Game, dispatch_uid="ratings.game_saved")
        hooks.register(hooks.players_merged, tasks.players_merged)  # after scoring's: the scores name ``keep``
